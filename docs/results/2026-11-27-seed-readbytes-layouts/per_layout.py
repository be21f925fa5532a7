"""Each C++ cell's runs in one `iorace seeds readbytes` session over code layouts, by layout: every run's inner time
relative to the geometric mean of the other cells of its table in the same round (as analyse/placement.py takes
them), the median per layout, and the slowest layout's median over the fastest's.
usage: per_layout.py SESSION.json [SESSION.json ...]"""

from __future__ import annotations

import collections
import gzip
import json
import math
import statistics
import sys


def main(paths: list[str]) -> None:
    for path in paths:
        with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:  # X.json.gz too
            doc = json.load(f)
        cells = [r for r in doc["results"] if r["language"] == "cpp" and r["layout_names"]]
        tables = collections.defaultdict(list)
        for r in cells:
            tables[r["parameters"].get("mode")].append(r)
        print(f"# {path}")
        for r in sorted(cells, key=lambda r: (r["parameters"].get("mode", ""), r["variant"], r["toolchain"])):
            rounds = collections.defaultdict(list)
            for other in tables[r["parameters"].get("mode")]:
                if other is not r:
                    for k, t in zip(other["rounds"], other["inner_times"], strict=False):
                        rounds[k].append(math.log(t))
            by = collections.defaultdict(list)
            for k, t, layout in zip(r["rounds"], r["inner_times"], r["layouts"], strict=False):
                if rounds[k] and layout is not None:
                    by[r["layout_names"][layout]].append(math.exp(math.log(t) - statistics.fmean(rounds[k])))
            medians = {n: statistics.median(v) for n, v in by.items()}
            if len(medians) < 2:
                continue
            cols = "  ".join(f"{n} {medians[n]:.2f}" for n in r["layout_names"] if n in medians)
            spread = max(medians.values()) / min(medians.values())
            mode = r["parameters"].get("mode")
            print(f"{r['variant']:28} {r['toolchain']:8} {mode:6} slowest/fastest {spread:.2f}  {cols}")


if __name__ == "__main__":
    main(sys.argv[1:])
