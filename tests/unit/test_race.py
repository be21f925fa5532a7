"""How many rounds a suite gets (race.Plan, race.Race) and the A/A twin, with the fake runner: a cell
whose place is settled stops being timed, precision asks for more rounds, the A/A twin joins after the
first round."""

from __future__ import annotations

import time

import numpy as np
import pytest
from fakes import FakeRunner, ListRecorder, record, toy_cells

from iorace.analyse.analysis import TOP_PLACES
from iorace.core.kind import Kind
from iorace.run.measure import measure
from iorace.run.race import RACE_FAR_ROUNDS, RACE_MIN_ROUNDS, Plan, Race


def costs(race: Race, cell, values) -> None:
    for r, v in enumerate(values):
        race.add(cell, r, v)


def test_a_cell_far_behind_settles_a_close_one_and_the_fastest_do_not(tmp_path):
    fast, close, far = toy_cells(tmp_path, ("fast", "close", "far"))
    rng = np.random.default_rng(3)
    race = Race(Plan(min_rounds=10, race=True))
    costs(race, fast, 10 * np.exp(rng.normal(0, 0.02, 8)))
    costs(race, close, 10.1 * np.exp(rng.normal(0, 0.05, 8)))
    costs(race, far, 30 * np.exp(rng.normal(0, 0.02, 8)))
    assert race.settle([fast, close, far], RACE_FAR_ROUNDS - 1) == []  # too few rounds to judge
    assert race.settle([fast, close, far], 8) == [far]
    assert "settled" in race.stopped[id(far)] and id(close) not in race.stopped
    assert Race(Plan(min_rounds=10, race=False)).settle([fast, close, far], 8) == []


def test_from_the_third_round_rounds_go_to_the_fastest_three(tmp_path):
    names = ("a", "b", "c", "d", "e", "f")
    cells = toy_cells(tmp_path, names)
    rng = np.random.default_rng(7)
    race = Race(Plan(min_rounds=5, race=True))
    # a, b, c close together at the top; d and e close to each other (their place is open) but beyond the top
    # three; f between them, overlapping c
    for cell, centre, sd in zip(cells, (10, 10.2, 10.4, 14, 14.2, 10.9), (0.01, 0.01, 0.01, 0.03, 0.03, 0.05), strict=True):
        costs(race, cell, centre * np.exp(rng.normal(0, sd, 5)))
    assert TOP_PLACES == 3
    assert race.settle(cells, RACE_MIN_ROUNDS - 1) == []  # on two rounds only a cell many times behind stops
    stopped = race.settle(cells, RACE_MIN_ROUNDS)  # from the third round, not from --runs (5)
    assert {c.variant.name for c in stopped} == {"d", "e"}
    assert all("fastest 3" in race.stopped[id(c)] for c in stopped)


def test_precision_asks_for_rounds_until_the_budget_or_the_maximum(tmp_path):
    fast, noisy = toy_cells(tmp_path, ("fast", "noisy"))
    rng = np.random.default_rng(4)
    race = Race(Plan(min_rounds=5, precision=0.02))
    costs(race, fast, [10.0] * 6)
    costs(race, noisy, 12 * np.exp(rng.normal(0, 0.2, 6)))
    assert race.more_rounds([fast, noisy], 3)  # below the minimum
    assert race.more_rounds([fast, noisy], 6) and [c for c, _ in race.too_wide([fast, noisy])] == [noisy]
    assert not race.more_rounds([fast, noisy], 15)  # 3 x --runs by default
    race.started = time.monotonic() - 100
    assert not Race(Plan(5, precision=0.02, budget_s=50), race.costs, started=race.started).more_rounds([fast, noisy], 6)
    assert not Race(Plan(5), race.costs).more_rounds([fast, noisy], 6)  # no precision: exactly --runs rounds


def run(cells, plan: Plan, script=None, aa=False):
    fake, recorder, changed = FakeRunner(script=script or {}), ListRecorder(), []
    measure(
        cells,
        runs=plan.min_rounds,
        warmup=1,
        timeout=5,
        sink="null",
        recorder=recorder,
        seed=5,
        advance=lambda _: None,
        cell_changed=changed.append,
        runner=fake,
        plan=plan,
        aa=aa,
    )
    return recorder, changed


