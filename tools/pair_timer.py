#!/usr/bin/env python3
"""Is our cell as fast as the program it re-types? Two commands a row, timed in alternating pairs.

Reads a TSV with a header line and the columns `label`, `ours`, `original` (complete commands, run as
`sh -c 'exec COMMAND'`: redirections allowed, and the program replaces the shell, so what is timed is it)
and `units` (the unit count of one run, for per-unit figures; may be empty). Each row's two
commands run PAIRS times each, in pairs whose order alternates (ours first, then the original first), each
run started with posix_spawn and reaped with wait4: its wall time and its CPU time (user + system). Per row it
prints the ratio ours / original of each metric, the geometric mean over the pairs with a 95% t-interval of
the pairs' log ratios, and each side's median time per unit. Both sides' stdout goes to /dev/null: check
their answers first (the hand-off's check.sh). Nothing else may run on the machine meanwhile.

Over code layouts (`--layouts K`): a row whose commands hold `{layout}` is timed over K builds of each side,
`{layout}` replaced by 1..K, each build the same program in another code layout (for example compiled with
-ffunction-sections and linked by lld with --shuffle-sections=.text*=N). Two programs that run the same
instructions can still differ in time by where the linker put one hot loop or function (Mytkowicz et al.,
"Producing wrong data without doing anything obviously wrong", 2009), and one build of each side compares
two such accidents. The mean over random layouts of both sides does not depend on them (Curtsinger & Berger's
Stabilizer, 2013, re-randomises while the program runs; this samples layouts at link time). Each round times
one pair per layout, the layouts in a new shuffled order each round and each layout's pairs alternating which
side goes first. A row's ratio is the geometric mean of its layouts' ratios with a 95% t-interval over the K
layouts, so placement is inside its uncertainty; each side's sd over layouts says how much placement alone
moves that side. `--per-layout FILE` keeps each layout's ratio, to set beside where its hot code lies.

usage: tools/pair_timer.py PAIRS.tsv [--pairs N] [--warmup N] [--layouts K] [--per-layout FILE] [--out RESULT.tsv]"""

from __future__ import annotations

import argparse
import csv
import math
import os
import random
import shlex
import statistics
import sys
import time
from pathlib import Path

from scipy import stats

PLACEHOLDER = "{layout}"
Run = tuple[float, float]  # (wall seconds, user + system seconds)


def run(argv: list[str]) -> Run:
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


def log_ratios(mine: list[Run], theirs: list[Run], metric: int) -> list[float]:
    """Each pair's log ratio ours / original of one metric (0 wall, 1 CPU; CPU floored at a microsecond)."""
    return [math.log(max(m[metric], 1e-6) / max(t[metric], 1e-6)) for m, t in zip(mine, theirs, strict=True)]


def over_layouts(per_layout: list[list[float]]) -> tuple[float, float, float]:
    """A ratio over layouts: each layout's mean log ratio is one observation, so the interval (t on K-1 degrees
    of freedom) holds how much the ratio moves with placement, not only how well each layout was timed."""
    return interval([statistics.mean(logs) for logs in per_layout])


def spread_over_layouts(per_layout: list[list[Run]], metric: int) -> float:
    """How much placement alone moves one side: the sd over layouts of its mean log time, as a fraction."""
    return statistics.stdev(statistics.mean(math.log(max(r[metric], 1e-6)) for r in runs) for runs in per_layout)


def cpu_share(runs: list[Run]) -> str:
    """The median run's CPU share, (user + system) / wall: about 1.00 when nothing else ran beside it (a run
    that waited for the CPU has less, and its wall time is not its own)."""
    return f"{statistics.median(c / w for w, c in runs if w > 0):.2f}"


def per_unit(side: list[Run], units: float | None) -> str:
    """A side's median wall time per unit (or per run, without a unit count)."""
    med = statistics.median(w for w, _ in side)
    return f"{med / units * 1e9:.3f} ns" if units else f"{med * 1e3:.1f} ms/run"


def shell(command: str) -> list[str]:
    return ["/bin/sh", "-c", "exec " + command]


def time_pairs(ours: list[str], original: list[str], pairs: int, warmup: int) -> tuple[list[Run], list[Run]]:
    """PAIRS alternating pairs of one build of each side."""
    for _ in range(warmup):
        run(ours), run(original)
    mine: list[Run] = []
    theirs: list[Run] = []
    for i in range(pairs):
        if i % 2 == 0:
            mine.append(run(ours))
            theirs.append(run(original))
        else:
            theirs.append(run(original))
            mine.append(run(ours))
    return mine, theirs


def time_layouts(row: dict[str, str], layouts: int, pairs: int, warmup: int, rng: random.Random) -> list[tuple[list[Run], list[Run]]]:
    """PAIRS rounds of one pair per layout, the layouts shuffled anew each round (a slow stretch of the machine
    falls on several layouts, not on one); a layout's pairs alternate which side goes first."""
    ours = [shell(row["ours"].replace(PLACEHOLDER, str(k))) for k in range(1, layouts + 1)]
    original = [shell(row["original"].replace(PLACEHOLDER, str(k))) for k in range(1, layouts + 1)]
    for k in range(layouts):
        for _ in range(warmup):
            run(ours[k]), run(original[k])
    timed: list[tuple[list[Run], list[Run]]] = [([], []) for _ in range(layouts)]
    for i in range(pairs):
        order = list(range(layouts))
        rng.shuffle(order)
        for k in order:
            mine, theirs = timed[k]
            if (i + k) % 2 == 0:
                mine.append(run(ours[k]))
                theirs.append(run(original[k]))
            else:
                theirs.append(run(original[k]))
                mine.append(run(ours[k]))
    return timed


