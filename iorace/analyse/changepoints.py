"""Change points in a series of per-session values (log costs), found by a library and checked by a test.

`iorace history` asks of each cell's series "when did it change?". A pairwise test of each session against
the one before it answers a different question many times over, and on a noisy machine it raises a false
alarm every few sessions (a reported ten-session history: nine of its ten flags were noise). The field
moved to change points over the whole series (MongoDB, DataStax Hunter / Apache Otava: E-divisive means and
a Student's t-test; Chromium: at least 6 points a side; Perfherder: 12 a side and t > 7).

Here: ruptures' PELT (Killick et al. 2012, the exact optimum of a penalised least-squares segmentation; a
change of mean, each session weighted by its rounds: WeightedL2) proposes the splits, with a penalty of
`penalty` x sigma^2 x ln(n), sigma the series' noise estimated robustly from its first differences (the MAD,
so a step does not inflate it); then each split must pass a t-test between the segments on either side at
`alpha` (Otava's check, a significance the penalty alone does not give), weakest first: a split that fails is
dropped and its neighbours are tested again over the merged segment, until every split left passes. Each
split kept is then moved to the session within `refine` of it that splits its segments best, as they are
once the weak splits are gone, and tested again. Every segment has at least `min_size` sessions: a change is
confirmed only once it has persisted that long. The defaults are chosen by `tools/changepoint_bench.py` on
synthetic histories with a known truth (docs/changepoints-benchmark.txt): see DEFAULT.

Why weights: a session's level is the mean of its rounds, and sessions differ in rounds (make bench: 5 and
up while the precision is not reached; racing stops a settled cell early), so a session of 5 rounds is
sqrt(3) times noisier than one of 15. Weighing each by its rounds (the inverse of its variance, when the
noise of a round is the cell's) places a step where it is more often and tests it with more power: on the
benchmark's histories, steps of 3 sd found at the right session (within one) in 96-97% instead of 94.5%,
steps of 2 sd in 69% instead of 62%, with as few false changes. Sessions without their rounds weigh alike.

A change point's size is the ratio of the segments' geometric means with the t 95% interval of the
difference of their mean logs: what moved between sessions (a busy neighbour for a week) is in that
interval, which a pooled test of rounds would not see.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import ruptures as rpt
from ruptures.base import BaseCost
from ruptures.costs import NotEnoughPoints
from scipy import stats as sps

from iorace.analyse.stats import Ratio


@dataclass(frozen=True)
class Detector:
    """The settings of one change-point rule."""

    penalty: float = 2.0  # PELT's penalty per split, in units of sigma^2 x ln(n)
    min_size: int = 4  # sessions at least on each side of a split (persistence)
    alpha: float = 0.0001  # the t-test across each split, two-sided
    threshold: float = 0.0  # a change smaller than this (relative) is not reported
    weighted: bool = True  # each session weighs as its rounds (its mean's variance is sigma^2 / rounds)
    refine: int = 2  # each split kept is moved to the largest |t| within this many sessions of it (0: not)

    def describe(self) -> str:
        return (
            f"change points: PELT (ruptures, penalty {self.penalty:g} sigma^2 ln n"
            + (", sessions weighted by their rounds" if self.weighted else "")
            + f"), at least {self.min_size} sessions a side, t-test p < {self.alpha:g}"
            + (f", beyond {self.threshold:.0%}" if self.threshold else "")
        )


# Chosen by tools/changepoint_bench.py (docs/changepoints-benchmark.txt) on noise-only histories of 30 sessions
# (a per-round sd of 0.10-0.25, 5-15 rounds a session) and histories with a planted step, 2000 of each, two
# seeds: 0.1 false changes per 100 histories (the issue allows 1), steps of 3 sd (the series' own session sd)
# found at the right session within one in 96.3-96.9% of histories, 2 sd in 69%, 10% steps in 46-47%
# (unweighted and unrefined, as before the weighting and refinement: 94.5-94.7%, 62%, 42%). p < 0.0002 or 0.0003 find a few
# tenths of a percent more 3-sd steps for two to five times the false changes; p < 0.001 raises 1.5 per 100.
# Penalty 2 or 3 and min_size 3 or 4 do the same to a few tenths once the t-test decides; penalty 5 finds
# fewer small steps (the grid, section 4).
DEFAULT = Detector()


@dataclass(frozen=True)
class ChangePoint:
    index: int  # the first point of the new segment
    start: int  # the segment before it: points [start, index)
    end: int  # the segment after it: points [index, end)
    ratio: Ratio  # after / before: the ratio of the segments' (weighted) geometric means, with the t 95% interval
    p_value: float  # the t-test of the two segments' logs

    @property
    def change(self) -> float:
        return self.ratio.value - 1


def _weights(n: int, weights: Sequence[float] | np.ndarray | None) -> np.ndarray:
    """Each session's weight, scaled to a mean of 1; equal without weights."""
    if weights is None:
        return np.ones(n)
    w = np.asarray(weights, float)
    if len(w) != n or not np.all(w > 0):
        raise ValueError(f"weights: {n} positive values expected, got {list(w)}")
    return w / w.mean()


