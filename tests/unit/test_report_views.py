"""The terminal report fits the terminal: compact by default, every column with --wide; the Markdown export
draws the same table model with every column (golden text, as hyperfine's export tests do)."""

import io

import pytest
from rich.console import Console
from sessions import toy_session

from iorace.analyse.analysis import analyse
from iorace.report import tables
from iorace.report.document import build
from iorace.report.markdown import render
from iorace.report.terminal import print_session


def printed(width: int, wide: bool) -> str:
    out = io.StringIO()
    print_session(build(toy_session()), Console(file=out, width=width, color_system=None, highlight=False), wide=wide)
    return out.getvalue()


@pytest.mark.parametrize("width", [80, 120])
def test_compact_view_shows_every_toolchain_status_and_ratio(width):
    text = printed(width, wide=False)
    assert max(len(line) for line in text.splitlines()) <= width
    for needle in ("gcc", "clang", "ok", "wrong", "2.94x", "1.96x", "1.00x", "LIMIT"):
        assert needle in text, needle
    if width >= 120:  # narrower terminals drop the rate and instructions per unit before cutting a number
        assert "instr/byte" in text and "4.00" in text and "7.00" in text


def test_compact_view_wraps_long_labels_instead_of_cutting_them():
    s = toy_session()
    s.cells[0].variant = "a-very-long-variant-name-that-needs-wrapping"
    out = io.StringIO()
    print_session(build(s), Console(file=out, width=80, color_system=None), wide=False)
    text = out.getvalue().split("•")[0]
    header = next(line for line in text.splitlines() if line.startswith("place"))
    start, end = header.index("cell"), header.index("status")  # the cell column, after the place column
    cell_column = "".join(line[start:end].strip() for line in text.splitlines())
    assert "c/a-very-long-variant-name-that-needs-wrapping" in cell_column.replace(" ", "")
    assert "…" not in text


def test_wide_view_has_every_column():
    text = printed(400, wide=True)
    for header in (
        "toolchain",
        "profile",
        "user",
        "sys",
        "cpu",
        "max RSS",
        "wall median (min..max)",
        "x limit",
        "instructions",
        "x fewest",
        "alloc_bytes_per_op",
    ):
        assert header in text, header


def test_compact_columns_are_a_subset_of_the_table_model():
    (g,) = analyse(toy_session())
    full = tables.group_table(g)
    compact = full.view(wide=False)
    assert [c.header for c in compact.columns] == [
        "place",
        "cell",
        "status",
        "inner median",
        "rate",
        "x fastest [95% CI]",
        "instr/byte",
        "notes",
    ]
    assert compact.statuses == full.statuses and compact.columns[compact.status_column].header == "status"


GOLDEN_ROW = (
    "| c/slow | gcc | release | ok | 1,000 | 30.0 ms (29.0 ms..31.0 ms) | 31.0 ms (30.0 ms..32.0 ms) | "
    "27.9 ms | 0 µs | 90% | 2.0 MB | 0.03 MB/s | 2.94x ["
)


def test_markdown_is_the_wide_table():
    md = render(build(toy_session()))
    assert "## toy · tiny · mode=count" in md
    assert "| variant | toolchain | profile | status | answer | inner median (min..max) |" in md
    assert GOLDEN_ROW in md
    assert "| 2.94x [2.77-3.13] | 15.00x | 12 k | 12.00 | 3.00x | 48 |  |" in md
    assert "Best strategy per language and toolchain:" in md
    assert "| c | clang | release | fast | 20.0 ms | 1.96x [" in md


