"""Summary statistics: medians, spread, and bootstrap confidence intervals of ratios (numpy + scipy)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

NOISY_CV = 0.10  # pyperf's rule: a stddev over 10% of the mean is too noisy to trust
CONFIDENCE = 0.95
RESAMPLES = 2000


@dataclass(frozen=True)
class Summary:
    n: int
    median: float
    mean: float
    stddev: float
    min: float
    max: float

    @property
    def cv(self) -> float:
        return self.stddev / self.mean if self.mean > 0 else 0.0

    @property
    def noisy(self) -> bool:
        return self.n >= 3 and self.cv > NOISY_CV


def summarize(values: list[float]) -> Summary | None:
    if not values:
        return None
    a = np.asarray(values, dtype=float)
    return Summary(
        len(a), float(np.median(a)), float(a.mean()), float(a.std(ddof=1)) if len(a) > 1 else 0.0, float(a.min()), float(a.max())
    )


def _median_ratio(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.float64 | np.ndarray:
    return np.median(a, axis=axis) / np.median(b, axis=axis)


@dataclass(frozen=True)
class Ratio:
    value: float
    low: float | None  # None: too few runs for an interval
    high: float | None

    def overlaps_one(self) -> bool:
        return self.low is not None and self.high is not None and self.low <= 1.0 <= self.high


def median_ratio(a: list[float], b: list[float], seed: int = 0) -> Ratio | None:
    """median(a) / median(b) with a 95% percentile-bootstrap interval (independent resampling of both)."""
    if not a or not b or np.median(b) == 0:
        return None
    value = float(_median_ratio(np.asarray(a, float), np.asarray(b, float)))
    if len(a) < 3 or len(b) < 3:
        return Ratio(value, None, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate samples (all runs equal) are fine here
        try:
            res = sps.bootstrap(
                (np.asarray(a, float), np.asarray(b, float)),
                _median_ratio,
                paired=False,
                vectorized=True,
                n_resamples=RESAMPLES,
                confidence_level=CONFIDENCE,
                method="percentile",
                random_state=np.random.default_rng(seed),
            )
            low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
        except (ValueError, FloatingPointError):
            return Ratio(value, None, None)
    if not (np.isfinite(low) and np.isfinite(high)):
        return Ratio(value, None, None)
    return Ratio(value, low, high)
