"""Pairing in time: read run.sh's store and its sessions.txt, and per configuration (S shuffle, R
rivals) and suite print what decides a table's answer, as iorace computes it (stats.paired_ratio):
- for each table's second and third fastest against its fastest: the sd of the per-round log ratio, the
  correlation of the two runs of a round (log times), and the ratio's 95% half-width;
- the A/A twins: the sd of their per-round log ratio and how many intervals cover 1.00;
- the two sessions of a configuration against each other: z of each top ratio (honest: |z| < 1.96 for about
  95%), and their sd (about 0.71 honest: the three fastest of a table share its fastest).
A one-off, frozen beside its result.

usage: .venv/bin/python docs/results/2026-11-26-pairing-in-time/pairing.py STORE.sqlite SESSIONS.txt
"""

from __future__ import annotations

import collections
import math
import re
import statistics as st
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "2026-11-26-trimmed-ratios"))
from trimmed import build, ident, stats

from iorace.core.kind import Kind
from iorace.store.db import Store


def figures(session) -> dict:
    out: dict = collections.defaultdict(list)
    for g in build(session).groups:
        ranked = sorted((r for r in g.rows if r.kind.compared and r.vs_fastest is not None), key=lambda r: r.vs_fastest.value)
        if len(ranked) < 2:
            continue
        first = ranked[0].cost_by_round()
        for r in ranked[1:3]:
            mine = r.cost_by_round()
            common = sorted(first.keys() & mine.keys())
            la, lb = np.log([first[k] for k in common]), np.log([mine[k] for k in common])
            out["sd"].append(float(np.std(lb - la, ddof=1)))
            out["corr"].append(float(np.corrcoef(la, lb)[0, 1]))
            out["hw"].append(r.vs_fastest.half_width)
            out["ratios"].append(((ident(ranked[0], g.scale_params), ident(r, g.scale_params)), r.vs_fastest))
        for r in g.rows:
            if r.kind is Kind.CONTROL and r.vs_original is not None and r.vs_original.low is not None:
                out["aa_cover"].append(r.vs_original.overlaps_one())
                out["aa_hw"].append(r.vs_original.half_width)
    return out


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    store = Store(Path(sys.argv[1]))
    ids = store.session_ids()
    configs = [m.groups() for m in re.finditer(r"session (\d+): config (\w)[^,]*\), (\w+)", Path(sys.argv[2]).read_text())]
    by: dict[tuple[str, str], list[dict]] = collections.defaultdict(list)
    for n, cfg, suite in configs:
        by[(cfg, suite)].append(figures(store.load(ids[int(n) - 1])))
    print(f"trimmed mean from {stats.TRIM_FROM} rounds; medians over each table's 2nd and 3rd fastest against its fastest")
    header = ("cfg", "suite", "sd(log ratio)", "corr", "half-width", "A/A half-width", "A/A cover", "|z|<1.96", "sd(z)")
    print("{:3} {:10} {:>13} {:>5} {:>10} {:>14} {:>9} {:>9} {:>6}".format(*header))
    for (cfg, suite), figs in sorted(by.items()):
        zs = []
        if len(figs) >= 2:
            b = dict(figs[1]["ratios"])
            for key, ra in figs[0]["ratios"]:
                rb = b.get(key)
                if rb is not None and ra.se_log and rb.se_log:
                    zs.append(math.log(rb.value / ra.value) / math.hypot(ra.se_log, rb.se_log))

        def med(name: str, figs: list[dict] = figs) -> float:
            return float(np.median([x for f in figs for x in f[name]]))

        covers = [x for f in figs for x in f["aa_cover"]]
        inside = f"{np.mean(np.abs(zs) < 1.96):.0%}/{len(zs)}" if zs else "-"
        sdz = f"{st.stdev(zs):.2f}" if len(zs) > 2 else "-"
        print(
            f"{cfg:3} {suite:10} {med('sd'):>13.3f} {med('corr'):>5.2f} {med('hw'):>10.1%} {med('aa_hw'):>14.1%}"
            f" {sum(covers):>4}/{len(covers):<4} {inside:>9} {sdz:>6}"
        )


if __name__ == "__main__":
    main()
