"""The change-point detector (iorace.analyse.changepoints) and the gate's rules (iorace.analyse.rules) on small
series with a known truth: a step is found at its session, a flat noisy series is clean, the t-test drops
what the penalty alone would keep, a change must persist, a session of few rounds weighs less, a split is
moved to where it splits best, the weighted test is the weighted least-squares t, exact counts change or
not."""

import math

import numpy as np
import pytest
import ruptures as rpt
from scipy import stats as sps

from iorace.analyse.changepoints import (
    DEFAULT,
    Detector,
    WeightedL2,
    _candidates,
    _refined,
    change_points,
    exact_changes,
    noise_sd,
    ttest,
)
from iorace.analyse.rules import Rule, direction
from iorace.analyse.stats import Ratio

SD = 0.2 / math.sqrt(10)  # a session's sd of its mean log cost: per-round sd 0.2 over 10 rounds


def series(seed: int, n: int = 30, step: float = 0.0, at: int = 15) -> np.ndarray:
    rng = np.random.default_rng(seed)
    y = rng.normal(0, SD, n)
    y[at:] += math.log(1 + step)
    return y


def rounds_series(seed: int, sd_steps: float = 0.0, at: int = 15) -> tuple[np.ndarray, np.ndarray]:
    """30 sessions of 5-15 rounds, per-round sd 0.2 (each session's mean: 0.2 / sqrt(rounds)), and a step of
    `sd_steps` times the series' sd (0.2 x sqrt(mean 1/rounds)) from session `at` on; with the rounds."""
    rng = np.random.default_rng(seed)
    rounds = rng.integers(5, 16, 30)
    y = rng.normal(0, 0.2 / np.sqrt(rounds))
    y[at:] += sd_steps * 0.2 * math.sqrt(float(np.mean(1 / rounds)))
    return y, rounds


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


@pytest.mark.parametrize("seed", range(8))
def test_a_step_of_4_sd_among_sessions_of_5_to_15_rounds_is_found_at_its_session(seed):
    y, rounds = rounds_series(seed, sd_steps=4, at=8 + seed)
    found = change_points(y, weights=rounds)
    assert len(found) == 1 and abs(found[0].index - (8 + seed)) <= 1, found  # at the right session within one


@pytest.mark.parametrize("seed", range(20))
def test_a_flat_series_of_sessions_of_5_to_15_rounds_is_clean(seed):
    y, rounds = rounds_series(200 + seed)
    assert change_points(y, weights=rounds) == []


def test_a_session_of_few_rounds_does_not_pull_the_step_to_it():
    rng = np.random.default_rng(4)
    y = rng.normal(0, 0.01, 30)  # sessions of 15 rounds, a step of 10% at session 15 ...
    y[15:] += 0.1
    rounds = np.full(30, 15)
    y[13], rounds[13] = 0.12, 5  # ... and a session of 5 rounds before it that looks like the new level
    y[14] = 0.02
    (cp,) = change_points(y, weights=rounds)
    assert cp.index == 15 and cp.ratio.low is not None and cp.ratio.low < math.exp(0.1) < cp.ratio.high
    assert _candidates(y, DEFAULT, rounds / rounds.mean()) == [15] and _candidates(y, DEFAULT) == [13]  # PELT's cost, weighted and not
    assert [c.index for c in change_points(y, Detector(weighted=False), weights=rounds)] == [13]  # alike: pulled
    assert [c.index for c in change_points(y)] == [13]  # no weights given: alike


def test_a_split_is_moved_to_where_it_splits_best():
    y = series(9, step=0.3, at=15)
    assert _refined(y, np.ones(30), [17], DEFAULT) == [15]
    assert _refined(y, np.ones(30), [13], DEFAULT) == [15]
    assert _refined(y, np.ones(30), [17], Detector(refine=1)) == [16]  # within `refine` of it only
    # never nearer than min_size to its neighbour: the split at 11 moves to 13, nearest the step it can, and
    # the one at 17 then stays, 4 sessions after it
    assert _refined(y, np.ones(30), [11, 17], DEFAULT) == [13, 17]


def test_the_weighted_test_is_students_alike_and_the_weighted_least_squares_t_otherwise():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0, 0.05, 9), rng.normal(0.04, 0.05, 13)
    ratio, p = ttest(a, b)
    student = sps.ttest_ind(b, a, equal_var=True)
    ci = student.confidence_interval(0.95)
    assert p == pytest.approx(student.pvalue, rel=1e-9)
    assert (ratio.low, ratio.high) == (pytest.approx(math.exp(ci.low)), pytest.approx(math.exp(ci.high)))
    wa, wb = rng.integers(5, 16, 9).astype(float), rng.integers(5, 16, 13).astype(float)
    ratio, p = ttest(a, b, wa, wb)
    # the same as the step's coefficient in a weighted least-squares regression on [1, after], its t on n - 2 df
    x = np.column_stack([np.ones(22), np.r_[np.zeros(9), np.ones(13)]])
    sw = np.sqrt(np.r_[wa, wb])
    coef, sse, *_ = np.linalg.lstsq(x * sw[:, None], np.r_[a, b] * sw, rcond=None)
    se = math.sqrt(float(sse[0]) / 20 * np.linalg.inv((x * sw[:, None]).T @ (x * sw[:, None]))[1, 1])
    assert math.log(ratio.value) == pytest.approx(coef[1]) and ratio.se_log == pytest.approx(se)
    assert p == pytest.approx(2 * sps.t.sf(abs(coef[1]) / se, 20), rel=1e-9)


def test_the_weighted_cost_is_ruptures_l2_with_equal_weights():
    y = series(2, step=0.2).reshape(-1, 1)
    mine, theirs = WeightedL2(np.ones(30)).fit(y), rpt.costs.CostL2().fit(y)
    for start, end in [(0, 30), (0, 15), (3, 11), (15, 30)]:
        assert mine.error(start, end) == pytest.approx(theirs.error(start, end))
    doubled = WeightedL2(np.full(30, 2.0)).fit(y)
    assert doubled.error(0, 30) == pytest.approx(2 * theirs.error(0, 30))


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
    assert noise_sd(flat, np.full(30, 7.0)) == pytest.approx(noise_sd(flat))  # equal weights: as none
    # weighted: the sd of a session of the mean weight, whatever the rounds of each
    sds = [noise_sd(*rounds_series(300 + seed)) for seed in range(40)]
    assert float(np.median(sds)) == pytest.approx(0.2 / math.sqrt(10), rel=0.1)


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
