"""Paired per-round ratios (stats.paired_ratio) on synthetic rounds whose true ratio is known."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from iorace.analyse.stats import layout_clusters, paired_ratio


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


def heavy_tailed_rounds(rng: np.random.Generator, n: int, true_ratio: float, outliers: float = 0.15) -> tuple[dict, dict]:
    """Rounds like this machine's: most runs within 3%, and now and then (outliers of them) one 20-50% off,
    slower or faster."""

    def run() -> float:
        log = rng.normal(0, 0.03)
        if rng.random() < outliers:
            log += rng.choice([-1, 1]) * rng.uniform(0.2, 0.5)
        return float(np.exp(log))

    return {r: true_ratio * run() for r in range(n)}, {r: run() for r in range(n)}


def test_from_twenty_rounds_the_trimmed_interval_covers_heavy_tailed_rounds_and_is_narrower_than_the_means():
    rng = np.random.default_rng(11)
    covered, widths, mean_widths = 0, [], []
    trials = 400
    for _ in range(trials):
        a, b = heavy_tailed_rounds(rng, 30, 1.2)
        r = paired_ratio(a, b)
        covered += r.low <= 1.2 <= r.high
        widths.append(r.half_width)
        logs = np.log([a[k] / b[k] for k in a])
        mean_widths.append(np.expm1(2.045 * logs.std(ddof=1) / np.sqrt(30)))
    assert 0.92 <= covered / trials <= 0.99
    assert np.median(widths) < 0.6 * np.median(mean_widths)  # about half: the tails no longer set the width


def test_the_trimmed_mean_and_its_error_are_yuens_as_scipy_computes_them():
    from scipy import stats as sps
    from scipy.stats import mstats

    from iorace.analyse.stats import trimmed_mean

    x = np.random.default_rng(3).standard_t(3, size=20)
    centre, se, df = trimmed_mean(x)
    assert centre == pytest.approx(sps.trim_mean(x, 0.2))
    assert se == pytest.approx(float(mstats.trimmed_stde(x, (0.2, 0.2))))
    assert df == 20 - 2 * 4 - 1


def test_below_trim_from_rounds_the_centre_is_the_plain_mean_and_from_there_the_trimmed_one():
    from iorace.analyse.stats import TRIM_FROM

    logs = [0.0, 0.01, -0.01, 0.02, -0.02, 0.0, 0.01, -0.01, 0.9, 0.0] * 2  # rounds far off
    few = {r: float(np.exp(v)) for r, v in enumerate(logs[: TRIM_FROM - 1])}
    many = {r: float(np.exp(v)) for r, v in enumerate(logs)}
    ones = dict.fromkeys(range(len(logs)), 1.0)
    assert paired_ratio(few, ones).value == pytest.approx(float(np.exp(np.mean(logs[: TRIM_FROM - 1]))))
    assert paired_ratio(many, ones).value == pytest.approx(float(np.exp(np.mean(sorted(logs)[4:-4]))))


def test_planning_counts_a_round_as_the_ratio_spends_it():
    """dimension and prior plan rounds from the variance per round that paired_ratio's interval sees: the
    plain variance below TRIM_FROM rounds, n x the trimmed mean's squared error from there (far smaller on
    heavy-tailed rounds)."""
    from iorace.analyse.stats import TRIM_FROM, centre_and_round_var, trimmed_mean

    rng = np.random.default_rng(5)
    few = rng.normal(0, 0.1, TRIM_FROM - 1)
    assert centre_and_round_var(few) == pytest.approx((few.mean(), few.var(ddof=1)))
    a, b = heavy_tailed_rounds(rng, 40, 1.0)
    logs = np.log([a[k] / b[k] for k in a])
    centre, var = centre_and_round_var(logs)
    _, se, _ = trimmed_mean(logs)
    assert centre == pytest.approx(trimmed_mean(logs)[0]) and var == pytest.approx(40 * se * se)
    assert var < 0.5 * logs.var(ddof=1)


def _layout_rounds(rng, k: int, turns: int, placement_sd: float, noise: float):
    """Two programs of one speed, each over k code layouts (fixed effects drawn once, sd placement_sd) used in
    turn for `turns` turns, as measure() runs them: each cell's cost per round and its layout per round."""
    effects = [[rng.gauss(0, placement_sd) for _ in range(k)] for _ in range(2)]
    orders = [rng.sample(range(k), k) for _ in range(2)]
    costs: list[dict[int, float]] = [{}, {}]
    layouts: list[dict[int, int | None]] = [{}, {}]
    for r in range(k * turns):
        for cell in range(2):
            layout = orders[cell][r % k]
            layouts[cell][r] = layout
            costs[cell][r] = math.exp(effects[cell][layout] + rng.gauss(0, noise))
    return costs, layouts


def test_over_reused_layouts_the_interval_is_over_pairs_of_layouts_and_covers_as_it_says():
    """Eight layouts used three times each: rounds r, r + 8 and r + 16 ran the same two programs, so their
    placement is one draw, not three. Treated as 24 independent rounds the A/A interval covered 1.00 in 72% of
    trials here; over the 8 pairs of layouts, 95%."""
    rng = random.Random(7)
    plain = clustered = 0
    trials = 300
    for _ in range(trials):
        (a, b), (la, lb) = _layout_rounds(rng, k=8, turns=3, placement_sd=0.15, noise=0.01)
        plain += paired_ratio(a, b).overlaps_one()
        clustered += paired_ratio(a, b, clusters=layout_clusters(la, lb)).overlaps_one()
    assert clustered / trials >= 0.9
    assert plain / trials < 0.8


def test_layout_clusters_leave_rounds_alone_without_layouts_and_one_round_a_layout_changes_nothing():
    assert layout_clusters({0: None, 1: None}, {0: None, 1: None}) is None
    rng = random.Random(3)
    (a, b), (la, lb) = _layout_rounds(rng, k=12, turns=1, placement_sd=0.1, noise=0.02)
    assert paired_ratio(a, b, clusters=layout_clusters(la, lb)) == paired_ratio(a, b)