def test_a_manifest_grid_is_drawn_as_the_seed_drew_it():
    from sessions import cell, session

    from iorace.analyse.analysis import grids

    cells = []
    for case in ("carsales", "eval"):
        for config, cpp, rust in (("object", [10, 10, 10], [14, 14, 14]), ("bytes", [20, 20, 20], [30, 30, 30])):
            p = {"case": case, "config": config}
            cells += [cell("capnp", "cpp", "g++", inner=cpp, params=p), cell("capnp", "rust", "cargo", inner=rust, params=p)]
    spec = {
        "title": "capnp grid",
        "split": "case",
        "rows": "config",
        "columns": ["cpp/capnp@g++:release", "rust/capnp@cargo:release"],
        "ratio": ["rust/capnp@cargo:release", "cpp/capnp@g++:release"],
    }
    s = session(cells, suites={"toy": {"grids": [spec], "param_order": {"config": ["object", "bytes"]}}})
    got = grids(s)
    assert [g.split_value for g in got] == ["carsales", "eval"]
    assert [value for value, _, _ in got[0].rows] == ["object", "bytes"]  # the manifest's order
    assert got[0].rows[1][2].value == pytest.approx(1.5)
    md = render(build(s))
    assert "## capnp grid · toy · tiny · case=carsales" in md
    assert "| object | 10.0 ms | 14.0 ms | 1.40x [" in md and "| bytes | 20.0 ms | 30.0 ms | 1.50x [" in md


def seed_table_session():
    """dcat-like: three tests in the seed's order (not the speed order), one not run, on two compilers."""
    from sessions import cell, session

    cells = [
        cell(name, "d", tc, wall=[w * k] * 3, params={}, suite="lines", metric="wall")
        for tc, k in (("gdc", 1), ("ldc2", 2))
        for name, w in (("rawOut", 20), ("bufOut", 10), ("chunk", 5))
    ]
    cells.append(cell("unbuilt", "d", "dmd", status="skipped", params={}, suite="lines", metric="wall"))
    spec = {
        "title": "dcat's tests",
        "rows": ["d/rawOut", "d/bufOut", "d/unbuilt", "d/chunk"],
        "baseline": "d/rawOut",
        "seed_figures": {"d/rawOut": 22.41, "d/bufOut": 9.32},
        "seed_figures_source": "MacOS, 5 runs",
    }
    return session(cells, suites={"lines": {"seed_tables": [spec]}})


def test_a_seed_table_keeps_the_seeds_order_and_its_figures():
    from iorace.analyse.analysis import seed_tables

    got = seed_tables(seed_table_session())
    assert [t.setup for t in got] == ["gdc release · mode=count", "ldc2 release · mode=count"]  # dmd: nothing measured, no table
    rows = got[0].rows
    assert [r.test for r in rows] == ["d/rawOut", "d/bufOut", "d/unbuilt", "d/chunk"]  # the seed's order
    assert rows[1].vs_baseline.value == pytest.approx(0.5) and rows[3].vs_baseline.value == pytest.approx(0.25)
    assert rows[2].row is None and rows[2].vs_baseline is None
    assert rows[1].seed_vs_baseline == pytest.approx(9.32 / 22.41) and rows[3].seed_seconds is None
    md = render(build(seed_table_session()))
    assert "## dcat's tests · lines · tiny · gdc release · mode=count" in md
    assert "| bufOut | ok | 10.0 ms |" in md and "| 9.32 s | 0.42x |" in md and "| unbuilt | not run |" in md


def test_problems_fold_cells_that_fail_alike():
    from sessions import cell, session

    from iorace.report.document import problems

    same = [
        cell(f"v{i}", status="failed", detail="exit code 1: ModuleNotFoundError: No module named 'capnp'", params={"config": str(i)})
        for i in range(30)
    ]
    lines = problems(session([*same, cell("other", status="wrong", detail="answered 2, expected 1")]))
    assert len(lines) == 2
    assert lines[0].startswith("30 cells failed (c/v0@gcc:release, ") and lines[0].endswith("No module named 'capnp'")
    assert "c/other@gcc:release[mode=count]: wrong: answered 2, expected 1" in lines[1]


