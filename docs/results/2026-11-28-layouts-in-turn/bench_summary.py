"""What a make bench session over code layouts says of its own intervals: each A/A cell's ratio to its reference
(with layouts of its own, it must cover 1.00), how many cells were flagged placement-sensitive, how far each
cell's layouts spread and where its as-linked build lies among them, and the 95% half-width of each table's 2nd
and 3rd fastest ratios (the wide ones listed). usage: bench_summary.py SESSION.json"""

from __future__ import annotations

import collections
import json
import statistics
import sys

from iorace.analyse.stats import layout_clusters, paired_ratio
from iorace.core.gzfile import read_text


def main(path: str) -> None:
    doc = json.loads(read_text(path))  # plain or gzipped
    results = doc["results"]
    print(f"# {path}: {len(results)} timed cells, {sum(1 for r in results if r['layout_names'])} over layouts")
    _placement(results)
    _aa(results)
    _top(results)


def _placement(results: list[dict]) -> None:
    sensitive = [r["label"] for r in results if r.get("placement") and r["placement"]["sensitive"]]
    print(f"placement-sensitive cells: {len(sensitive)}")
    for label in sensitive:
        print(f"  sensitive\t{label}")
    placed = [r["placement"] for r in results if r.get("placement")]
    judged = [p for p in placed if p["p_value"] is not None]  # two runs or more in a layout: a spread to judge
    if judged:
        spreads = sorted(p["spread"] for p in judged)
        print(
            f"spread over layouts (slowest layout's mean over the fastest's), cells judged: {len(judged)} of {len(placed)}, "
            f"median {statistics.median(spreads):.1%}, over 5%: {sum(x > 0.05 for x in spreads)}, over 20%: {sum(x > 0.2 for x in spreads)}"
        )
        linked = sorted(p["as_linked"] for p in placed if p.get("as_linked") is not None)
        if linked:
            off = sorted(abs(x - 1) for x in linked)
            print(
                f"as-linked build over its layouts' mean: {len(linked)} cells, median |off| {statistics.median(off):.1%}, "
                f"range {linked[0]:.3f}-{linked[-1]:.3f}, more than 5% off: {sum(x > 0.05 for x in off)}"
            )


def _aa(results: list[dict]) -> None:
    """Each A/A twin against its own original (the same program), paired by round over their pairs of layouts, as
    the report judges it (stats.layout_clusters): the export's own ratio of a twin is to its table's fastest cell,
    which need not be its original."""
    by_label = {r["label"]: r for r in results}
    aa = [r for r in results if r["kind"] == "control" and r["label"].replace("~aa@", "@", 1) in by_label]
    covered = 0
    lines = []
    for r in aa:
        o = by_label[r["label"].replace("~aa@", "@", 1)]
        ratio = paired_ratio(_costs(r), _costs(o), clusters=layout_clusters(_layouts(r), _layouts(o)))
        if ratio is None or ratio.low is None or ratio.high is None:
            continue
        ok = ratio.low <= 1.0 <= ratio.high
        covered += ok
        lines.append(
            f"  A/A\t{r['suite']}\t{r['label']}\t{ratio.value:.3f}\t[{ratio.low:.3f}-{ratio.high:.3f}]\t{'covers' if ok else 'MISSES'}"
        )
    print(f"A/A cells covering 1.00 (each twin against its original): {covered} of {len(lines)}")
    print("\n".join(lines))


def _metric_times(r: dict) -> list[float]:
    return r[{"inner": "inner_times", "cpu": "cpu_times"}.get(r.get("metric") or "wall", "times")]


def _costs(r: dict) -> dict[int, float]:
    return dict(zip(r["rounds"], _metric_times(r), strict=True))


def _layouts(r: dict) -> dict[int, int | None]:
    return dict(zip(r["rounds"], r["layouts"], strict=True))


def _top(results: list[dict]) -> None:
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
    for (suite, _, _), rows in sorted(tables.items()):
        for r in rows[1:3]:
            if r["ratio_ci95"] and (r["ratio_ci95"][1] - r["ratio_ci95"][0]) / 2 / r["ratio"] > 0.10:
                lo, hi = r["ratio_ci95"]
                print(f"  wide\t{suite}\t{r['label']}\t{r['ratio']:.3f}\t[{lo:.3f}-{hi:.3f}]\t{len(r['times'])} runs")


if __name__ == "__main__":
    main(sys.argv[1])
