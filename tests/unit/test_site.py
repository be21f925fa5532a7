"""`iorace site` on hand-built sessions (no toolchain, no browser: tests/test_site_browser.py opens a real
store's site in Chromium): the pages there are, their links, a change point where one was planted, the
placement hook, and bad input as one line."""

import re
from pathlib import Path

from sessions import cell as session_cell
from test_fleet import sessions_of

from iorace.export.site.layout import cell_page
from iorace.export.site.pages import placement_mark


def hrefs(page: Path) -> set[str]:
    return set(re.findall(r'(?:href|src)="([^"]+)"', page.read_text()))


def test_a_site_has_every_page_each_link_resolves_and_the_step_is_a_change_point(iorace_inprocess, tmp_path):
    db = tmp_path / "s.sqlite"
    sessions_of(db, 5, {"a": 1.0, "b": 1.0}, seed=1)
    sessions_of(db, 5, {"a": 1.3, "b": 1.0}, seed=2, first=6)  # a 30% slower from session 6 on
    sessions_of(db, 2, {"a": 1.0, "b": 1.0}, seed=3, first=11, machine_name="other-box")
    out = iorace_inprocess("site", "--db", str(db), "--out", str(tmp_path / "site"))
    assert out.returncode == 0, out.stderr
    pages = {p.name: p for p in (tmp_path / "site").glob("*.html")}
    assert {"index.html", "suite-demo.html", "table-demo-tiny.html"} <= set(pages)
    cells = [n for n in pages if n.startswith("cell-demo-")]
    assert len(cells) == 2  # a and b
    for page in pages.values():
        assert all((tmp_path / "site" / href).is_file() for href in hrefs(page)), page.name
    table = pages["table-demo-tiny.html"].read_text()
    assert all(name in table for name in cells)  # each row links to its cell's history
    (a_page,) = [pages[n] for n in cells if "-c-a-" in n]
    text = a_page.read_text()
    changes = text.split('<section id="changes">')[1].split("</section>")[0]
    assert changes.count("<tr>") == 2 and "toy-box" in changes and "session 5 (" in changes and "session 6 (" in changes
    assert "0000005..0000006" in changes  # the commits that brought it
    index = pages["index.html"].read_text()
    assert "open change points" in index and a_page.name in index


def test_the_placement_mark_shows_only_where_layouts_move_a_cell():
    from iorace.analyse.analysis import Row
    from iorace.analyse.placement import Placement

    row = Row(session_cell("a", [1.0]), "wall", None, None, None, None, None, None, None)
    assert placement_mark(row) == ""  # a cell of one layout: nothing shown
    row.placement = Placement(8, 0.31, "s1+0", "s2+48", 1e-6)
    assert placement_mark(row) == "placement-sensitive"
    row.placement = Placement(8, 0.02, "s1+0", "s2+48", 0.5)
    assert placement_mark(row) == ""


def test_two_cells_whose_names_read_alike_get_two_pages():
    from iorace.core.ids import CellId

    a = CellId.of("s", "d", {"mode": "sum"}, "c/x", "gcc", "release")
    b = CellId.of("s", "d", {"mode": "count"}, "c/x", "gcc", "release")
    c = CellId.of("s", "d", {"mode": "a/b"}, "c/x", "gcc", "release")
    d = CellId.of("s", "d", {"mode": "a b"}, "c/x", "gcc", "release")
    assert len({cell_page(x) for x in (a, b, c, d)}) == 4
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+\.html", cell_page(x)) for x in (a, b, c, d))


def test_bad_input_is_one_line_and_exit_2(iorace_inprocess, tmp_path):
    a_file = tmp_path / "f"
    a_file.write_text("")
    for args, says in (
        (["--db", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "o")], "no database yet"),
        (["--db", str(tmp_path / "none.sqlite"), "--out", str(a_file)], "not a folder"),
        (["--db", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "no" / "such")], "does not exist"),
        (["--db", str(tmp_path / "none.sqlite")], "Missing option '--out'"),
    ):
        out = iorace_inprocess("site", *args)
        assert out.returncode == 2 and says in out.stderr and len(out.stderr.strip().splitlines()) == 1, (args, out.stderr)
    empty = tmp_path / "empty.sqlite"
    from iorace.store.db import Store

    Store(empty).close()
    out = iorace_inprocess("site", "--db", str(empty), "--out", str(tmp_path / "o"))
    assert out.returncode == 2 and "no session stored yet" in out.stderr, out.stderr


def test_a_seed_sessions_then_and_now_table_is_on_its_suites_page(iorace_inprocess, tmp_path):
    from sessions import save
    from test_seeds_unit import seed_session

    db = tmp_path / "seeds.sqlite"
    save(db, seed_session())
    out = iorace_inprocess("site", "--db", str(db), "--out", str(tmp_path / "site"))
    assert out.returncode == 0, out.stderr
    page = (tmp_path / "site" / "suite-lines.html").read_text()
    assert "the seed's table, then and now" in page and "dcat: then and now · lines · tiny" in page
    rows = re.findall(r'<tr><td class="l">([^<]+)</td>', page.split('<section id="overview')[1])
    assert rows[:5] == ["rawOut", "bufOut", "chunk", "dmd rawOut", "nodmd"]  # the seed's order, as the report draws it
    assert "dmd is not packaged here" in page


def test_the_index_says_what_regressed_since_each_machines_session_before(iorace_inprocess, tmp_path):
    db = tmp_path / "s.sqlite"
    sessions_of(db, 3, {"a": 1.0, "b": 1.0}, seed=1)
    sessions_of(db, 1, {"a": 1.5, "b": 1.0}, seed=2, first=4)  # a 50% slower in the latest session
    out = iorace_inprocess("site", "--db", str(db), "--out", str(tmp_path / "site"))
    assert out.returncode == 0, out.stderr
    index = (tmp_path / "site" / "index.html").read_text()
    assert "(since session 3)" in index and "session 4 · " in index
    (regressed,) = re.findall(r"<br>regressed: ([^<]+)", index)
    assert "c/a@gcc" in regressed, regressed