def noise_sd(logs: Sequence[float] | np.ndarray, weights: Sequence[float] | np.ndarray | None = None) -> float:
    """The series' noise from its first differences: the sd of a session of mean weight, as MAD / 0.6745 of
    the differences each divided by its own sd in those units (sqrt(1/w_i + 1/w_i+1): sqrt(2) unweighted),
    so that a step or two (a few large differences) does not inflate it; their sd when more than half of
    them are 0."""
    y = np.asarray(logs, float)
    if len(y) < 2:
        return 0.0
    w = _weights(len(y), weights)
    d = np.diff(y) / np.sqrt(1 / w[1:] + 1 / w[:-1])
    mad = float(np.median(np.abs(d - np.median(d))))
    if mad > 0:
        return mad / 0.6745
    return float(np.std(d))


def ttest(
    before: np.ndarray, after: np.ndarray, w_before: np.ndarray | None = None, w_after: np.ndarray | None = None
) -> tuple[Ratio, float]:
    """exp(mean(after) - mean(before)), the means weighted (each session's weight, the inverse of its mean's
    variance up to one factor), with the t 95% interval, and the two-sided p of the t-test: the weighted
    least-squares t of a step between the two segments, one noise on both sides estimated from the sessions'
    weighted residuals (na + nb - 2 degrees of freedom), so what moves between sessions is in it. Equal
    weights: Student's pooled two-sample t-test (with a few sessions on one side, Welch's degrees of freedom
    would throw away most of the other side's knowledge of the noise)."""
    wa = np.ones(len(before)) if w_before is None else np.asarray(w_before, float)
    wb = np.ones(len(after)) if w_after is None else np.asarray(w_after, float)
    ma, mb = float(np.average(before, weights=wa)), float(np.average(after, weights=wb))
    d = mb - ma
    na, nb = len(before), len(after)
    df = na + nb - 2
    sse = float(np.sum(wa * (before - ma) ** 2) + np.sum(wb * (after - mb) ** 2))
    se = math.sqrt(sse / df * (1 / wa.sum() + 1 / wb.sum())) if df > 0 else 0.0
    if se == 0:
        value = math.exp(d)
        return Ratio(value, value, value, 0.0, na + nb), (0.0 if d else 1.0)
    half = float(sps.t.ppf(0.975, df)) * se
    p = float(2 * sps.t.sf(abs(d) / se, df))
    return Ratio(math.exp(d), math.exp(d - half), math.exp(d + half), se, na + nb), p


