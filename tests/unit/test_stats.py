"""Statistics: medians, noise flags and bootstrap ratio intervals behave as documented."""

import numpy as np

from iorace.analyse.stats import median_ratio, summarize


def test_summary_of_runs():
    s = summarize([3.0, 1.0, 2.0])
    assert (s.n, s.median, s.min, s.max) == (3, 2.0, 1.0, 3.0)
    assert summarize([]) is None


def test_noisy_flag_follows_the_ten_percent_rule():
    assert not summarize([1.0, 1.01, 0.99, 1.0]).noisy
    assert summarize([1.0, 1.5, 0.6, 1.2]).noisy


def test_ratio_interval_contains_the_true_ratio():
    rng = np.random.default_rng(1)
    fast = list(1.0 + rng.normal(0, 0.02, 30))
    slow = list(3.0 + rng.normal(0, 0.06, 30))
    r = median_ratio(slow, fast)
    assert 2.9 < r.value < 3.1
    assert r.low < 3.0 < r.high and r.high - r.low < 0.2
    assert not r.overlaps_one()


def test_ratio_of_equal_cells_overlaps_one():
    rng = np.random.default_rng(2)
    a, b = list(1 + rng.normal(0, 0.05, 20)), list(1 + rng.normal(0, 0.05, 20))
    assert median_ratio(a, b).overlaps_one()


def test_too_few_runs_give_no_interval():
    r = median_ratio([2.0, 2.0], [1.0, 1.0])
    assert r.value == 2.0 and r.low is None
