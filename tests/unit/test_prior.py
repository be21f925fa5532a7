"""Rounds planned from this machine's earlier noise (run/prior.py): the noisiest ratio among each table's
three fastest in the latest quiet session of the same machine and tables sets the cap; other machines,
other tables and contended sessions do not."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sessions import cell, save, session

from iorace.analyse.analysis import analyse
from iorace.analyse.dimension import rounds_needed
from iorace.core.ids import TableId
from iorace.run import prior
from iorace.store.db import Store

TABLE = TableId.of("toy", "tiny", {"mode": "count"}, [])


def toy_session(sd: float, sid: int, machine_name: str = "toy-box", seed: int = 1):
    rng = np.random.default_rng(seed)
    cells = []
    for name, centre, noise in (("a", 10, 0.0), ("b", 11, sd), ("c", 12, sd / 2), ("d", 40, 0.5)):
        cells.append(cell(name, inner=[centre * math.exp(rng.normal(0, noise)) for _ in range(12)]))
    return session(cells, sid=sid, machine_name=machine_name)


def test_the_noisiest_top_ratio_of_the_latest_session_here_sets_the_rounds(tmp_path):
    db = tmp_path / "s.sqlite"
    save(db, toy_session(0.05, 1))
    save(db, toy_session(0.20, 2))  # the latest: its noise plans
    save(db, toy_session(0.01, 3, machine_name="elsewhere"))  # another machine's is no plan for this one
    store = Store(db)
    found = prior.planned(store, "toy", {TABLE}, [], "toy-box", 0.02, this_session=99)
    assert found is not None and found.session_id == 2
    assert 0.12 < found.sd < 0.3  # b's ratio (c's is quieter, d is beyond the top three)
    assert found.rounds == rounds_needed(found.sd**2, 0.02) and "planned from session 2" in found.note()
    assert prior.planned(store, "toy", {TableId.of("toy", "tiny", {"mode": "sum"}, [])}, [], "toy-box", 0.02, 99) is None
    assert prior.planned(store, "toy", {TABLE}, [], "nowhere", 0.02, 99) is None


def test_a_contended_session_is_no_plan(tmp_path):
    db = tmp_path / "s.sqlite"
    busy = toy_session(0.2, 1)
    for c in busy.cells:  # the rest of the machine used a whole CPU while each run ran
        for r in c.runs:
            r.host_busy_ns = r.user_ns + r.sys_ns + r.wall_ns
            r.host_steal_ns = 0
    save(db, busy)
    assert prior.planned(Store(db), "toy", {TABLE}, [], "toy-box", 0.02, 99) is None


def test_the_round_cap_is_max_runs_when_given_the_plan_with_a_budget_and_the_budget_alone_without_a_plan(tmp_path):
    db = tmp_path / "s.sqlite"
    save(db, toy_session(0.20, 1))
    store = Store(db)

    def cap(asked, precision, budget, machine_name="toy-box", runs=5):
        return prior.round_cap(store, "toy", {TABLE}, [], machine_name, 99, asked, runs, precision, budget)

    assert cap(7, 0.02, 60) == (7, "")  # --max-runs always wins
    assert cap(None, None, 60) == (None, "")  # no precision asked: race.Plan's own default
    assert cap(None, 0.02, None) == (None, "")  # no budget: no plan either (a store never lengthens a plain run)
    rounds, note = cap(None, 0.02, 60)
    assert rounds == prior.planned(store, "toy", {TABLE}, [], "toy-box", 0.02, 99).rounds and "planned from session 1" in note
    assert cap(None, 0.5, 60, runs=9)[0] == 9 and "up to 9 rounds" in cap(None, 0.5, 60, runs=9)[1]  # never below --runs
    assert cap(None, 0.02, 60, machine_name="elsewhere") == (
        prior.MOST_PLANNED,
        " (until the precision or the budget: no earlier session here to plan from)",
    )


def _rounds(name: str, costs: list[float], first: int):
    """A cell timed from round `first` on (racing stops and starts cells at different rounds)."""
    c = cell(name, inner=costs)
    for k, r in enumerate(c.runs):
        r.round = first + k
    return c


def test_a_runner_up_that_sorts_below_the_fastests_own_ratio_is_still_planned_from(tmp_path):
    # a, timed every round, is the anchor; f leads it (0.90) and is the fastest. b shares rounds 4-11 with f
    # and runs 6% under it there, but trails later, so against a it is 0.91 and not the fastest: its ratio to
    # f (0.94) sorts below f's own 1.00. Sliced by value, the plan counted f against itself (a variance of 0)
    # and a, both quiet, and left out b, the noisy runner-up, so it planned no rounds at all.
    wobble = [1.1 if k % 2 else 1 / 1.1 for k in range(8)]
    cells = [
        _rounds("a", [10.0] * 20, 0),
        _rounds("f", [9.0] * 12, 0),
        _rounds("b", [9.0 * 0.94 * w for w in wobble] + [10.5] * 4, 4),
    ]
    (g,) = analyse(session(cells, sid=1))
    assert g.fastest is not None and g.fastest.cell.variant == "f"
    assert [(r.cell.variant, r.vs_fastest.value < 1) for r in g.runners_up(g.fastest) if r.vs_fastest] == [("b", True), ("a", False)]
    db = tmp_path / "s.sqlite"
    save(db, session(cells, sid=1))
    found = prior.planned(Store(db), "toy", {TABLE}, [], "toy-box", 0.02, this_session=99)
    assert found is not None
    assert found.sd == pytest.approx(math.log(1.1), rel=0.1)  # b's rounds against f's
