"""Bencher Metric Format (BMF) JSON, what Bencher's `json` adapter reads (`bencher run --adapter json --file F`):
`{benchmark name: {measure: {"value": v, "lower_value": lo, "upper_value": hi}}}`, lower and upper optional.

One benchmark per verified cell that was timed (status ok, runs measured), named as the report's problems name a
cell (`suite dataset lang/variant@toolchain:profile[params]`, stable between sessions), with one measure:
Bencher's built-in `latency`, in nanoseconds: the median of the cell's runs in the metric iorace compares (the
program's own timing where it has one, else the wall time). lower_value and upper_value are a 95% interval of
that median from the cell's own runs (one per round): the distribution-free, equal-tailed interval of
scipy's quantile test (two order statistics chosen by the binomial distribution, stats.median_interval), which
needs at least 6 runs; with fewer, the measure has its value alone. Failed, wrong, skipped and timed-out cells, and a
--check-only session's untimed cells, are not benchmarks at all: Bencher would keep a number for them.
"""

from __future__ import annotations

import json
from pathlib import Path

from iorace.analyse.stats import median_interval
from iorace.export.hyperfine2 import cell_name
from iorace.export.json_export import measured
from iorace.report.document import Report

MEASURE = "latency"  # Bencher's built-in Latency measure: nanoseconds


def ns(seconds: float) -> float:
    return round(seconds * 1e9, 3)  # the runs were timed in whole nanoseconds: the rest is float noise


def metrics(report: Report) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = {}
    for g in report.groups:
        for row in g.rows:
            if not measured(row) or row.primary is None:
                continue
            metric = {"value": ns(row.primary.median)}
            if (interval := median_interval(row.primary_values())) is not None:
                metric["lower_value"], metric["upper_value"] = ns(interval[0]), ns(interval[1])
            out[cell_name(row.cell)] = {MEASURE: metric}
    return out


def write_bmf(report: Report, path: Path) -> None:
    path.write_text(json.dumps(metrics(report), indent=2, allow_nan=False) + "\n")