def test_a_settled_cell_is_no_longer_timed_and_says_why(tmp_path):
    fast, slow = toy_cells(tmp_path, ("fast", "slow"))
    rng = np.random.default_rng(5)
    # rounds of 4 s: one round per chunk, so the race is judged after every round (CHUNK_S is 2 s)
    script = {("fast", n): record(wall_ms=1000 * float(np.exp(rng.normal(0, 0.01)))) for n in range(40)}
    script |= {("slow", n): record(wall_ms=1500 * float(np.exp(rng.normal(0, 0.01)))) for n in range(40)}  # not far
    recorder, changed = run([fast, slow], Plan(min_rounds=12, race=True), script)
    assert len(recorder.of("fast")) == 12 and RACE_MIN_ROUNDS <= len(recorder.of("slow")) < 12
    assert slow in changed and "settled" in slow.timing_note and fast.timing_note == ""


def test_the_a_a_twin_joins_after_the_first_round_as_a_control_cell(tmp_path):
    fast, slow = toy_cells(tmp_path, ("fast", "slow"))
    script = {("slow", n): record(wall_ms=30) for n in range(40)}
    recorder, changed = run([fast, slow], Plan(min_rounds=4), script, aa=True)
    (twin,) = [c for c in changed if c.variant.name == "fast~aa"]
    assert Kind.of(twin.variant.kind) is Kind.CONTROL and twin.argv == fast.argv and twin.db_id is None
    assert len(recorder.of("fast~aa")) == 4 and not recorder.of("fast~aa", "warmup")  # every counted round


def test_two_slow_cells_close_to_each_other_stop_far_behind_the_fastest(tmp_path):
    fast, second, slow, slower = toy_cells(tmp_path, ("fast", "second", "slow", "slower"))
    rng = np.random.default_rng(8)
    race = Race(Plan(min_rounds=8, race=True))
    fast_costs = 10 * np.exp(rng.normal(0, 0.02, 8))
    costs(race, fast, fast_costs)
    costs(race, second, fast_costs * [0.8, 1.4, 0.9, 1.3, 1.0, 1.2, 1.1, 1.5])  # about 1.13x, wide: overlaps the fastest
    costs(race, slow, 30 * np.exp(rng.normal(0, 0.1, 8)))  # 3x and 3.1x: each other's neighbour, never apart
    costs(race, slower, 31 * np.exp(rng.normal(0, 0.1, 8)))
    assert race.settle([fast, second, slow, slower], RACE_FAR_ROUNDS - 1) == []  # too few rounds to judge
    # from RACE_MIN_ROUNDS on, long before --runs (8): a cell's minimum comes from its interval
    assert sorted(c.variant.name for c in race.settle([fast, second, slow, slower], RACE_MIN_ROUNDS)) == ["slow", "slower"]
    assert "behind the fastest" in race.stopped[id(slow)] and id(second) not in race.stopped


def test_a_cell_many_times_behind_stops_after_two_rounds_a_cell_twice_behind_does_not(tmp_path):
    fast, twice, python = toy_cells(tmp_path, ("fast", "twice", "python"))
    rng = np.random.default_rng(11)
    race = Race(Plan(min_rounds=5, race=True))
    costs(race, fast, 10 * np.exp(rng.normal(0, 0.2, 2)))
    costs(race, twice, 25 * np.exp(rng.normal(0, 0.2, 2)))  # 2.5x: on two rounds its interval still reaches below 2x
    costs(race, python, 800 * np.exp(rng.normal(0, 0.2, 2)))  # 80x, as rdb's Python reference
    assert race.settle([fast, twice, python], RACE_FAR_ROUNDS) == [python]
    assert "over 2x behind" in race.stopped[id(python)]


def test_a_table_within_the_precision_stops_whole_and_the_rounds_go_to_the_open_one(tmp_path):
    fast, close, closer = toy_cells(tmp_path, ("fast", "close", "closer"))
    other_fast, other_wide = toy_cells(tmp_path / "other", ("ofast", "owide"))
    for c in (other_fast, other_wide):
        c.params = {**c.params, "mode": "other"}  # a table of its own
    rng = np.random.default_rng(12)
    race = Race(Plan(min_rounds=5, precision=0.02, race=True))
    costs(race, fast, 10 * np.exp(rng.normal(0, 0.005, 6)))
    costs(race, close, 10.5 * np.exp(rng.normal(0, 0.005, 6)))  # within +-2% of 1.05x after 6 rounds
    costs(race, closer, 10.51 * np.exp(rng.normal(0, 0.005, 6)))  # level with it: neither place settles
    costs(race, other_fast, 10 * np.exp(rng.normal(0, 0.005, 6)))
    costs(race, other_wide, 10.5 * np.exp(rng.normal(0, 0.2, 6)))  # +-20%: its table stays open
    cells = [fast, close, closer, other_fast, other_wide]
    assert fast.table != other_fast.table
    assert race.settle(cells, 4) == []  # below --runs
    assert sorted(c.variant.name for c in race.settle(cells, 6)) == ["close", "closer", "fast"]
    assert "within the precision" in race.stopped[id(fast)] and id(other_fast) not in race.stopped
    assert Race(Plan(min_rounds=5, race=True)).settle(cells, 6) == []  # no precision asked: nothing is done


