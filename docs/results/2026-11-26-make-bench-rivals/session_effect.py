"""Why do two back-to-back sessions disagree beyond their intervals? For each table's second and third
fastest cell against its fastest, in two sessions of one store:
- the spread between the sessions beyond what their intervals explain: tau, with E[d^2] = 2 tau^2 + se1^2 + se2^2
  for d the change of the log ratio (a session-level effect, Kalibera & Jones's upper level), per suite;
- whether the ratio depends on the machine's speed: this VM runs in two speeds about 2x apart, whole seconds at a
  time; a round is "fast" for a pair when both runs are within 1.25x of their cell's 10th percentile and "slow"
  when both are beyond 1.4x; the median |difference| of the mean log ratio between a session's slow and fast
  rounds, and the change between sessions of the ratio over all rounds against over fast rounds only.
A one-off, frozen beside its result.

usage: .venv/bin/python docs/results/2026-11-26-make-bench-rivals/session_effect.py STORE.sqlite SESSION1,SESSION2
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "2026-11-26-trimmed-ratios"))
from trimmed import build, ident, top_ratios

from iorace.store.db import Store

FAST, SLOW = 1.25, 1.4


def tau(pairs: list[tuple[float, float, float]]) -> float:
    v = np.asarray(pairs)
    t2 = float(np.mean(v[:, 0] ** 2 - v[:, 1] ** 2 - v[:, 2] ** 2)) / 2
    return math.sqrt(t2) if t2 > 0 else 0.0


def speeds(session) -> dict:
    """(fastest, cell) -> (the per-round log ratios, which rounds were fast, which slow)."""
    out = {}
    for g in build(session).groups:
        ranked = sorted((r for r in g.rows if r.kind.compared and r.vs_fastest is not None), key=lambda r: r.vs_fastest.value)
        if len(ranked) < 2:
            continue
        ref = ranked[0].cost_by_round()
        for r in ranked[1:3]:
            mine = r.cost_by_round()
            keys = sorted(ref.keys() & mine.keys())
            if len(keys) < 8:
                continue
            a, b = np.asarray([ref[k] for k in keys]), np.asarray([mine[k] for k in keys])
            fast = (a < FAST * np.percentile(a, 10)) & (b < FAST * np.percentile(b, 10))
            slow = (a > SLOW * np.percentile(a, 10)) & (b > SLOW * np.percentile(b, 10))
            out[(ident(ranked[0], g.scale_params), ident(r, g.scale_params))] = (np.log(b / a), fast, slow)
    return out


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    store = Store(Path(sys.argv[1]))
    first, second = (store.load(int(i)) for i in sys.argv[2].split(","))
    ta, tb = top_ratios(first), top_ratios(second)
    by_suite: dict[str, list[tuple[float, float, float]]] = {}
    for key, (suite, ra) in ta.items():
        rb = tb.get(key, (None, None))[1]
        if rb is not None and ra.se_log and rb.se_log:
            by_suite.setdefault(suite, []).append((math.log(rb.value / ra.value), ra.se_log, rb.se_log))
    print("between the sessions, each table's 2nd and 3rd fastest against its fastest:")
    for suite, pairs in sorted(by_suite.items()):
        d = np.asarray(pairs)
        change, se = np.median(abs(d[:, 0])), np.sqrt(np.mean(d[:, 1] ** 2))
        print(f"  {suite:10} {len(d):3} ratios  median |change| {change:.1%}  rms se {se:.1%}  tau {tau(pairs):.1%}")
    every = [p for v in by_suite.values() for p in v]
    print(f"  {'all':10} {len(every):3} ratios  median |change| {np.median([abs(p[0]) for p in every]):.1%}  tau {tau(every):.1%}")
    sa, sb = speeds(first), speeds(second)
    within, change_all, change_fast, shares = [], [], [], []
    for key, (la, fa, wa) in sa.items():
        if key not in sb:
            continue
        lb, fb, _ = sb[key]
        if wa.sum() >= 3 and fa.sum() >= 3:
            within.append(abs(la[wa].mean() - la[fa].mean()))
        if fa.sum() >= 4 and fb.sum() >= 4:
            change_all.append(la.mean() - lb.mean())
            change_fast.append(la[fa].mean() - lb[fb].mean())
            shares += [fa.mean(), fb.mean()]
    print(f"\nthe two speeds ({len(change_all)} pairs measured in both sessions with 4 fast rounds or more):")
    print(f"  share of a pair's rounds that were fast for both runs: median {np.median(shares):.0%}")
    print(f"  within a session, slow rounds' ratio against fast ones': median |difference| {np.median(within):.1%} ({len(within)} pairs)")
    rms_all, rms_fast = math.sqrt(np.mean(np.square(change_all))), math.sqrt(np.mean(np.square(change_fast)))
    print(f"  between the sessions, rms change of the ratio: all rounds {rms_all:.1%}, fast rounds only {rms_fast:.1%}")


if __name__ == "__main__":
    main()
