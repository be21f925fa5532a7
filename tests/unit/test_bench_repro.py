"""tools/bench_repro.py's calibration check: on sessions whose intervals are honest by construction, the z of
disjoint pairs of cells have a standard deviation of about 1, while the z of every cell against one shared
reference spread less (about 0.71), which is why the script reports the pairs' figure as the check."""

from __future__ import annotations

import math
import statistics
import types

import numpy as np
from tool_scripts import load_tool

from iorace.compare.sides import CellSample, Side


def _script() -> types.ModuleType:
    return load_tool("bench_repro")


def _side(name: str, cells: int, rounds: int, rng: np.random.Generator) -> Side:
    """Cells of one table whose true ratios are fixed; each round's cost has independent log-normal noise."""
    samples = []
    for i in range(cells):
        costs = {r: float(np.exp(0.1 * i + rng.normal(0, 0.2))) for r in range(rounds)}
        samples.append(
            CellSample(
                "s", "d", {}, f"c/v{i:03d}", "cc", "release", f"c/v{i:03d}", "ok", "wall", list(costs.values()),
                rounds=costs, table=("s", "d", "{}"),
            )
        )  # fmt: skip
    return Side(name, "", "", samples)


def test_disjoint_pairs_are_calibrated_where_a_shared_reference_is_not() -> None:
    script = _script()
    rng = np.random.default_rng(7)
    a, b = _side("a", 300, 20, rng), _side("b", 300, 20, rng)
    pair_zs = script.disjoint_pair_zs(a, b)
    assert len(pair_zs) == 150  # every cell in one pair, none twice
    assert 0.85 < statistics.stdev(pair_zs) < 1.15

    from iorace.analyse.stats import paired_ratio

    ref_a, ref_b = a.cells[0].rounds, b.cells[0].rounds
    shared = []
    for ca, cb in zip(a.cells[1:], b.cells[1:], strict=True):
        r1, r2 = paired_ratio(ca.rounds, ref_a), paired_ratio(cb.rounds, ref_b)
        assert r1 and r2 and r1.se_log and r2.se_log
        shared.append(math.log(r2.value / r1.value) / math.hypot(r1.se_log, r2.se_log))
    # The shared reference's move is common to all, so not in the spread: about 0.71 with plain means; at 20
    # rounds the ratios are trimmed means, each leaving out its own rounds, so a little of the move stays in.
    assert statistics.stdev(shared) < 0.9