def test_a_suite_budget_is_the_larger_of_budget_and_budget_per_table_times_its_tables():
    from iorace.core.options import RunOptions

    assert RunOptions(suites=[]).suite_budget(30) is None
    assert RunOptions(suites=[], budget=60).suite_budget(30) == 60
    assert RunOptions(suites=[], budget_per_table=3).suite_budget(30) == 90
    assert RunOptions(suites=[], budget=60, budget_per_table=3).suite_budget(30) == 90  # capnp's 30 tables
    assert RunOptions(suites=[], budget=60, budget_per_table=3).suite_budget(1) == 60  # --budget is the floor


def timed(race: Race, cell, values, wall_s: float) -> None:
    for r, v in enumerate(values):
        race.add(cell, r, v, wall_s)


def test_a_cheap_table_is_timed_whole_to_its_floor(tmp_path):
    """A table whose round takes 0.15 s gets min(FLOOR_ROUNDS, 1.5 s / 0.15 s) = 10 rounds before any of its
    cells stops (settled, far behind, within the precision: a 10% change in any of them needs the rounds to be
    seen by `iorace compare`); a table whose round takes 3 s stops as before."""
    from iorace.run.race import FLOOR_ROUNDS, FLOOR_SHARE

    fast, second, third = toy_cells(tmp_path, ("fast", "second", "third"))
    rng = np.random.default_rng(21)
    plan = Plan(min_rounds=5, precision=0.05, race=True, floor_s=Plan.floor_of(6.0, None))
    assert plan.floor_s == FLOOR_SHARE * 6.0 == 1.5 and FLOOR_ROUNDS == 20

    def fill(wall_s: float) -> Race:
        race = Race(plan)
        for cell, centre in zip((fast, second, third), (10, 13, 22), strict=True):  # places apart, within +-5%, third 2.2x
            timed(race, cell, centre * np.exp(rng.normal(0, 0.005, 6)), wall_s)
        return race

    cheap = fill(0.05)
    assert cheap.floor_rounds([fast, second, third]) == 10 and cheap.floor_target([fast, second, third]) == 10
    assert cheap.settle([fast, second, third], 6) == [] and cheap.more_rounds([fast, second, third], 6)
    assert not cheap.more_rounds([fast, second, third], 10)  # at its floor, within the precision: done
    assert {c.variant.name for c in cheap.settle([fast, second, third], 10)} == {"fast", "second", "third"}
    dear = fill(1.0)
    assert dear.floor_rounds([fast, second, third]) == 0
    assert {c.variant.name for c in dear.settle([fast, second, third], 6)} == {"fast", "second", "third"}
    # no floor: without --budget-per-table, with --max-runs (the user's cap), or with --precision none
    assert Plan.floor_of(None, None) is None and Plan.floor_of(6.0, 8) is None
    exact = Race(Plan(min_rounds=5, race=True, floor_s=1.5))
    timed(exact, fast, [10.0] * 6, 0.05)
    assert exact.floor_rounds([fast]) == 0 and not exact.more_rounds([fast], 5)


def test_over_layouts_a_cheap_tables_floor_is_in_turns(tmp_path):
    """Over K layouts an interval is over turns of them: the floor is FLOOR_ROUNDS turns (K x 20 rounds) in K
    times the seconds; 20 rounds over 4 layouts were 5 turns, and a planted 10% went unflagged."""
    from iorace.run.race import FLOOR_ROUNDS

    fast, second = toy_cells(tmp_path, ("fast", "second"))
    for block, wall_s, want in ((1, 0.02, FLOOR_ROUNDS), (4, 0.02, 4 * FLOOR_ROUNDS), (4, 0.15, 20), (4, 0.5, 6)):
        race = Race(Plan(min_rounds=5, precision=0.05, race=True, floor_s=Plan.floor_of(6.0, None), block=block))
        timed(race, fast, [10.0] * 3, wall_s)
        timed(race, second, [12.0] * 3, wall_s)
        assert race.floor_rounds([fast, second]) == want, (block, wall_s)


