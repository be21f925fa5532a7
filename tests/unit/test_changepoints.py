"""The change-point detector (iorace.analyse.changepoints) and the gate's rules (iorace.analyse.rules) on small
series with a known truth: a step is found at its session, a flat noisy series is clean, the t-test drops
what the penalty alone would keep, a change must persist, exact counts change or not."""

import math

import numpy as np
import pytest

from iorace.analyse.changepoints import DEFAULT, Detector, _candidates, change_points, exact_changes, noise_sd
from iorace.analyse.rules import Rule, direction
from iorace.analyse.stats import Ratio

SD = 0.2 / math.sqrt(10)  # a session's sd of its mean log cost: per-round sd 0.2 over 10 rounds


def series(seed: int, n: int = 30, step: float = 0.0, at: int = 15) -> np.ndarray:
    rng = np.random.default_rng(seed)
    y = rng.normal(0, SD, n)
    y[at:] += math.log(1 + step)
    return y


@pytest.mark.parametrize("seed", range(5))
def test_a_step_is_found_at_its_session_with_its_size(seed):
    found = change_points(series(seed, step=0.25, at=12))  # 25%: about 3.5 sd
    assert len(found) == 1, found
    cp = found[0]
    assert abs(cp.index - 12) <= 1 and cp.start == 0 and cp.end == 30
    assert cp.ratio.low is not None and cp.ratio.high is not None and cp.ratio.low < 1.25 < cp.ratio.high
    assert cp.p_value < DEFAULT.alpha


@pytest.mark.parametrize("seed", range(20))
def test_a_flat_noisy_series_is_clean(seed):
    assert change_points(series(100 + seed)) == []


def test_the_t_test_drops_the_splits_a_low_penalty_proposes():
    loose = Detector(penalty=0.3, min_size=DEFAULT.min_size, alpha=DEFAULT.alpha)
    flat = series(7)
    assert len(_candidates(flat, loose)) > 1  # PELT alone, at this penalty, cuts noise
    assert change_points(flat, loose) == []
    assert len(change_points(series(7, step=0.25), loose)) == 1  # and keeps the real one


def test_a_change_must_persist_for_min_size_sessions():
    y = series(3)
    y[20] += math.log(1.5)  # one session 50% slower, then back: an outlier, not a change
    assert change_points(y, Detector(min_size=3)) == []
    assert [cp.index for cp in change_points(series(3, step=0.5, at=27), Detector(min_size=3))] == [27]  # three sessions on


def test_two_steps_are_two_change_points_and_a_small_one_is_below_the_threshold():
    y = series(11, step=0.3, at=10)
    y[20:] -= math.log(1.3)
    assert [cp.index for cp in change_points(y)] == [10, 20]
    small = series(12) * 0.1  # a tenth of the noise, and a 3% step: far beyond it
    small[15:] += math.log(1.03)
    assert [cp.index for cp in change_points(small)] == [15]
    assert change_points(small, Detector(threshold=0.05)) == []


def test_the_noise_is_estimated_from_differences_a_step_does_not_inflate():
    flat, stepped = series(5), series(5, step=1.0)
    assert noise_sd(stepped) == pytest.approx(noise_sd(flat), rel=0.25)
    assert noise_sd([1.0, 1.0, 1.0]) == 0.0


def test_exact_counts_change_or_not():
    values = [1000.0, 1000.0, None, 1100.0, 1100.0, 1099.0]
    assert exact_changes(values, 0.05) == [(1, 3, pytest.approx(0.1))]
    assert exact_changes(values, 0.0) == [(1, 3, pytest.approx(0.1)), (4, 5, pytest.approx(-1 / 1100))]


def test_the_rules_of_the_gate():
    clear = Ratio(1.10, 1.07, 1.13, 0.015)
    wide = Ratio(1.10, 0.99, 1.22, 0.05)
    assert direction(Rule.Z, clear, 0.001, 0.05) == 1 and direction(Rule.INTERVAL, clear, 0.001, 0.05) == 1
    assert direction(Rule.Z, wide, 0.06, 0.05) == 0 and direction(Rule.INTERVAL, wide, 0.06, 0.05) == 0
    near = Ratio(1.08, 1.03, 1.13, 0.02)  # significant and beyond 5%, but not wholly
    assert direction(Rule.Z, near, 0.001, 0.05) == 1 and direction(Rule.INTERVAL, near, 0.001, 0.05) == 0
    assert direction(Rule.Z, Ratio(0.9, 0.88, 0.92, 0.01), 0.001, 0.05) == -1
    assert direction(Rule.Z, clear, None, 0.05) == 0 and direction(Rule.INTERVAL, None, None, 0.05) == 0
