"""The HTML report: self-contained, every column of the terminal report, charts drawn, and (slow) rendered
by a real headless Chromium without a script error."""
import re
import subprocess
import sys
import tempfile

import pytest
from factory import cell, session

from conftest import REPO, run_iorace
from iorace import tables
from iorace.analysis import analyse
from iorace.export.html import render

TIMES = [0.010, 0.011, 0.012, 0.0105, 0.0102]


def demo(sid: int = 1, factor: float = 1.0, git: str = "1111111"):
    cells = [cell(f"v{i}", [t * factor * (1 + i / 3) for t in TIMES], language=lang, toolchain=tc)
             for i, (lang, tc) in enumerate([("c", "gcc"), ("c", "clang"), ("cpp", "g++"), ("rust", "cargo"),
                                             ("go", "go"), ("python", "python3")])]
    cells.append(cell("limit", [t / 5 for t in TIMES], kind="limit"))
    cells.append(cell("peer", [t * 3 for t in TIMES], language="python", toolchain="python3", kind="peer"))
    cells.append(cell("crash", status="failed", detail="killed by SIGSEGV: about to crash"))
    cells.append(cell("odd", status="wrong", detail="answered 1001, expected 1000"))
    return session(cells, sid=sid, git=git, started=f"2026-11-2{sid}T07:00:00+00:00",
                   command_line="iorace run demo --size tiny")


def visible_text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", "", html, flags=re.S))


def test_report_is_self_contained_and_has_every_part():
    s = demo()
    page = render(s)
    # nothing to fetch: no external scripts, styles, images or fonts (SVG namespaces are not fetched)
    assert not re.search(r"<(script|link|img|iframe)[^>]*\b(src|href)=", page)
    assert "@import" not in page and "url(http" not in page
    assert len(page) < 300_000
    # charts: ratio to the fastest, distribution and best per toolchain for the one group
    assert page.count("<svg") == 3
    for title in ("time relative to the fastest cell", "distribution of the timed runs",
                  "best strategy per language and toolchain"):
        assert title in page
    text = visible_text(page)
    table = tables.group_table(analyse(s)[0]).view(wide=True)
    assert len(table.columns) > 15
    for col in table.columns:  # every column the terminal report has
        assert f"<th>{col.header}</th>" in page, col.header
    assert "iorace run demo --size tiny" in text  # the command that reproduces the session
    assert "/cache/v0/prog /tmp/in 1" in page     # each cell's exact command
    assert "demo tiny c/crash@gcc:release[passes=1]: failed: killed by SIGSEGV: about to crash" in text
    assert "Test CPU" in text and "gcc 1.0" in text
    # filters and sortable tables; rows carry what the filters match
    for name in ("language", "toolchain", "profile", "status"):
        assert f'<select name="{name}">' in page
    assert 'data-language="rust" data-toolchain="cargo" data-profile="release" data-status="ok"' in page
    assert '<tr class="limit"' in page and 'class="l s-failed">failed</td>' in page


def test_several_sessions_add_a_history_chart():
    sessions = [demo(1), demo(2, 1.2, "2222222"), demo(3, 0.9, "3333333")]
    page = render(sessions[-1], sessions)
    assert "history across the given sessions" in page and page.count("<svg") == 4
    assert "#1 2026-11-21 1111111" in page and "#3 2026-11-23 3333333" in page  # session labels on the axis
    assert "history" not in visible_text(render(sessions[-1], sessions[-1:]))


def test_report_command_errors_are_one_line(tmp_path):
    out = subprocess.run([sys.executable, "-m", "iorace", "report", "--db", str(tmp_path / "none.sqlite"),
                          "--html", str(tmp_path / "r.html")], capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "no database yet" in out.stderr


BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"]


def open_in_chromium(path, screenshot):
    """Load the page in Debian's headless chromium: (number of SVG charts, drawn marks, script errors,
    URLs requested)."""
    from playwright.sync_api import sync_playwright

    errors, requests = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="iorace-chromium-"), executable_path="/usr/bin/chromium", headless=True,
            args=BROWSER_ARGS, viewport={"width": 1400, "height": 1000})
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("request", lambda r: requests.append(r.url))
            page.goto(path.as_uri())
            page.wait_for_selector("body[data-ready='1']", timeout=30_000)
            charts = page.locator("figure svg").count()
            marks = page.locator("figure svg path, figure svg line").count()
            page.screenshot(path=str(screenshot))
            # the filters hide the rows that do not match
            page.select_option("select[name=status]", "ok")
            page.fill("#filter-text", "simd-limit")
            shown = page.eval_on_selector_all("table.cells tbody tr", "rows => rows.filter(r => "
                                              "r.style.display !== 'none').map(r => r.cells[0].textContent)")
            page.select_option("select[name=language]", "c")
            page.fill("#filter-text", "no such cell")
            none_shown = page.eval_on_selector_all("table.cells tbody tr", "rows => rows.filter(r => "
                                                     "r.style.display !== 'none').length")
        finally:
            browser.close()
    return charts, marks, shown, none_shown, errors, requests


@pytest.mark.slow
def test_a_real_session_renders_in_chromium(tmp_path):
    page = tmp_path / "report.html"
    result = run_iorace(["run", "readbytes", "--size", "tiny", "--variant", "c/*", "--toolchain", "gcc",
                         "--runs", "2", "--warmup", "0", "--export-html", str(page)], tmp_path, export=False)
    assert result.returncode == 0, result.stderr[-2000:]
    # `iorace report` writes the same page from the database
    again = tmp_path / "again.html"
    out = subprocess.run([sys.executable, "-m", "iorace", "report", "--db", str(tmp_path / "iorace.sqlite"),
                          "--html", str(again)], capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0, out.stderr
    assert again.read_text() == page.read_text()
    assert page.stat().st_size < 400_000
    charts, marks, shown, none_shown, errors, requests = open_in_chromium(page, tmp_path / "report.png")
    assert charts >= 4  # two groups (mode=count, mode=sum), each a ratio and a distribution chart at least
    assert marks > 50
    assert errors == []
    assert requests == [page.as_uri()]  # nothing fetched from anywhere
    assert shown == ["c/simd-limit", "c/simd-limit"]  # one per group (count, sum)
    assert none_shown == 0
    assert (tmp_path / "report.png").stat().st_size > 10_000
