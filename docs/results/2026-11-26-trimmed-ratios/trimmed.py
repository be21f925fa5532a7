"""Are this machine's rounds heavy-tailed, and does a trimmed mean of the per-round log ratios give
narrower intervals that still tell the truth? Reads two back-to-back sessions of one store.

Per suite: each cell's standard deviation of log time beside its robust one (1.4826 x the median absolute
deviation: equal for normal noise); the median 95% half-width of the ratios of each table's three fastest cells
to its fastest; and the z of the same ratio between the two sessions (sd(z) about 1 when the intervals are
honest), for two estimators of a ratio: the mean of the log ratios everywhere, and iorace's (Yuen's 20%
trimmed mean from stats.TRIM_FROM rounds). The z of the three fastest share their table's fastest cell, so
their sd(z) reads low when honest (about 0.71 if the fastest is as noisy as they are).

usage: .venv/bin/python docs/results/2026-11-26-trimmed-ratios/trimmed.py STORE.sqlite SESSION1,SESSION2
"""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from iorace.analyse import stats
from iorace.core.ids import CellId
from iorace.report.document import build
from iorace.store.db import Store

MEAN_ONLY = 10**9  # TRIM_FROM that no session reaches: the plain mean everywhere
TRIM_FROM = stats.TRIM_FROM  # iorace's


def ident(r, scale_params) -> CellId:
    """A cell's identity across sessions, its scale parameters left out (each session sizes it anew)."""
    params = {k: v for k, v in r.cell.params.items() if k not in scale_params}
    c = r.cell
    return CellId.of(c.suite, c.dataset, params, c.key, c.toolchain, c.profile)


def spreads(session) -> dict[str, list[tuple[float, float]]]:
    """suite -> (sd, robust sd) of each timed cell's log times (5 runs at least)."""
    out: dict[str, list[tuple[float, float]]] = {}
    for g in build(session).groups:
        for r in g.rows:
            times = [t for t in r.cost_by_round().values() if t > 0]
            if len(times) >= 5:
                logs = np.log(times)
                out.setdefault(r.cell.suite, []).append((float(logs.std(ddof=1)), float(1.4826 * np.median(abs(logs - np.median(logs))))))
    return out


def top_ratios(session) -> dict[tuple, tuple[str, stats.Ratio]]:
    """(table, cell) -> (suite, its ratio to the table's fastest), for each table's second and third fastest."""
    out = {}
    for g in build(session).groups:
        ranked = sorted((r for r in g.rows if r.kind.compared and r.vs_fastest is not None), key=lambda r: r.vs_fastest.value)
        fastest = ident(ranked[0], g.scale_params) if ranked else None
        for r in ranked[1:3]:
            out[(fastest, ident(r, g.scale_params))] = (r.cell.suite, r.vs_fastest)
    return out


def report(sessions, trim_from: int, name: str) -> None:
    stats.TRIM_FROM = trim_from
    a, b = (top_ratios(s) for s in sessions)
    widths: dict[str, list[float]] = {}
    zs: dict[str, list[float]] = {}
    for key, (suite, ra) in a.items():
        if ra.half_width is not None:
            widths.setdefault(suite, []).append(ra.half_width)
        if key in b and ra.se_log and b[key][1].se_log:
            rb = b[key][1]
            zs.setdefault(suite, []).append(math.log(rb.value / ra.value) / math.hypot(ra.se_log, rb.se_log))
    print(f"\n{name}")
    print(f"  {'suite':10} {'ratios':>6} {'half-width (median)':>20} {'z pairs':>8} {'sd(z)':>6} {'|z|<1.96':>9}")
    for suite in sorted(widths):
        z = zs.get(suite, [])
        sd = f"{statistics.stdev(z):.2f}" if len(z) > 2 else "-"
        inside = f"{np.mean(np.abs(z) < 1.96):.0%}" if z else "-"
        print(f"  {suite:10} {len(widths[suite]):>6} {np.median(widths[suite]):>20.1%} {len(z):>8} {sd:>6} {inside:>9}")
    every = [w for v in widths.values() for w in v]
    allz = [x for v in zs.values() for x in v]
    sd_all, inside_all = statistics.stdev(allz), np.mean(np.abs(allz) < 1.96)
    print(f"  {'all':10} {len(every):>6} {np.median(every):>20.1%} {len(allz):>8} {sd_all:>6.2f} {inside_all:>9.0%}")


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    store = Store(Path(sys.argv[1]))
    sessions = [store.load(int(i)) for i in sys.argv[2].split(",")]
    print(f"store {sys.argv[1]}, sessions {sys.argv[2]}")
    print("\nper cell, sd of log time against its robust sd (medians over cells; equal for normal noise):")
    for suite, values in sorted(spreads(sessions[0]).items()):
        v = np.asarray(values)
        print(f"  {suite:10} {len(v):>4} cells  sd {np.median(v[:, 0]):.3f}  robust sd {np.median(v[:, 1]):.3f}")
    report(sessions, MEAN_ONLY, "the mean of the log ratios everywhere (iorace before):")
    report(sessions, TRIM_FROM, f"Yuen's 20% trimmed mean from {TRIM_FROM} rounds (iorace now):")


if __name__ == "__main__":
    main()
