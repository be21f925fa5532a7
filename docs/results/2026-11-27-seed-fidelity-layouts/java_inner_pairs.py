"""The Java seed rows by the programs' own times (frozen beside its result).

readbytes compares its cells on "inner" time, the program's own timing of its passes, as the seed's Java
programs print theirs ("Time for N bytes: MS"). A whole-process timer (tools/pair_timer.py) also counts the
JVM's start-up and what each program does around its loop: the harness's argument parsing and printf cost
our cells about 25-30 ms a run that the seed's programs do not spend, 7% of a 400 ms run. Here each row's
two commands run in alternating pairs (ours first, then the seed's first) and each pair's ratio is of the two
programs' own times: ours from its `iorace-result` line's inner_ns, the seed's from its printed
milliseconds. Per row: the geometric mean ratio with a 95% t-interval over the pairs.

usage: python java_inner_pairs.py PAIRS.tsv [--pairs N]   (PAIRS.tsv as tools/pair_timer.py reads it)"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import statistics
import subprocess
import sys

from scipy import stats


def own_time(command: str) -> float:
    """The program's own time of its work, in seconds, from its output."""
    done = subprocess.run(["/bin/sh", "-c", "exec " + command], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"java_inner_pairs: {command} failed ({done.returncode})")
    for line in done.stderr.splitlines():
        if line.startswith("iorace-result "):
            return json.loads(line.removeprefix("iorace-result "))["inner_ns"] / 1e9
    found = re.search(r"Time for \d+ bytes: (\d+)", done.stdout)
    if found is None:
        sys.exit(f"java_inner_pairs: {command} printed no time")
    return int(found.group(1)) / 1e3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--pairs", type=int, default=20)
    a = ap.parse_args()
    print("label\tpairs\town-time ratio [95%]\tours median\toriginal median")
    with open(a.table) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for row in rows:
        own_time(row["ours"]), own_time(row["original"])  # warm-up: the page cache, the JVM's files
        mine, theirs = [], []
        for i in range(a.pairs):
            if i % 2 == 0:
                mine.append(own_time(row["ours"]))
                theirs.append(own_time(row["original"]))
            else:
                theirs.append(own_time(row["original"]))
                mine.append(own_time(row["ours"]))
        logs = [math.log(m / t) for m, t in zip(mine, theirs, strict=True)]
        m = statistics.mean(logs)
        hw = stats.t.ppf(0.975, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
        print(
            f"{row['label']}\t{a.pairs}\t{math.exp(m):.3f} [{math.exp(m - hw):.3f}-{math.exp(m + hw):.3f}]"
            f"\t{statistics.median(mine) * 1e3:.1f} ms\t{statistics.median(theirs) * 1e3:.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