def test_a_seed_table_takes_the_figures_of_its_own_compiler():
    """serialize: the seed timed gdc and dmd; gdc's table shows gdc's figures, ldc2's none."""
    from iorace.analyse.analysis import seed_tables

    s = seed_table_session()
    spec = s.suites["lines"]["seed_tables"][0]
    spec["seed_figures"] = {}
    spec["seed_figures_by_toolchain"] = {"gdc": {"d/rawOut": 16.1, "d/chunk": 4.5}, "dmd": {"d/rawOut": 22.8}}
    gdc, ldc2 = seed_tables(s)
    assert gdc.rows[3].seed_vs_baseline == pytest.approx(4.5 / 16.1) and "(gdc's)" in gdc.source
    assert all(r.seed_seconds is None for r in ldc2.rows)
    assert "seed's median" not in tables.seed_table(ldc2).columns[-1].header


def test_a_compact_table_too_wide_for_the_terminal_loses_no_word_of_its_notes():
    """rich narrowed the number columns too, widened them again to their minimum and printed a table wider
    than the terminal, which cropped the notes ("reference agai"); the numbers' columns are now fixed."""
    from test_golden import full_session

    out = io.StringIO()
    print_session(build(full_session()), Console(file=out, width=80, color_system=None, highlight=False), wide=False)
    words = set(out.getvalue().split())
    assert {"A/A:", "the", "reference", "again,", "as", "its", "own", "cell", "(not", "ranked)"} <= words
    assert {"stopped", "after", "5", "rounds:", "its", "place", "is", "settled", "(race)"} <= words
    assert max(len(line) for line in out.getvalue().splitlines()) <= 80


def _suite_by_suite(session, width: int = 200) -> tuple[str, str]:
    """What `run` prints (each suite's tables as it is measured, then the rest) and what `show` prints."""
    from iorace.report.terminal import print_suite

    report = build(session)
    piecewise, whole = io.StringIO(), io.StringIO()
    suites = list(dict.fromkeys(c.suite for c in session.cells))
    for suite in suites:
        print_suite(report, Console(file=piecewise, width=width, color_system=None, highlight=False), suite, wide=True)
    print_session(report, Console(file=piecewise, width=width, color_system=None, highlight=False), wide=True, shown=suites)
    print_session(report, Console(file=whole, width=width, color_system=None, highlight=False), wide=True)
    return piecewise.getvalue(), whole.getvalue()


def test_suite_by_suite_prints_what_show_prints_once():
    """`run` prints a suite's tables as soon as it is measured, then only the session-wide rest: one suite's
    session reads exactly as `iorace show` prints it, and one of several suites has every line once."""
    from test_golden import full_session

    piecewise, whole = _suite_by_suite(toy_session())
    assert piecewise == whole
    several = full_session()
    assert len({c.suite for c in several.cells}) == 3
    piecewise, whole = _suite_by_suite(several)
    assert sorted(piecewise.splitlines()) == sorted(whole.splitlines())
    assert piecewise.splitlines()[-1] == whole.splitlines()[-1]  # the session line last


def test_a_cost_per_unit_of_work_below_a_microsecond_is_shown_in_nanoseconds():
    """compare shows a sized cell's cost per byte or step: below 1 µs it must not read "0 µs"."""
    from iorace.analyse.fmt import seconds

    assert seconds(2.1e-9) == "2.1 ns" and seconds(3.456e-7) == "346 ns"
    assert seconds(30e-6) == "30 µs" and seconds(0.0) == "0 µs" and seconds(0.0125) == "12.5 ms"


def test_the_wide_view_shows_a_dict_answer_whole():
    """A dict answer cut after 24 characters hid the key that differed: --wide (and every wide format) shows
    it whole, wrapped in a terminal too narrow for it rather than cut."""
    s = toy_session()
    answer = {"keys": 12000, "strings": 9000, "ints": 3000, "expires": 120, "checksum": 987654321}
    for c in s.cells:
        c.answer = answer
    whole = tables.answer_text(answer)
    assert len(whole) > 60
    assert whole in render(build(s))  # Markdown: the wide table
    for width in (260, 120):
        out = io.StringIO()
        print_session(build(s), Console(file=out, width=width, color_system=None, highlight=False), wide=True)
        text = out.getvalue()  # a wrapped cell's lines interleave with the other columns': every word is there
        assert all(word in text for word in whole.split()), width
        assert "…" not in text.split("•")[0], width
