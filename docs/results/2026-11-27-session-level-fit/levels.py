"""What the session level is made of, how to fit it, and which form of it carries from one suite to
another. Over the sessions of one store:
0. per consecutive pair of sessions, three fits of tau: the one make bench used until 3559071 (each cell's ratio
   to its table's fastest, the median of d^2 / (s^2 + 2 tau^2) against chi-square(1)'s), the same changes judged
   by Student's t (Change.p), and analyse/session_spread.py's now (disjoint pairs of cells, by Student's t);
1. each session split in two halves by time (its first rounds against its last) and by alternate rounds (odd
   against even): were the level fixed for a session, the halves by time would agree as the alternate ones do;
   a drift within the session shows in the halves by time as it does between sessions;
2. the level fitted as one sd per suite (tau) against a multiple of each pair's own per-round sd (k x sigma),
   each fitted on the other consecutive pairs of sessions, judged on the left-out pair per suite: |z| < 1.96 and
   sd(z) over the suite's changes (a suite with too few changes takes the fit of every suite);
3. spin's pair (loop against loop2), z under each form: loop2 carries the 10% slowdown planted in the second
   session of each make bench pair (IORACE_SPIN_SLOWER=loop2:10).
A one-off, frozen beside its result.

usage: .venv/bin/python docs/results/2026-11-27-session-level-fit/levels.py STORE.sqlite
"""

from __future__ import annotations

import copy
import itertools
import math
import sys

import numpy as np
from scipy import optimize
from scipy.stats import norm

from iorace.analyse import session_spread as ss
from iorace.store.db import SessionData, Store


def vs_fastest(s: SessionData, suite: str) -> dict:
    """Each ranked cell but the fastest: identity -> (the fastest's identity, log ratio to it, se, rounds)."""
    scale = s.suite_setting(suite, "scale_params", [])
    out = {}
    for g in ss._groups(s):
        fastest = g.fastest
        if g.suite != suite or fastest is None:
            continue
        for r in g.rows:
            v = r.vs_fastest
            if r is fastest or not r.ok or not r.kind.compared or v is None or v.se_log is None or v.n < 3 or v.value <= 0:
                continue
            out[r.cell.ident(scale)] = (fastest.cell.ident(scale), math.log(v.value), v.se_log, v.n)
    return out


def changes_vs_fastest(a: SessionData, b: SessionData, suites: list[str]) -> list[ss.RatioStep]:
    """The changes the fit took until 3559071: every cell against its table's fastest, the same fastest in both."""
    out = []
    for su in suites:
        x, y = vs_fastest(a, su), vs_fastest(b, su)
        out += [ss.RatioStep(y[k][1] - x[k][1], x[k][2], x[k][3], y[k][2], y[k][3]) for k in x.keys() & y.keys() if x[k][0] == y[k][0]]
    return out


def normal_fit(found: list[ss.RatioStep]) -> float:
    """The fit until 3559071: tau where the median of d^2 / (s^2 + 2 tau^2) is chi-square(1)'s median."""
    d2, s2 = np.asarray([c.d * c.d for c in found]), np.asarray([c.s2 for c in found])

    def excess(tau: float) -> float:
        return float(np.median(d2 / (s2 + 2 * tau * tau))) - 0.4549

    return 0.0 if excess(0.0) <= 0 else float(optimize.brentq(excess, 0.0, 1.0))


def subset(s: SessionData, keep) -> SessionData:
    """The session with each cell's measured rounds cut to keep(its rounds in order)."""
    t = copy.copy(s)
    t.cells = []
    for c in s.cells:
        mine = copy.copy(c)
        rounds = set(keep(sorted({r.round for r in c.runs if r.phase == "measure"})))
        mine.runs = [r for r in c.runs if r.phase != "measure" or r.round in rounds]
        t.cells.append(mine)
    return t


def fitted(changes: list[ss.RatioStep], relative: bool = False) -> str:
    return f"{ss.fit(changes, relative):.1%}" if len(changes) >= ss.MIN_CHANGES else "-"


