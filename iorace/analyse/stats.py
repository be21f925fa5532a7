"""Summary statistics: medians, spread, and bootstrap confidence intervals of ratios (numpy + scipy)."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from scipy import stats as sps

NOISY_CV = 0.10  # pyperf's rule: a stddev over 10% of the mean is too noisy to trust
CONFIDENCE = 0.95
RESAMPLES = 2000
Z95 = float(sps.norm.ppf(0.5 + CONFIDENCE / 2))  # 1.96
K = TypeVar("K")  # what fastest_paired's candidates are known by (a row, a cell's id)


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


def median_interval(values: list[float], confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """A distribution-free interval of the population median from a sample: the equal-tailed pair of order
    statistics chosen by the binomial distribution (scipy's quantile test; each tail at most 2.5% for 95%).
    benchstat's interval of a median is of the same kind but grown outward from the mode, so it can stop one
    order statistic short on one side (8 runs: x(1)..x(7), 96%, where this gives x(1)..x(8), 99%). None when
    the sample is too small for the confidence asked (fewer than 6 values for 95%)."""
    if len(values) < 2:
        return None
    ci = sps.quantile_test(np.asarray(values, float), q=float(np.median(values)), p=0.5).confidence_interval(confidence)
    low, high = float(ci.low), float(ci.high)
    return (low, high) if np.isfinite(low) and np.isfinite(high) else None


def _median_ratio(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.float64 | np.ndarray:
    return np.median(a, axis=axis) / np.median(b, axis=axis)


@dataclass(frozen=True)
class Level:
    """What a ratio's interval adds for a second session: the sd of its log from one session to the next on
    this machine, beyond its rounds (analyse/session_spread.py). `sd` is one figure for every ratio of a suite,
    fitted on the suite's own cells; `per_round` a multiple of each ratio's own per-round sd, fitted on every
    suite's cells where a suite has too few of its own. Suites differ tenfold in noise (a register-only loop's
    ratio 2% a round, capnp's 15%): what carries over from one suite to another is how far a session moves a
    ratio in units of its pair's noise, not a percentage; capnp's 3% given to spin's loops hid a planted 10%
    (docs/results/2026-11-27-session-level-fit)."""

    sd: float = 0.0
    per_round: float = 0.0

    def of(self, se_log: float | None, n: int) -> float:
        """The session level of a ratio whose log has standard error se_log over n rounds."""
        per_round_sd = se_log * float(np.sqrt(n)) if se_log is not None and n > 0 else 0.0
        return float(np.hypot(self.sd, self.per_round * per_round_sd))

    def __bool__(self) -> bool:
        return self.sd > 0 or self.per_round > 0

    def text(self) -> str:
        """'3.2%', or '0.25x a round's sd' for a relative level."""
        parts = ([f"{self.sd:.1%}"] if self.sd > 0 or not self.per_round else []) + (
            [f"{self.per_round:.2f}x a round's sd"] if self.per_round > 0 else []
        )
        return " + ".join(parts)


NO_LEVEL = Level()


@dataclass(frozen=True)
class Ratio:
    value: float
    low: float | None  # None: too few runs for an interval
    high: float | None
    se_log: float | None = None  # standard error of log(value) from this session's rounds (paired ratios)
    n: int = 0  # rounds (pairs) behind a paired ratio
    between: float = 0.0  # sd of log(value) from session to session on this machine, in the interval too (session_spread)

    @property
    def se_total(self) -> float | None:
        """What a second session is tested by: the rounds' standard error and the session level together."""
        return None if self.se_log is None else float(np.hypot(self.se_log, self.between))

    def overlaps_one(self) -> bool:
        return self.low is not None and self.high is not None and self.low <= 1.0 <= self.high

    @property
    def half_width(self) -> float | None:
        """The interval's relative half-width (high/low is symmetric on the log scale): 0.02 for +-2%."""
        if self.low is None or self.high is None or self.low <= 0:
            return None
        return float(np.sqrt(self.high / self.low) - 1)


TRIM = 0.2  # Yuen's trimmed mean: the share of rounds left out at each end (Wilcox's usual 20%)
TRIM_FROM = 20  # rounds: below, the 2k + 1 degrees of freedom trimming costs outweigh what its tails save


def layout_clusters(la: Mapping[int, int | None], lb: Mapping[int, int | None]) -> dict[int, tuple] | None:
    """Which rounds of a paired ratio a / b share what stays fixed between them: the pair of code layouts the two
    cells ran in (run/layouts.py). A cell runs its K layouts in one order, over and over, so the rounds r, r + K,
    r + 2K ... of a pair ran the same two programs and their log ratios share those layouts' placement: they
    are one observation of placement, not several. None when neither cell has layouts (every round its own)."""
    if not any(v is not None for v in la.values()) and not any(v is not None for v in lb.values()):
        return None
    return {r: (la.get(r), lb.get(r)) for r in set(la) | set(lb)}


def _cluster_means(rounds: list[int], logs: np.ndarray, clusters: Mapping[int, object]) -> np.ndarray:
    """The mean log ratio of each cluster of rounds (rounds that ran the same two layouts), in order of first
    round: the units a layout-sampled interval is over."""
    groups: dict[object, list[float]] = {}
    for r, x in zip(rounds, logs, strict=True):
        groups.setdefault(clusters.get(r, ("round", r)), []).append(float(x))
    return np.asarray([float(np.mean(v)) for v in groups.values()])


def paired_ratio(
    a: dict[int, float], b: dict[int, float], level: Level = NO_LEVEL, clusters: Mapping[int, object] | None = None
) -> Ratio | None:
    """a / b from the rounds both measured: the centre of each round's log ratio ln(a_r / b_r), back on the
    ratio scale, with a 95% t-interval over rounds, widened by `between`, the sd of such a ratio from one
    session to the next on this machine (its `level`, analyse/session_spread.py), when it is known: the rounds cannot show
    what stays fixed for a whole session, and a second session would move the ratio by it
    (Kalibera & Jones's two levels): the half-width is sqrt((t se)^2 + (z between)^2), t on the rounds' degrees
    of freedom for what this session's few rounds estimate, the normal z for the session level, fitted on many
    cells' changes. Pooled sessions measure it themselves and ignore `between`.

    Pairing by round cancels what hits a whole round alike (the machine's drift, another tenant's burst),
    and the interval is over rounds, the unit that was repeated, not over runs of one cell: a percentile
    bootstrap of two independent sets of 5 runs under-covers badly (Hesterberg 2015); a t-interval on log
    ratios over rounds is what Kalibera & Jones's round level calls for.

    The centre: from TRIM_FROM rounds, Yuen's 20% trimmed mean (the fifth of rounds at each end left out, its
    standard error from the winsorized spread, t with n - 2k - 1 degrees of freedom); below, the plain mean.
    This machine's rounds are heavy-tailed: a run now and then lands 20-50% off, either way (a neighbour's
    burst, a lucky core), so a cell's log times have a standard deviation twice their robust one (median
    0.13 against 0.07 in 514 cells of make bench). The mean follows those runs; the trimmed mean does not,
    and at 50 rounds its interval was half as wide (docs/results/2026-11-26-trimmed-ratios). When the rounds
    are normal it costs little (about 94% of the mean's efficiency at 20%).

    With code layouts (`clusters`, from layout_clusters), the unit repeated is a pair of layouts, not a round:
    rounds that ran the same two programs are averaged first and the interval is over those means, so a
    layout used twice counts once for placement (its runs' noise still averages); with a fresh layout each
    round every cluster is one round and nothing changes.
    """
    rounds = sorted(set(a) & set(b))
    pairs = [(r, a[r], b[r]) for r in rounds if a[r] > 0 and b[r] > 0]
    if not pairs:
        return None
    if len({r // SESSION_STRIDE for r, _, _ in pairs}) > 1:
        return _pooled([(r // SESSION_STRIDE, float(np.log(x / y))) for r, x, y in pairs])
    logs = np.log(np.asarray([x for _, x, _ in pairs]) / np.asarray([y for _, _, y in pairs]))
    if clusters is not None:
        logs = _cluster_means([r for r, _, _ in pairs], logs, clusters)
    if len(logs) < 2:
        return Ratio(float(np.exp(logs.mean())), None, None, None, len(logs), level.sd)
    centre, se, df = _centre(logs)
    between = level.of(se, len(logs))
    half = float(np.hypot(_t_quantile(df) * se, Z95 * between))
    return Ratio(float(np.exp(centre)), float(np.exp(centre - half)), float(np.exp(centre + half)), se, len(logs), between)


def within_layouts_ratio(a: dict[int, float], b: dict[int, float], clusters: Mapping[int, object], level: Level = NO_LEVEL) -> Ratio | None:
    """a / b as paired_ratio gives it over code layouts (the mean of the layout pairs' mean log ratios), but its
    standard error with the layouts held fixed: from the rounds' spread within each pair of layouts only, over
    n - K degrees of freedom. The ratio of a session over layouts carries placement, a draw of K layouts among all
    a linker could make (paired_ratio, over the K pairs); two sessions that ran the very same layouts of both
    cells drew the same placement, and a change between them is a change of the code or the machine, measured
    against the runs' noise alone (compare.judge; over K = 4 pairs, a 10% change in a loop that placement
    moves by 30% could not be told from placement). None with fewer than two rounds to spare past one a pair:
    the caller falls back to paired_ratio."""
    rounds = sorted(r for r in set(a) & set(b) if a[r] > 0 and b[r] > 0)
    groups: dict[object, list[float]] = {}
    for r in rounds:
        groups.setdefault(clusters.get(r, ("round", r)), []).append(float(np.log(a[r] / b[r])))
    n, k = len(rounds), len(groups)
    if n - k < 2:
        return None
    means = [float(np.mean(v)) for v in groups.values()]
    residual = sum(float(np.sum((np.asarray(v) - m) ** 2)) for v, m in zip(groups.values(), means, strict=True))
    variance = residual / (n - k)  # the runs' noise, pooled within pairs of layouts
    se = float(np.sqrt(variance * sum(1 / len(v) for v in groups.values()))) / k
    centre = float(np.mean(means))
    between = level.of(se, n)
    half = float(np.hypot(_t_quantile(n - k) * se, Z95 * between))
    return Ratio(float(np.exp(centre)), float(np.exp(centre - half)), float(np.exp(centre + half)), se, n - k + 1, between)


def fastest_paired(costs: Mapping[K, dict[int, float]]) -> K | None:
    """The key whose cost is lowest, judged on the rounds it shares with the one timed the most rounds (the
    anchor): each candidate's paired_ratio to the anchor, not its own median (ties: the lower median).

    With racing, cells are timed over different rounds: a cell stopped after 39 rounds "behind the fastest
    three" has a median from the session's first stretch, and this VM's speed moves by whole percents between
    stretches. Its median was then 4% below the median of the cell that had led it in every paired judgement
    and ran all 135 rounds, so a median's choice made it the table's fastest, and every ratio of the table was
    then paired on its 39 rounds: +-10-13% where the race had seen +-1%
    (docs/results/2026-11-27-paired-fastest). A paired ratio compares two cells in the same rounds only. A
    candidate that shares no round with the anchor is judged by the ratio of the two medians."""
    timed = {k: v for k, v in costs.items() if v}
    if not timed:
        return None
    medians = {k: float(np.median(list(v.values()))) for k, v in timed.items()}
    anchor = max(timed, key=lambda k: (len(timed[k]), -medians[k]))

    def relative(k: K) -> float:
        if k == anchor:
            return 1.0
        r = paired_ratio(timed[k], timed[anchor])
        return r.value if r is not None else medians[k] / medians[anchor]

    return min(timed, key=lambda k: (relative(k), medians[k]))


def centre_and_round_var(logs: np.ndarray) -> tuple[float, float]:
    """What paired_ratio makes of these per-round log ratios: (its centre, its variance per round), the
    variance per round being n x its squared standard error, what a round is worth to it: the plain variance
    below TRIM_FROM rounds, the winsorized one over (1 - 2k/n)^2 from there. Planning with it (iorace
    dimension, run/prior.py) counts rounds as the intervals will spend them; the plain variance of heavy-tailed
    rounds asks for several times too many."""
    if len(logs) < 2:
        return float(np.mean(logs)), 0.0
    centre, se, _ = _centre(logs)
    return centre, se * se * len(logs)


def _centre(logs: np.ndarray) -> tuple[float, float, int]:
    """(centre, its standard error, degrees of freedom) of two or more per-round log ratios: Yuen's trimmed
    mean from TRIM_FROM rounds, the plain mean below."""
    if len(logs) >= TRIM_FROM:
        return trimmed_mean(logs)
    return float(np.mean(logs)), float(np.std(logs, ddof=1) / np.sqrt(len(logs))), len(logs) - 1


def trimmed_mean(values: np.ndarray, share: float = TRIM) -> tuple[float, float, int]:
    """Yuen's (1974) trimmed mean of values: (the mean of what is left once the int(share n) smallest and
    largest are left out, its standard error, its degrees of freedom). The standard error is the winsorized
    standard deviation (the trimmed values set to the nearest kept one) over (1 - 2k/n) sqrt(n); the degrees
    of freedom n - 2k - 1. scipy has the estimate (stats.trim_mean) and its error only on masked arrays
    (stats.mstats.trimmed_stde, 50 times slower: the race calls this for every cell every round)."""
    ordered = np.sort(values)
    n = len(ordered)
    k = int(share * n)
    kept = ordered[k : n - k]
    winsorized = np.clip(ordered, kept[0], kept[-1])
    se = float(winsorized.std(ddof=1) / ((1 - 2 * k / n) * np.sqrt(n)))
    return float(kept.mean()), se, n - 2 * k - 1


@functools.lru_cache(maxsize=256)
def _t_quantile(df: int) -> float:
    """Student's t two-sided CONFIDENCE quantile (scipy's ppf costs half a millisecond a call)."""
    return float(sps.t.ppf(0.5 + CONFIDENCE / 2, df))


SESSION_STRIDE = 1_000_000  # round keys of pooled sessions: session number x SESSION_STRIDE + round


def _pooled(logs_by_session: list[tuple[int, float]], seed: int = 0) -> Ratio:
    """Several sessions as one result (Kalibera & Jones's levels: session > round): the mean over sessions of
    each session's mean log ratio, with a 95% interval from a hierarchical bootstrap that resamples the
    sessions, then the rounds within each. What stays fixed for a session and moves between sessions is in
    the interval, which a pool of rounds alone would not see. se_log: the bootstrap's standard deviation."""
    groups: dict[int, list[float]] = {}
    for session, value in logs_by_session:
        groups.setdefault(session, []).append(value)
    samples = [np.asarray(v) for v in groups.values()]
    mean = float(np.mean([x.mean() for x in samples]))
    rng = np.random.default_rng(seed)
    k = len(samples)
    draws = np.empty(RESAMPLES)
    for i in range(RESAMPLES):
        picked = rng.integers(0, k, k)
        draws[i] = np.mean([rng.choice(samples[j], len(samples[j])).mean() for j in picked])
    low, high = np.quantile(draws, [(1 - CONFIDENCE) / 2, (1 + CONFIDENCE) / 2])
    return Ratio(float(np.exp(mean)), float(np.exp(low)), float(np.exp(high)), float(draws.std(ddof=1)), len(logs_by_session))


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
