"""--order rivals: each table's cells side by side from the fastest so far, the direction alternating by round."""

from __future__ import annotations

import random

from fakes import toy_cells

from iorace.run.measure import round_order
from iorace.run.race import Plan, Race


def test_rivals_run_side_by_side_from_the_fastest_and_alternate(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b", "c"))
    race = Race(Plan(min_rounds=3))
    for cost, c in zip((3.0, 1.0, 2.0), cells, strict=True):
        race.add(c, 0, cost)
    names = lambda order: [c.variant.name for c in order]
    assert names(round_order(cells, race, random.Random(1), True, 0)) == ["b", "c", "a"]
    assert names(round_order(cells, race, random.Random(1), True, 1)) == ["a", "c", "b"]


def test_shuffle_is_the_default_and_draws_from_the_seed(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b", "c", "d", "e"))
    race = Race(Plan(min_rounds=3))
    first = [c.variant.name for c in round_order(cells, race, random.Random(5), False, 0)]
    assert first == [c.variant.name for c in round_order(cells, race, random.Random(5), False, 0)]
    assert sorted(first) == ["a", "b", "c", "d", "e"]
