"""Change points in a series of per-session values (log costs), found by a library and checked by a test.

`iorace history` asks of each cell's series "when did it change?". A pairwise test of each session against
the one before it answers a different question many times over, and on a noisy machine it raises a false
alarm every few sessions (the issue's ten-session history: nine of its ten flags were noise). The field
moved to change points over the whole series (MongoDB, DataStax Hunter / Apache Otava: E-divisive means and
a Student's t-test; Chromium: at least 6 points a side; Perfherder: 12 a side and t > 7).

Here: ruptures' PELT (Killick et al. 2012, the exact optimum of a penalised least-squares segmentation; the
cost "l2", a change of mean) proposes the splits, with a penalty of `penalty` x sigma^2 x ln(n), sigma the
series' noise estimated robustly from its first differences (the MAD, so a step does not inflate it); then
each split must pass Student's t-test between the segments on either side at `alpha` (Otava's check, a
significance the penalty alone does not give), weakest first: a split that fails is dropped and its
neighbours are tested again over the merged segment, until every split left passes. Every segment has at
least `min_size` sessions: a change is confirmed only once it has persisted that long. The defaults are
chosen by `tools/changepoint_bench.py` on synthetic histories with a known truth
(docs/changepoints-benchmark.txt): see DEFAULT.

A change point's size is the ratio of the segments' geometric means with the t 95% interval of the
difference of their mean logs: what moved between sessions (a busy neighbour for a week) is in that
interval, which a pooled test of rounds would not see.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import ruptures as rpt
from scipy import stats as sps

from iorace.analyse.stats import Ratio


@dataclass(frozen=True)
class Detector:
    """The settings of one change-point rule."""

    penalty: float = 2.0  # PELT's penalty per split, in units of sigma^2 x ln(n)
    min_size: int = 4  # sessions at least on each side of a split (persistence)
    alpha: float = 0.0001  # Student's t-test across each split, two-sided
    threshold: float = 0.0  # a change smaller than this (relative) is not reported

    def describe(self) -> str:
        return (
            f"change points: PELT (ruptures, penalty {self.penalty:g} sigma^2 ln n), at least {self.min_size} sessions a side, "
            f"t-test p < {self.alpha:g}" + (f", beyond {self.threshold:.0%}" if self.threshold else "")
        )


# Chosen by tools/changepoint_bench.py (docs/changepoints-benchmark.txt) on noise-only histories of 30 sessions
# (a per-round sd of 0.10-0.25, 5-15 rounds a session) and histories with a planted step: p < 0.001 (the grid's
# best on 500 histories, 3 with a false change) raised a false change in 14 of 1000 histories, over the
# issue's "at most 1 in 100"; p < 0.0001 raised none in the grid's 500 and still finds steps of 3 session sd at
# the right session (within one) in 95% of histories, 10% steps in 43% (p < 0.001: 55%).
DEFAULT = Detector()


@dataclass(frozen=True)
class ChangePoint:
    index: int  # the first point of the new segment
    start: int  # the segment before it: points [start, index)
    end: int  # the segment after it: points [index, end)
    ratio: Ratio  # after / before: the ratio of the segments' geometric means, with Student's 95% interval
    p_value: float  # Student's t-test of the two segments' logs

    @property
    def change(self) -> float:
        return self.ratio.value - 1


def noise_sd(logs: Sequence[float] | np.ndarray) -> float:
    """The series' noise from its first differences: MAD / 0.6745 / sqrt(2), so that a step or two (a few
    large differences) does not inflate it; the differences' sd when more than half of them are 0."""
    d = np.diff(np.asarray(logs, float))
    if len(d) == 0:
        return 0.0
    mad = float(np.median(np.abs(d - np.median(d))))
    if mad > 0:
        return mad / 0.6745 / math.sqrt(2)
    return float(np.std(d)) / math.sqrt(2)


def ttest(before: np.ndarray, after: np.ndarray) -> tuple[Ratio, float]:
    """exp(mean(after) - mean(before)) with Student's 95% interval, and the two-sided p of Student's t-test
    (the pooled variance: one noise on both sides, which a change of mean leaves alone; with a few sessions on
    one side, Welch's degrees of freedom would throw away most of the other side's knowledge of it)."""
    d = float(after.mean() - before.mean())
    na, nb = len(before), len(after)
    pooled = (float(before.var(ddof=1)) * (na - 1) + float(after.var(ddof=1)) * (nb - 1)) / (na + nb - 2) if na + nb > 2 else 0.0
    se = math.sqrt(pooled * (1 / na + 1 / nb))
    if se == 0:
        value = math.exp(d)
        return Ratio(value, value, value, 0.0, len(before) + len(after)), (0.0 if d else 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sps.ttest_ind(after, before, equal_var=True)
        ci = res.confidence_interval(0.95)
    return Ratio(math.exp(d), math.exp(float(ci.low)), math.exp(float(ci.high)), se, len(before) + len(after)), float(res.pvalue)


def _candidates(y: np.ndarray, detector: Detector) -> list[int]:
    n = len(y)
    sigma = noise_sd(y)
    if sigma == 0:  # a constant series, or one of exact values: every difference is real
        sigma = 1e-12
    algo = rpt.Pelt(model="l2", min_size=detector.min_size, jump=1).fit(y.reshape(-1, 1))
    return [int(b) for b in algo.predict(pen=detector.penalty * sigma**2 * math.log(n))[:-1]]


def change_points(logs: Sequence[float], detector: Detector = DEFAULT) -> list[ChangePoint]:
    """The change points of a series of log values (oldest first), each tested across its split."""
    y = np.asarray(logs, float)
    if len(y) < 2 * detector.min_size:
        return []
    splits = _candidates(y, detector)
    while splits:
        bounds = [0, *splits, len(y)]
        tested = [(bounds[i], k, bounds[i + 2], *ttest(y[bounds[i] : k], y[k : bounds[i + 2]])) for i, k in enumerate(splits)]
        failing = [t for t in tested if t[4] >= detector.alpha or abs(t[3].value - 1) < detector.threshold]
        if not failing:
            return [ChangePoint(k, lo, hi, ratio, p) for lo, k, hi, ratio, p in tested]
        weakest = max(failing, key=lambda t: (t[4], -abs(math.log(t[3].value))))
        splits.remove(weakest[1])
    return []


def exact_changes(values: Sequence[float | None], threshold: float) -> list[tuple[int, int, float]]:
    """Exact counts (instructions, estimated cycles) over sessions: (previous index, index, relative change)
    of each counted value that differs from the previous counted one by more than `threshold`. A count does
    not vary from run to run, so a change is a change: no test, no persistence needed."""
    out = []
    last: int | None = None
    for i, v in enumerate(values):
        if v is None or v <= 0:
            continue
        if last is not None:
            prev = values[last]
            assert prev is not None
            change = v / prev - 1
            if abs(change) > threshold:
                out.append((last, i, change))
        last = i
    return out
