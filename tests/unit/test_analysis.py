"""Grouping, ratios, scaling and per-unit figures of the analysis, on hand-built sessions."""

import math

import pytest
from sessions import cell, session, toy_session

from iorace.analyse.analysis import analyse


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def rows_by_label(group):
    return {f"{r.cell.variant}@{r.cell.toolchain}": r for r in group.rows}


def test_one_group_per_suite_dataset_and_params():
    s = session(
        [cell("a", inner=[1, 1, 1]), cell("a", inner=[1, 1, 1], params={"mode": "sum"}), cell("a", inner=[1, 1, 1], dataset="quick")]
    )
    groups = analyse(s)
    assert sorted((g.dataset, g.params["mode"]) for g in groups) == [("quick", "count"), ("tiny", "count"), ("tiny", "sum")]


def test_ratios_refer_to_the_fastest_comparable_cell_never_the_limit():
    (g,) = analyse(toy_session())
    rows = rows_by_label(g)
    assert g.fastest is rows["fast@gcc"] and g.limit is rows["simd@gcc"]
    assert rows["fast@gcc"].vs_fastest.value == 1.0
    # each round's paired ratio (the fast cell took 10, 10, 11, 10, 10 ms in rounds 0-4), geometric mean
    assert rows["slow@gcc"].vs_fastest.value == pytest.approx(geomean([30 / 10, 31 / 10, 30 / 11, 29 / 10, 30 / 10]))
    assert rows["fast@clang"].vs_fastest.value == pytest.approx(geomean([20 / 10, 20 / 10, 21 / 11, 20 / 10, 19 / 10]))
    assert rows["simd@gcc"].vs_fastest.value == pytest.approx(geomean([2 / 10, 2 / 10, 2 / 11, 2 / 10, 2 / 10]))  # never the reference
    assert rows["slow@gcc"].vs_limit == pytest.approx(30 / 2)
    low, high = rows["slow@gcc"].vs_fastest.low, rows["slow@gcc"].vs_fastest.high
    assert low <= 3.0 <= high and high < 3.5  # a tight interval around the true ratio


def test_rows_sorted_fastest_first_and_bad_cells_last():
    (g,) = analyse(toy_session())
    assert [f"{r.cell.variant}@{r.cell.toolchain}" for r in g.rows] == ["simd@gcc", "fast@gcc", "fast@clang", "slow@gcc", "broken@gcc"]


def test_instructions_per_unit_of_work_and_ratio_to_the_fewest():
    (g,) = analyse(toy_session())
    rows = rows_by_label(g)
    assert g.work_unit == "bytes"
    assert rows["fast@gcc"].instructions_per_unit == pytest.approx(4.0)  # 4000 instructions / 1000 bytes
    assert rows["fast@clang"].instructions_per_unit == pytest.approx(7.0)
    assert rows["slow@gcc"].instructions_ratio == pytest.approx(3.0)  # the limit row is not "the fewest"


def test_best_per_toolchain_and_baseline():
    (g,) = analyse(toy_session())
    best = [(r.cell.variant, r.cell.toolchain) for r in g.best_per_toolchain()]
    assert best == [("fast", "gcc"), ("fast", "clang")]
    assert g.vs_baseline(rows_by_label(g)["fast@clang"]) == pytest.approx(2.0)


def test_scale_params_compare_less_work_per_unit():
    big = cell("ten-passes", inner=[100] * 3, params={"mode": "count", "passes": 10}, units={"bytes": 10_000})
    small = cell(
        "one-pass", language="python", toolchain="python3", inner=[50] * 3, params={"mode": "count", "passes": 1}, units={"bytes": 1000}
    )
    (g,) = analyse(session([big, small], suites={"toy": {"scale_params": ["passes"], "throughput": "bytes"}}))
    rows = rows_by_label(g)
    assert rows["one-pass@python3"].scale == pytest.approx(0.1)
    assert rows["one-pass@python3"].cost == pytest.approx(0.5)  # 50 ms for a tenth of the work
    assert rows["one-pass@python3"].vs_fastest.value == pytest.approx(5.0)
    assert g.params["passes"] == 10  # the group is named after the most work


def test_settings_of_older_sessions_come_from_the_options():
    s = session(
        [cell("a", inner=[1, 1, 1]), cell("b", language="go", toolchain="go", inner=[2, 2, 2])],
        options={"baseline_languages": {"toy": ["go"]}},
    )
    (g,) = analyse(s)
    assert g.baseline_languages == ["go"] and g.baseline.cell.variant == "b"


def test_extra_figures_are_collected_per_group():
    (g,) = analyse(toy_session())
    assert g.extra_names == ["alloc_bytes_per_op"]


def test_cells_without_inner_time_are_compared_on_wall_time():
    s = session([cell("timed", inner=[5, 5, 5]), cell("untimed", wall=[8, 8, 8])])
    rows = rows_by_label(analyse(s)[0])
    assert rows["untimed@gcc"].metric == "wall" and rows["timed@gcc"].metric == "inner"


def test_the_fastest_is_judged_in_shared_rounds_not_by_medians_of_different_stretches():
    # the race stopped `early` after 39 rounds, 3% behind `leader` in every one of them; the machine then ran
    # 10% slower for the 96 rounds only `leader` was timed in, so early's median (10.3) is below leader's (11)
    leader = cell("leader", inner=[10.0] * 39 + [11.0] * 96)
    early = cell("early", inner=[10.3] * 39)
    (g,) = analyse(session([leader, early]))
    rows = rows_by_label(g)
    assert g.fastest is rows["leader@gcc"]
    assert rows["early@gcc"].vs_fastest.value == pytest.approx(1.03)
    assert rows["leader@gcc"].vs_fastest.value == 1.0


def test_a_precision_below_the_session_level_is_said_not_left_silent():
    from iorace.report.document import precision_floors

    def groups(**level: float) -> list:
        s = toy_session()
        s.suites["toy"].update(level)  # as the measure stage stores the fitted level with the suite
        return analyse(s)

    (line,) = precision_floors(groups(session_sd=0.036), 0.02)  # readbytes' fitted level: +-7.1% at best
    assert "+-7.1% at best" in line and "+-2.0% asked" in line and line.startswith("toy:")
    assert precision_floors(groups(session_sd=0.036), 0.10) == [] and precision_floors(groups(session_sd=0.036), None) == []
    # A level relative to each ratio's own noise (readexact and spin take every suite's fit so): its floor is
    # each ratio's, and where that is beyond the precision the race times the rounds alone, so it is said too.
    # slow@gcc against fast@gcc moves about 5% a round here: 0.5x that between sessions is +-4.8% at best.
    (line,) = precision_floors(groups(session_sd_per_round=0.5), 0.02)
    assert line.startswith("toy: a top ratio here moves up to 2.4%") and "+-4.8% at best" in line
    assert precision_floors(groups(session_sd_per_round=0.1), 0.02) == []  # +-0.8%: within reach
