"""Paired per-round ratios (stats.paired_ratio) on synthetic rounds whose true ratio is known."""

from __future__ import annotations

import numpy as np
import pytest

from iorace.analyse.stats import paired_ratio


def rounds(rng: np.random.Generator, n: int, true_ratio: float, drift: float, noise: float) -> tuple[dict, dict]:
    """Two cells measured in n rounds: a drift that hits a whole round alike (another tenant, the clock),
    and each run's own noise, both log-normal."""
    shared = rng.normal(0, drift, n)
    a = {r: true_ratio * float(np.exp(shared[r] + rng.normal(0, noise))) for r in range(n)}
    b = {r: float(np.exp(shared[r] + rng.normal(0, noise))) for r in range(n)}
    return a, b


def test_the_95_percent_interval_covers_the_true_ratio_about_95_percent_of_the_time():
    rng = np.random.default_rng(7)
    covered = 0
    trials = 600
    for _ in range(trials):
        r = paired_ratio(*rounds(rng, 10, 1.2, drift=0.10, noise=0.03))
        covered += r.low <= 1.2 <= r.high
    assert 0.92 <= covered / trials <= 0.98


def test_drift_that_hits_a_whole_round_cancels():
    """A 10% round-to-round drift is ten times the runs' own noise: pairing leaves only the noise."""
    rng = np.random.default_rng(8)
    r = paired_ratio(*rounds(rng, 20, 1.5, drift=0.10, noise=0.01))
    assert r.value == pytest.approx(1.5, rel=0.01)
    assert r.half_width < 0.01


def test_rounds_only_one_cell_has_are_left_out_and_one_round_gives_no_interval():
    r = paired_ratio({0: 2.0, 1: 2.2, 2: 9.0}, {0: 1.0, 1: 1.1})
    assert r.n == 2 and r.value == pytest.approx(2.0)
    one = paired_ratio({0: 2.0}, {0: 1.0})
    assert one.value == 2.0 and one.low is None and one.n == 1
    assert paired_ratio({0: 1.0}, {1: 1.0}) is None


def test_a_cell_against_itself_is_exactly_one():
    same = {r: 1.0 + r / 10 for r in range(5)}
    r = paired_ratio(same, same)
    assert (r.value, r.low, r.high, r.se_log) == (1.0, 1.0, 1.0, 0.0)
