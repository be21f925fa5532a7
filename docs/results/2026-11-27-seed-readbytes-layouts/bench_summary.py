"""What a make bench session over code layouts says of its own intervals: each A/A cell's ratio to its reference
(with layouts of its own, it must cover 1.00), how many cells were flagged placement-sensitive, and the 95%
half-width of each table's 2nd and 3rd fastest ratios. usage: bench_summary.py SESSION.json"""

from __future__ import annotations

import collections
import gzip
import json
import statistics
import sys


def main(path: str) -> None:
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:  # X.json.gz too
        doc = json.load(f)
    results = doc["results"]
    print(f"# {path}: {len(results)} timed cells, {sum(1 for r in results if r['layout_names'])} over layouts")
    sensitive = [r["label"] for r in results if r.get("placement") and r["placement"]["sensitive"]]
    print(f"placement-sensitive cells: {len(sensitive)}")
    aa = [r for r in results if r["kind"] == "control" and r["ratio_ci95"]]
    covered = [r for r in aa if r["ratio_ci95"][0] <= 1.0 <= r["ratio_ci95"][1]]
    print(f"A/A cells covering 1.00: {len(covered)} of {len(aa)}")
    for r in aa:
        lo, hi = r["ratio_ci95"]
        print(f"  A/A\t{r['suite']}\t{r['label']}\t{r['ratio']:.3f}\t[{lo:.3f}-{hi:.3f}]\t{'covers' if lo <= 1 <= hi else 'MISSES'}")
    tables = collections.defaultdict(list)
    for r in results:
        if r["kind"] in ("variant", "peer") and r["ratio"] is not None:
            params = {k: v for k, v in r["parameters"].items() if k not in r["scale_parameters"]}
            tables[(r["suite"], r["dataset"], json.dumps(params, sort_keys=True))].append(r)
    widths = []
    for (suite, _, _), rows in tables.items():
        rows.sort(key=lambda r: r["ratio"])
        widths += [((r["ratio_ci95"][1] - r["ratio_ci95"][0]) / 2 / r["ratio"], suite) for r in rows[1:3] if r["ratio_ci95"]]
    values = [w for w, _ in widths]
    wide = collections.Counter(s for w, s in widths if w > 0.10)
    median = statistics.median(values)
    print(f"tables: {len(tables)}; 2nd and 3rd fastest ratios: {len(values)}, median 95% half-width {median:.1%}")
    print(f"wider than 10%: {sum(wide.values())} {dict(wide)}")


if __name__ == "__main__":
    main(sys.argv[1])