def z(c: ss.RatioStep, level: float, relative: bool) -> float:
    """The change's z as compare tests it: its Student-t p carried to the normal scale."""
    p = max(c.p(level * level * (c.round_var if relative else 1.0)), 1e-300)
    return math.copysign(float(norm.isf(p / 2)), c.d)


def fits(sessions: dict[int, SessionData], suites: list[str]) -> None:
    print("0. tau between consecutive sessions, three ways:")
    for x, y in itertools.pairwise(sessions):
        old = changes_vs_fastest(sessions[x], sessions[y], suites)
        now = [c for su in suites for c in ss.changes(sessions[x], sessions[y], su)]
        print(
            f"  sessions {x} -> {y}: vs each table's fastest {normal_fit(old):.1%} by the normal, {ss.fit(old):.1%} by Student's t"
            f" ({len(old)} cells); disjoint pairs by Student's t {ss.fit(now):.1%} ({len(now)} pairs)"
        )


def halves(sessions: dict[int, SessionData], suites: list[str]) -> None:
    print("\n1. tau between two halves of one session, and between consecutive sessions (disjoint pairs with 3 rounds or more a half):")
    splits = {"by time": lambda m: (m[: len(m) // 2], m[len(m) // 2 :]), "alternate": lambda m: (m[0::2], m[1::2])}
    for i, s in sessions.items():
        for name, split in splits.items():
            a, b = subset(s, lambda m, split=split: split(m)[0]), subset(s, lambda m, split=split: split(m)[1])
            found = [c for su in suites for c in ss.changes(a, b, su)]
            print(f"  session {i}, halves {name:9}: tau {fitted(found):>5} over {len(found)} pairs")
    for x, y in itertools.pairwise(sessions):
        found = [c for su in suites for c in ss.changes(sessions[x], sessions[y], su)]
        print(f"  sessions {x} -> {y}:            tau {fitted(found):>5} over {len(found)} pairs")


def forms(per: dict, suites: list[str]) -> None:
    print("\n2. fitted on the other pairs, judged on the left-out pair: |z| < 1.96 / sd(z) (changes)")
    for test in per:
        for relative in (False, True):
            train = [p for p in per if p != test]
            pooled = ss.fit([c for p in train for v in per[p].values() for c in v], relative)
            zs, parts = [], []
            for su in suites:
                own = [c for p in train for c in per[p][su]]
                level = ss.fit(own, relative) if len(own) >= ss.MIN_CHANGES else pooled
                mine = [z(c, level, relative) for c in per[test][su]]
                if mine:
                    zs += mine
                    shown = f"{level:.2f}x" if relative else f"{level:.1%}"
                    parts.append(f"{su} {np.mean(np.abs(mine) < 1.96):.0%}/{np.std(mine):.2f} ({len(mine)}, {shown})")
            form = "k x sigma" if relative else "tau      "
            print(f"  {test[0]} -> {test[1]} {form}: all {np.mean(np.abs(zs) < 1.96):.0%}/{np.std(zs):.2f} | " + "; ".join(parts))


def spin(per: dict) -> None:
    print("\n3. spin's pair between consecutive sessions (d, the rounds' se, the pair's per-round sd; z with every suite's fit):")
    for test in per:
        train = [p for p in per if p != test]
        every = [c for p in train for v in per[p].values() for c in v]
        tau, k = ss.fit(every), ss.fit(every, relative=True)
        for c in per[test].get("spin", []):
            print(
                f"  {test[0]} -> {test[1]}: d {c.d:+.3f} se {math.sqrt(c.s2):.3f} sigma {math.sqrt(c.round_var):.3f}:"
                f" z {z(c, tau, False):+.1f} with tau {tau:.1%}, {z(c, k, True):+.1f} with k {k:.2f}"
            )


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    store = Store(sys.argv[1])
    sessions = {i: store.load(i) for i in store.session_ids()}
    suites = sorted({c.suite for s in sessions.values() for c in s.cells})
    fits(sessions, suites)
    halves(sessions, suites)
    per = {(x, y): {su: ss.changes(sessions[x], sessions[y], su) for su in suites} for x, y in itertools.pairwise(sessions)}
    forms(per, suites)
    spin(per)


if __name__ == "__main__":
    main()