def fmt_ratio(r: tuple[float, float, float]) -> str:
    return f"{r[0]:.3f} [{r[1]:.3f}-{r[2]:.3f}]"


def read_rows(a: argparse.Namespace) -> list[dict[str, str]]:
    """The table's rows, or a one-line error for a table or options that cannot be timed."""
    try:
        rows = list(csv.DictReader(a.table.open(), delimiter="\t"))
    except OSError as e:
        sys.exit(f"pair_timer: cannot read {a.table}: {e.strerror}")
    if not rows or not {"label", "ours", "original"} <= set(rows[0]):
        sys.exit(f"pair_timer: {a.table}: expected a header with label, ours, original (and units)")
    if a.pairs < 2:
        sys.exit("pair_timer: --pairs must be at least 2 (an interval needs two)")
    for row in rows:
        if PLACEHOLDER in row["ours"] + row["original"] and a.layouts < 2:
            sys.exit(f"pair_timer: row {row['label']!r} names {PLACEHOLDER}: give --layouts K (at least 2)")
    return rows


def time_row(row: dict[str, str], a: argparse.Namespace, rng: random.Random) -> tuple[str, list[str]]:
    """One row timed: its result line, and with layouts one line per layout."""
    units = float(row.get("units") or 0) or None
    if PLACEHOLDER not in row["ours"] + row["original"]:
        mine, theirs = time_pairs(shell(row["ours"]), shell(row["original"]), a.pairs, a.warmup)
        wall, cpu = interval(log_ratios(mine, theirs, 0)), interval(log_ratios(mine, theirs, 1))
        return (
            f"{row['label']}\t{a.pairs}\t{fmt_ratio(wall)}\t{fmt_ratio(cpu)}\t{per_unit(mine, units)}\t{per_unit(theirs, units)}"
            f"\t1\t-\t-\t{cpu_share(mine + theirs)}"
        ), []
    timed = time_layouts(row, a.layouts, a.pairs, a.warmup, rng)
    wall = over_layouts([log_ratios(m, t, 0) for m, t in timed])
    cpu = over_layouts([log_ratios(m, t, 1) for m, t in timed])
    each = [interval(log_ratios(m, t, 1)) for m, t in timed]
    ours_sd = spread_over_layouts([m for m, _ in timed], 1)
    orig_sd = spread_over_layouts([t for _, t in timed], 1)
    mine = [r for m, _ in timed for r in m]
    theirs = [r for _, t in timed for r in t]
    line = (
        f"{row['label']}\t{a.pairs} x {a.layouts}\t{fmt_ratio(wall)}\t{fmt_ratio(cpu)}"
        f"\t{per_unit(mine, units)}\t{per_unit(theirs, units)}\t{a.layouts}"
        f"\t{ours_sd:.1%} / {orig_sd:.1%}\t{min(e[0] for e in each):.3f}-{max(e[0] for e in each):.3f}\t{cpu_share(mine + theirs)}"
    )
    per_layout = [
        f"{row['label']}\t{k}\t{a.pairs}\t{fmt_ratio(e)}\t{per_unit(m, units)}\t{per_unit(t, units)}"
        for k, ((m, t), e) in enumerate(zip(timed, each, strict=True), 1)
    ]
    return line, per_layout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("table", type=Path)
    ap.add_argument("--pairs", type=int, default=15, help="pairs a row (with --layouts: pairs a layout)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs of each side first (of each layout's)")
    ap.add_argument("--layouts", type=int, default=0, help=f"builds of each side a {PLACEHOLDER} row names (1..K)")
    ap.add_argument("--seed", type=int, default=1, help="the layouts' order in each round")
    ap.add_argument("--per-layout", type=Path, help="write each layout's ratio here")
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    rows = read_rows(a)
    header = (
        "label\tpairs\twall ratio [95%]\tcpu ratio [95%]\tours per unit\toriginal per unit"
        "\tlayouts\tsd over layouts, ours / original (cpu)\tlayouts' cpu ratios, min-max\tmedian CPU share"
    )
    lines, layout_lines = [header], ["label\tlayout\tpairs\tcpu ratio [95%]\tours per unit\toriginal per unit"]
    print(header, flush=True)
    rng = random.Random(a.seed)
    for row in rows:
        line, per_layout = time_row(row, a, rng)
        lines.append(line)
        layout_lines += per_layout
        print(line, flush=True)
    if a.out:
        a.out.write_text("\n".join(lines) + "\n")
    if a.per_layout:
        a.per_layout.write_text("\n".join(layout_lines) + "\n")


if __name__ == "__main__":
    main()
