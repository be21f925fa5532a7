#!/usr/bin/env python3
"""Is our cell as fast as the program it re-types? Two commands a row, timed in alternating pairs (issue 32).

Reads a TSV with a header line and the columns `label`, `ours`, `original` (complete commands, run as
`sh -c 'exec COMMAND'`: redirections allowed, and the program replaces the shell, so what is timed is it)
and `units` (the unit count of one run, for per-unit figures; may be empty). Each row's two
commands run PAIRS times each, in pairs whose order alternates (ours first, then the original first), each
run started with posix_spawn and reaped with wait4: its wall time and its CPU time (user + system). Per row it
prints the ratio ours / original of each metric, the geometric mean over the pairs with a 95% t-interval of
the pairs' log ratios, and each side's median time per unit. Both sides' stdout goes to /dev/null: check
their answers first (the hand-off's check.sh). Nothing else may run on the machine meanwhile.

usage: tools/pair_timer.py PAIRS.tsv [--pairs N] [--warmup N] [--out RESULT.tsv]"""

from __future__ import annotations

import argparse
import csv
import math
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

from scipy import stats


def run(argv: list[str]) -> tuple[float, float]:
    """One run: (wall seconds, user + system seconds)."""
    t0 = time.perf_counter_ns()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    wall = (time.perf_counter_ns() - t0) / 1e9
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"pair_timer: {shlex.join(argv)} failed (status {os.waitstatus_to_exitcode(status)})")
    return wall, usage.ru_utime + usage.ru_stime


def interval(logs: list[float]) -> tuple[float, float, float]:
    """Geometric mean of the ratios and its 95% t-interval, from the log ratios."""
    m = statistics.mean(logs)
    hw = stats.t.ppf(0.975, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - hw), math.exp(m + hw)


def per_unit(side: list[tuple[float, float]], units: float | None) -> str:
    """A side's median wall time per unit (or per run, without a unit count)."""
    med = statistics.median(w for w, _ in side)
    return f"{med / units * 1e9:.3f} ns" if units else f"{med * 1e3:.1f} ms/run"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("table", type=Path)
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs of each side first")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    try:
        rows = list(csv.DictReader(a.table.open(), delimiter="\t"))
    except OSError as e:
        sys.exit(f"pair_timer: cannot read {a.table}: {e.strerror}")
    if not rows or not {"label", "ours", "original"} <= set(rows[0]):
        sys.exit(f"pair_timer: {a.table}: expected a header with label, ours, original (and units)")
    header = "label\tpairs\twall ratio [95%]\tcpu ratio [95%]\tours per unit\toriginal per unit"
    lines = [header]
    print(header)
    for row in rows:
        ours, original = ["/bin/sh", "-c", "exec " + row["ours"]], ["/bin/sh", "-c", "exec " + row["original"]]
        for _ in range(a.warmup):
            run(ours), run(original)
        mine, theirs = [], []
        for i in range(a.pairs):
            if i % 2 == 0:
                mine.append(run(ours))
                theirs.append(run(original))
            else:
                theirs.append(run(original))
                mine.append(run(ours))
        wall = interval([math.log(m[0] / t[0]) for m, t in zip(mine, theirs, strict=True)])
        cpu = interval([math.log(max(m[1], 1e-6) / max(t[1], 1e-6)) for m, t in zip(mine, theirs, strict=True)])
        units = float(row.get("units") or 0) or None
        line = (
            f"{row['label']}\t{a.pairs}\t{wall[0]:.3f} [{wall[1]:.3f}-{wall[2]:.3f}]\t{cpu[0]:.3f} [{cpu[1]:.3f}-{cpu[2]:.3f}]"
            f"\t{per_unit(mine, units)}\t{per_unit(theirs, units)}"
        )
        lines.append(line)
        print(line, flush=True)
    if a.out:
        a.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