def test_a_cheap_settled_table_is_timed_to_its_floor_through_measure(tmp_path):
    fast, slow = toy_cells(tmp_path, ("fast", "slow"))
    rng = np.random.default_rng(22)
    script = {("fast", n): record(wall_ms=40 * float(np.exp(rng.normal(0, 0.01)))) for n in range(60)}
    script |= {("slow", n): record(wall_ms=60 * float(np.exp(rng.normal(0, 0.01)))) for n in range(60)}
    recorder, _ = run([fast, slow], Plan(min_rounds=5, max_rounds=5, precision=0.05, race=True, floor_s=1.5), script)
    assert len(recorder.of("fast")) == len(recorder.of("slow")) == 15  # 1.5 s / 0.1 s a round, past --max-runs' 5
    recorder, _ = run([fast, slow], Plan(min_rounds=5, max_rounds=5, precision=0.05, race=True), script)
    assert len(recorder.of("slow")) == 5  # without a floor: settled at --runs


def test_a_bulk_or_limit_cell_faster_than_the_fastest_stops_from_the_third_round(tmp_path):
    """Two folded as-written loops (kind bulk) at 0.01x, level with each other, never part; they are nobody's
    reference, so from RACE_MIN_ROUNDS they stop instead of keeping a --precision session to its budget."""
    fast, second, folded, folded2 = toy_cells(tmp_path, ("fast", "second", "folded", "folded2"))
    for c in (folded, folded2):
        c.variant = c.variant.model_copy(update={"kind": "bulk"})
    rng = np.random.default_rng(23)
    race = Race(Plan(min_rounds=5, precision=0.02, race=True))
    costs(race, fast, 10 * np.exp(rng.normal(0, 0.05, 6)))
    costs(race, second, 10.0 * np.exp(rng.normal(0, 0.05, 6)))  # level with the fastest: open
    costs(race, folded, 0.1 * np.exp(rng.normal(0, 0.3, 6)))
    costs(race, folded2, 0.1 * np.exp(rng.normal(0, 0.3, 6)))
    cells = [fast, second, folded, folded2]
    assert race.settle(cells, RACE_MIN_ROUNDS - 1) == []
    assert {c.variant.name for c in race.settle(cells, RACE_MIN_ROUNDS)} == {"folded", "folded2"}
    assert "another method (bulk)" in race.stopped[id(folded)] and id(fast) not in race.stopped


def test_the_reference_is_the_fastest_in_shared_rounds_as_the_report_judges_it(tmp_path):
    # a cell stopped after 39 rounds 3% behind the leader has the lower median once the machine slows for
    # the rounds only the leader was timed in: the race must keep referring to the leader, as analysis does
    leader, early = toy_cells(tmp_path, ("leader", "early"))
    race = Race(Plan(min_rounds=5, precision=0.02, race=True))
    costs(race, leader, [10.0] * 39 + [11.0] * 96)
    costs(race, early, [10.3] * 39)
    race.stopped[id(early)] = "stopped after 39 rounds: behind the fastest 3 (race)"
    ratios = race.ratios([leader, early])
    assert ratios[id(leader)].value == 1.0 and ratios[id(early)].value == pytest.approx(1.03)
    assert race.too_wide([leader, early]) == [] and not race.more_rounds([leader, early], 135)


def test_a_limit_level_with_the_fastest_stops_from_the_third_round_too(tmp_path):
    """capnp's `null` limit runs level with the fastest, so it is never apart from it; it gets no place, so it
    stops at the third round instead of taking its share of every round and holding its table open."""
    fast, second, null = toy_cells(tmp_path, ("fast", "second", "null"))
    null.variant = null.variant.model_copy(update={"kind": "limit"})
    rng = np.random.default_rng(5)
    race = Race(Plan(min_rounds=5, precision=0.02, race=True))
    for c, centre in ((fast, 10.0), (second, 10.0), (null, 10.1)):
        costs(race, c, centre * np.exp(rng.normal(0, 0.05, 6)))
    assert race.settle([fast, second, null], RACE_MIN_ROUNDS - 1) == []
    assert race.settle([fast, second, null], RACE_MIN_ROUNDS) == [null]
    assert "by another method (limit)" in race.stopped[id(null)]


def test_a_settled_cell_among_the_fastest_three_is_timed_to_the_precision(tmp_path):
    """serialize's postcard peer was apart from every other cell after 8 rounds, second in its table at
    +-3.2%: a settled place, but --precision 2 asks how far it is from the leader within 2%."""
    fast, second, third, far = toy_cells(tmp_path, ("fast", "second", "third", "far"))
    rng = np.random.default_rng(11)
    plan = dict(min_rounds=5, race=True)
    race, exact = Race(Plan(**plan, precision=0.02)), Race(Plan(**plan))
    for c, centre in ((fast, 10.0), (second, 13.0), (third, 16.0), (far, 19.0)):
        values = centre * np.exp(rng.normal(0, 0.03, 8))
        costs(race, c, values)
        costs(exact, c, values)
    cells = [fast, second, third, far]
    assert race.ratios(cells)[id(second)].half_width > 0.02
    assert {c.variant.name for c in exact.settle(cells, 8)} == {"second", "third", "far"}  # no precision asked
    assert {c.variant.name for c in race.settle(cells, 8)} == {"far"}  # the top three still open