class WeightedL2(BaseCost):
    """ruptures' cost of a change of mean ("l2") with each point weighted: the weighted sum of squares about
    the segment's weighted mean, from cumulative sums."""

    model = "weighted-l2"

    def __init__(self, weights: np.ndarray) -> None:
        self.weights = np.asarray(weights, float)
        self.min_size = 1
        self.signal: np.ndarray | None = None

    def fit(self, signal: np.ndarray) -> WeightedL2:
        self.signal = np.asarray(signal, float).reshape(len(signal), -1)
        y, w = self.signal[:, 0], self.weights
        self._w, self._wy, self._wyy = (np.concatenate([[0.0], np.cumsum(v)]) for v in (w, w * y, w * y * y))
        return self

    def error(self, start: int, end: int) -> float:
        if end - start < self.min_size:
            raise NotEnoughPoints
        w = self._w[end] - self._w[start]
        wy = self._wy[end] - self._wy[start]
        return max(0.0, float(self._wyy[end] - self._wyy[start] - wy * wy / w))


def _candidates(y: np.ndarray, detector: Detector, w: np.ndarray | None = None) -> list[int]:
    n = len(y)
    w = np.ones(n) if w is None else w
    sigma = noise_sd(y, w)
    if sigma == 0:  # a constant series, or one of exact values: every difference is real
        sigma = 1e-12
    algo = rpt.Pelt(custom_cost=WeightedL2(w), min_size=detector.min_size, jump=1).fit(y.reshape(-1, 1))
    return [int(b) for b in algo.predict(pen=detector.penalty * sigma**2 * math.log(n))[:-1]]


def _test(y: np.ndarray, w: np.ndarray, lo: int, k: int, hi: int) -> tuple[Ratio, float]:
    return ttest(y[lo:k], y[k:hi], w[lo:k], w[k:hi])


def _confirmed(y: np.ndarray, w: np.ndarray, splits: list[int], detector: Detector) -> list[ChangePoint]:
    """The splits that pass the test across them, each between its neighbours: the weakest failing one is
    dropped and the rest tested again over the merged segments, until every split left passes."""
    splits = list(splits)
    while splits:
        bounds = [0, *splits, len(y)]
        tested = [ChangePoint(k, bounds[i], bounds[i + 2], *_test(y, w, bounds[i], k, bounds[i + 2])) for i, k in enumerate(splits)]
        failing = [c for c in tested if c.p_value >= detector.alpha or abs(c.change) < detector.threshold]
        if not failing:
            return tested
        weakest = max(failing, key=lambda c: (c.p_value, -abs(math.log(c.ratio.value))))
        splits.remove(weakest.index)
    return []


def _refined(y: np.ndarray, w: np.ndarray, splits: list[int], detector: Detector) -> list[int]:
    """Each split moved to the session within `detector.refine` of it that splits its segments best (the
    largest |t|: the weighted least-squares optimum), oldest first, each between its (moved) predecessor and
    its successor and at least min_size from both, so the split itself is always a candidate."""
    out = list(splits)
    for i, k in enumerate(out):
        lo = out[i - 1] if i else 0
        hi = out[i + 1] if i + 1 < len(out) else len(y)
        near = range(max(k - detector.refine, lo + detector.min_size), min(k + detector.refine, hi - detector.min_size) + 1)
        out[i] = max(near, key=lambda j: (_abs_t(y, w, lo, j, hi), j == k))
    return out


def _abs_t(y: np.ndarray, w: np.ndarray, lo: int, k: int, hi: int) -> float:
    ratio, _ = _test(y, w, lo, k, hi)
    d = abs(math.log(ratio.value))
    return d / ratio.se_log if ratio.se_log else (math.inf if d else 0.0)


def change_points(
    logs: Sequence[float], detector: Detector = DEFAULT, weights: Sequence[float] | np.ndarray | None = None
) -> list[ChangePoint]:
    """The change points of a series of log values (oldest first), each tested across its split. `weights`:
    each value's rounds (or anything proportional to the inverse of its variance); None, or a detector that
    is not `weighted`: all alike. PELT proposes, the test disposes; then each split kept is moved to the best
    session near it (PELT placed it beside splits the test has since dropped) and tested again."""
    y = np.asarray(logs, float)
    n = len(y)
    if n < 2 * detector.min_size:
        return []
    w = _weights(n, weights if detector.weighted else None)
    found = _confirmed(y, w, _candidates(y, detector, w), detector)
    if found and detector.refine:
        found = _confirmed(y, w, _refined(y, w, [c.index for c in found], detector), detector)
    return found


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
