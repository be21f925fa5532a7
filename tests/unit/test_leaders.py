"""The overview's best cell per language and toolchain (iorace.analyse.leaders), over hand-built tables."""

import math

from sessions import cell, session

from iorace.analyse.analysis import analyse
from iorace.analyse.leaders import leaders

SLOW = [30, 30, 30, 30, 30]
FAST = [10, 10, 10, 10, 10]


def two_tables():
    cells = []
    for mode, go_times in (("count", [20] * 5), ("sum", [40] * 5)):
        p = {"mode": mode}
        cells += [
            cell("fast", inner=FAST, params=p),
            cell("slow", inner=SLOW, params=p),  # gcc's other variant: not its best
            cell("fast", toolchain="gcc", profile="debug", inner=[50] * 5, params=p),  # another profile, slower
            cell("loop", language="go", toolchain="go", inner=go_times, params=p),
            cell("simd", kind="limit", inner=[2] * 5, params=p),  # another method: never a leader nor the fastest
            cell("chunks", kind="bulk", inner=[3] * 5, params=p),
            cell("fast~aa", kind="control", inner=FAST, params=p),
        ]
    return session(cells)


def test_each_language_toolchain_gets_its_best_cell_per_table_summarised_over_the_tables():
    (table,) = leaders(analyse(two_tables()))
    assert table.suite == "toy" and table.tables == 2
    assert [(r.language, r.toolchain) for r in table.rows] == [("c", "gcc"), ("go", "go")]
    c, go = table.rows
    assert c.ratios == [1.0, 1.0] and c.won == 2 and c.usual_best == "fast release"
    assert [round(x, 6) for x in go.ratios] == [2.0, 4.0] and go.won == 0
    assert math.isclose(go.geomean, math.sqrt(8))


def test_a_cell_that_did_not_answer_right_is_no_ones_best():
    s = two_tables()
    for c in s.cells:
        if c.key == "c/fast" and c.params["mode"] == "sum" and c.profile == "release":
            c.status, c.runs = "wrong", []
    (table,) = leaders(analyse(s))
    c = next(r for r in table.rows if r.language == "c")
    # in the sum table gcc's best is now its slow variant, and go's loop (40 ms) is beaten by it (30 ms)
    assert c.won == 2 and c.usual_best == "fast release (+1 other)"
    go = next(r for r in table.rows if r.language == "go")
    assert [round(x, 4) for x in go.ratios] == [2.0, round(40 / 30, 4)]