def test_the_precision_is_judged_with_the_session_level_the_report_adds_where_it_can_be_reached(tmp_path):
    """Judged on its rounds alone, a --precision 2 session of serialize stopped with top ratios the report drew
    at +-2.1% (its level, 0.4%, added); where the level alone is wider than the precision, no round helps, and
    the rounds' share is what the race can bring within it."""
    from iorace.analyse.stats import Level

    fast, second = toy_cells(tmp_path, ("fast", "second"))
    rng = np.random.default_rng(2)
    values = {id(fast): 10.0 * np.exp(rng.normal(0, 0.035, 40)), id(second): 11.0 * np.exp(rng.normal(0, 0.035, 40))}

    def race_with(level: Level) -> Race:
        race = Race(Plan(min_rounds=5, precision=0.02, race=True, level=level))
        for c in (fast, second):
            costs(race, c, values[id(c)])
        return race

    alone = race_with(Level())
    assert alone.too_wide([fast, second]) == []  # +-1.6% on its rounds
    reachable = race_with(Level(sd=0.009))  # 1.96 x 0.9% = 1.8%: reachable; with the rounds' 1.6%, +-2.4%
    assert [c for c, _ in reachable.too_wide([fast, second])] == [second]
    out_of_reach = race_with(Level(sd=0.036))  # 1.96 x 3.6% = 7.1%: the rounds alone are judged
    assert out_of_reach.too_wide([fast, second]) == []
    assert out_of_reach.ratios([fast, second], Level(sd=0.036))[id(fast)].between == 0  # the fastest has no level


def test_after_one_round_a_cell_ten_times_behind_leaves_with_a_bound(tmp_path):
    fast, slow, far = toy_cells(tmp_path, ("fast", "slow", "far"))
    race = Race(Plan(min_rounds=5, race=True))
    costs(race, fast, [1.0])
    costs(race, slow, [5.0])  # 5x: one run cannot say how far; it runs a second round
    costs(race, far, [12.0])
    assert race.settle([fast, slow, far], 1) == [far]
    assert "at least 3x behind the fastest (a bound, not an interval: 12x" in race.stopped[id(far)]
    assert Race(Plan(min_rounds=5, race=False)).settle([fast, slow, far], 1) == []


def test_the_first_run_of_a_cell_that_leaves_far_behind_is_not_the_budgets(tmp_path):
    """rdb's slow parsers spent 46 s of a 40 s budget in the first round, and its fastest ended at 5 rounds: the
    one run of each cell that leaves far behind after the first round is not counted against the budget."""
    fast, second, far = toy_cells(tmp_path, ("fast", "second", "far"))
    race = Race(Plan(min_rounds=2, precision=0.001, budget_s=40, race=True))
    for cell, cost, wall_s in ((fast, 1.0, 0.1), (second, 1.2, 0.12), (far, 300.0, 45.0)):
        race.add(cell, 0, cost, wall_s)
    race.started = time.monotonic() - 46  # the first round took 46 s
    assert race.settle([fast, second, far], 1) == [far] and race.fee_s == 45.0
    for r in (1, 2):
        race.add(fast, r, 1.0, 0.1)
        race.add(second, r, 1.3, 0.12)
    assert race.more_rounds([fast, second], 3)  # 1 s of the budget spent: more rounds for the two left
    race.started -= 40
    assert not race.more_rounds([fast, second], 3)  # 41 s spent beyond the fee: done


def test_with_code_layouts_the_rounds_end_on_a_whole_turn_of_them(tmp_path):
    a, b = toy_cells(tmp_path, ("a", "b"))
    race = Race(Plan(min_rounds=5, precision=0.5, block=4))  # the precision is met: only the turn of layouts is left
    costs(race, a, [10.0] * 8)
    costs(race, b, [11.0] * 8)
    assert race.more_rounds([a, b], 5) and race.more_rounds([a, b], 7)
    assert not race.more_rounds([a, b], 8)
    assert not Race(Plan(min_rounds=5, precision=None, block=4)).more_rounds([a, b], 5)  # --precision none: exactly --runs
    spent = Race(Plan(min_rounds=5, precision=0.5, budget_s=1e-9, block=4))
    assert not spent.more_rounds([a, b], 6)  # the budget ends it mid-turn
