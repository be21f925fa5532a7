"""The HTML report of hand-built sessions: self-contained, every column of the terminal report, every part
(tests/test_html_browser.py opens a real session's report in headless Chromium)."""

import re

import sessions
from sessions import session

from iorace.analyse.analysis import analyse
from iorace.compare.history import history_section
from iorace.export.html import render
from iorace.report import tables
from iorace.report.document import build

TIMES = [0.010, 0.011, 0.012, 0.0105, 0.0102]


def cell(variant: str, times: list[float] | None = None, **kw):
    kw.setdefault("suite", "demo")
    kw.setdefault("params", {"passes": 1})
    return sessions.cell(variant, inner=[t * 1000 for t in times] if times else None, **kw)


def demo(sid: int = 1, factor: float = 1.0, git: str = "1111111"):
    cells = [
        cell(f"v{i}", [t * factor * (1 + i / 3) for t in TIMES], language=lang, toolchain=tc)
        for i, (lang, tc) in enumerate(
            [("c", "gcc"), ("c", "clang"), ("cpp", "g++"), ("rust", "cargo"), ("go", "go"), ("python", "python3")]
        )
    ]
    cells.append(cell("limit", [t / 5 for t in TIMES], kind="limit"))
    cells.append(cell("peer", [t * 3 for t in TIMES], language="python", toolchain="python3", kind="peer"))
    cells.append(cell("crash", status="failed", detail="killed by SIGSEGV: about to crash"))
    cells.append(cell("odd", status="wrong", detail="answered 1001, expected 1000"))
    s = session(cells, sid=sid, git=git, started=f"2026-11-2{sid}T07:00:00+00:00")
    s.command_line = "iorace run demo --size tiny"
    return s


def visible_text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", "", html, flags=re.S))


def test_report_is_self_contained_and_has_every_part():
    s = demo()
    page = render(build(s))
    # nothing to fetch: no external scripts, styles, images or fonts (SVG namespaces are not fetched)
    assert not re.search(r"<(script|link|img|iframe)[^>]*\b(src|href)=", page)
    assert "@import" not in page and "url(http" not in page
    assert len(page) < 300_000
    # charts: the overview's best cell per language and toolchain, then ratio to the fastest, distribution
    # and best per toolchain for the one group, folded below the overview and the problems
    assert page.count("<svg") == 4
    titles = ["the best cell per language and toolchain, per suite", "<h2>problems</h2>", '<details class="group" id="g0">']
    titles += ["time relative to the fastest cell", "distribution of the timed runs", "best strategy per language and toolchain"]
    places = [page.find(t) for t in titles]
    assert -1 not in places and places[:3] == sorted(places[:3]) and places[2] < min(places[3:]), places
    text = visible_text(page)
    table = tables.group_table(analyse(s)[0]).view(wide=True)
    assert len(table.columns) > 15
    for col in table.columns:  # every column the terminal report has
        assert f"<th>{col.header}</th>" in page, col.header
    assert "iorace run demo --size tiny" in text  # the command that reproduces the session
    assert "/cache/v0/prog /data/tiny count" in page  # each cell's exact command
    assert "demo tiny c/crash@gcc:release[passes=1]: failed: killed by SIGSEGV: about to crash" in text
    assert "Toy CPU" in text and "gcc 12.2" in text
    # filters and sortable tables; rows carry what the filters match
    for name in ("language", "toolchain", "profile", "status"):
        assert f'<select name="{name}">' in page
    assert 'data-language="rust" data-toolchain="cargo" data-profile="release" data-status="ok"' in page
    assert '<tr class="limit"' in page and 'class="l s-failed">failed</td>' in page


def test_several_sessions_add_a_history_chart():
    for factor, flag in ((1.2, "slower"), (0.9, "faster")):
        sessions = [demo(i, 1.0 if i <= 4 else factor, str(i) * 7) for i in range(1, 9)]
        report = build(sessions[-1])
        report.history = history_section(sessions)
        page = render(report)
        assert "history across the given sessions" in page and page.count("<svg") == 5
        assert "#1 2026-11-21 1111111" in page and "#8 2026-11-28 8888888" in page  # session labels on the axis
        # the six cells made slower (faster) from session 5 on are marked there as a change point; the limit
        # and peer rows, unchanged, are not
        assert re.findall(r'aria-label="session: (#\d)[^"]*change: (?:slower|faster)"', page) == ["#5"] * 6
        assert re.findall(rf'aria-label="session: (#\d)[^"]*change: {flag}"', page) == ["#5"] * 6
    assert history_section(sessions[-1:]) is None  # one session: no history
    assert "history" not in visible_text(render(build(sessions[-1])))


def test_report_command_errors_are_one_line(iorace_inprocess, tmp_path):
    out = iorace_inprocess("report", "--db", str(tmp_path / "none.sqlite"), "--html", str(tmp_path / "r.html"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "no database yet" in out.stderr
    sessions.save(tmp_path / "db.sqlite", demo())
    out = iorace_inprocess("report", "--db", str(tmp_path / "db.sqlite"), "--html", str(tmp_path / "no" / "r.html"))
    assert out.returncode == 2 and "--html" in out.stderr and "does not exist" in out.stderr
    out = iorace_inprocess("report", "4", "--db", str(tmp_path / "db.sqlite"), "--html", str(tmp_path / "r.html"))
    assert out.returncode == 2 and "no session 4" in out.stderr


def test_a_manifest_grid_gets_its_table_and_chart():
    cells = []
    for case in ("carsales", "eval"):
        for config, cpp, rust in (("object", [10, 10, 10], [14, 14, 14]), ("bytes", [20, 20, 20], [30, 30, 30])):
            p = {"case": case, "config": config}
            cells += [
                sessions.cell("capnp", "cpp", "g++", inner=cpp, params=p),
                sessions.cell("capnp", "rust", "cargo", inner=rust, params=p),
            ]
    spec = {
        "title": "capnp grid",
        "split": "case",
        "rows": "config",
        "columns": ["cpp/capnp@g++:release", "rust/capnp@cargo:release"],
        "ratio": ["rust/capnp@cargo:release", "cpp/capnp@g++:release"],
    }
    page = render(build(session(cells, suites={"toy": {"grids": [spec], "param_order": {"config": ["object", "bytes"]}}})))
    sections = re.findall(r'<section id="grid\d">.*?</section>', page, re.S)
    assert len(sections) == 2 and "capnp grid · toy · tiny · case=carsales" in sections[0]
    assert all(sec.count("<svg") == 1 for sec in sections)
    bars = re.findall(r'aria-label="config: (\w+); [^"]*column: ([^;"]+)', sections[0])
    assert sorted(bars) == [
        ("bytes", "cpp/capnp@g++:release"),
        ("bytes", "rust/capnp@cargo:release"),
        ("object", "cpp/capnp@g++:release"),
        ("object", "rust/capnp@cargo:release"),
    ]
    assert ">1.40x [" in sections[0] and ">1.50x [" in sections[0]  # the table's ratio column


def test_a_seed_table_gets_its_table_and_chart():
    from test_report_views import seed_table_session

    page = render(build(seed_table_session()))
    sections = re.findall(r'<section id="seed\d">.*?</section>', page, re.S)
    assert len(sections) == 2 and "dcat&#x27;s tests · lines · tiny · gdc release" in sections[0]
    assert all(sec.count("<svg") == 1 for sec in sections)
    dots = re.findall(r'aria-label="test: (\w+); [^"]*source: ([^;"]+)', sections[0])
    assert ("bufOut", "the seed") in dots and ("chunk", "this session") in dots and ("chunk", "the seed") not in dots
