"""hyperfine 2.0's JSON schema, version 2 (`--export-json` of hyperfine 2.0), which its scripts now require;
the version-1 layout stays in json_export.py.

The layout is hyperfine 2.0's own, as its binary writes it (`schema_version`, `metadata`, `primary_metric`,
and per result `command`, `name`, `measurements`, `parameters`, `summary`): every measurement is a run with
one `{"value", "unit"}` per metric in base units (seconds, bytes) and its `exit_code`; `summary` holds per
metric `unit`, `count`, `mean`, `stddev` (null for one run), `median`, `min`, `max`. hyperfine's scripts
(plot_utils.load_results, advanced_statistics.py, welch_ttest.py, plot_*.py) take the metric from
`primary_metric`, refuse a result whose `summary` lacks it, and read `m[metric]["value"]` of every
measurement, so `results` holds only the cells timed to the end, as in version 1, and every other cell is
listed in `iorace_unmeasured` with its status and why.

iorace adds what hyperfine does not measure beside its metrics, under names of its own: the program's own
timing of its work, `iorace_time_inner`, per run and in the summary, where the program reports one (the
scripts offer only hyperfine's metrics and never read it), an `iorace` block per result (suite, dataset,
cell, status, the metric iorace compares) and one for the session.
"""

from __future__ import annotations

import json
import shlex
from datetime import UTC, datetime
from pathlib import Path

from iorace.analyse.analysis import NS, Row
from iorace.analyse.stats import Summary, summarize
from iorace.export.json_export import measured, session_fields
from iorace.report.document import Report
from iorace.run.launcher import Run
from iorace.store.db import CellData

SCHEMA_VERSION = 2
PRIMARY_METRIC = "time_wall_clock"  # hyperfine's: what its scripts analyse unless told --metric
INNER = "iorace_time_inner"
UNITS = {
    "time_wall_clock": "second",
    "time_cpu": "second",
    "time_user": "second",
    "time_system": "second",
    "memory_peak_resident": "byte",
    INNER: "second",
}


def cell_name(c: CellData) -> str:
    """The result's name (what hyperfine's scripts label a plot with): the cell as the report's problems name it."""
    return f"{c.suite} {c.dataset} {c.label}"


def _measurement(r: Run, inner: bool) -> dict:
    m = {
        "time_wall_clock": r.wall_ns / NS,
        "time_cpu": (r.user_ns + r.sys_ns) / NS,
        "time_user": r.user_ns / NS,
        "time_system": r.sys_ns / NS,
        "memory_peak_resident": float(r.max_rss_kb * 1024),
    }
    if inner and r.inner_ns is not None:
        m[INNER] = r.inner_ns / NS
    out: dict = {metric: {"value": value, "unit": UNITS[metric]} for metric, value in m.items()}
    out["exit_code"] = r.exit_code
    return out


def _summary(s: Summary, unit: str) -> dict:
    return {
        "unit": unit,
        "count": s.n,
        "mean": s.mean,
        "stddev": s.stddev if s.n > 1 else None,  # hyperfine: null for one run
        "median": s.median,
        "min": s.min,
        "max": s.max,
    }


def result(row: Row) -> dict:
    """One cell timed to the end, in hyperfine 2.0's layout. Wall, user, system and inner time are the
    report's own summaries of the row; CPU time and peak memory are summarised the same way (stats.summarize)."""
    c = row.cell
    runs = c.measured()
    inner = all(r.inner_ns is not None for r in runs)  # a metric is in every measurement or in none
    measurements = [_measurement(r, inner) for r in runs]
    summaries: dict[str, Summary | None] = {
        "time_wall_clock": row.wall,
        "time_cpu": summarize([m["time_cpu"]["value"] for m in measurements]),
        "time_user": row.user,
        "time_system": row.system,
        "memory_peak_resident": summarize([m["memory_peak_resident"]["value"] for m in measurements]),
        INNER: row.inner if inner else None,
    }
    out: dict = {"command": shlex.join(c.command) if c.command else c.label, "name": cell_name(c), "measurements": measurements}
    if c.params:
        out["parameters"] = {k: {"value": str(v)} for k, v in c.params.items()}
    out["summary"] = {metric: _summary(s, UNITS[metric]) for metric, s in sorted(summaries.items()) if s is not None}
    out["iorace"] = _cell_fields(row)
    return out


def _cell_fields(row: Row) -> dict:
    c = row.cell
    return {
        "suite": c.suite,
        "dataset": c.dataset,
        "label": c.label,
        "language": c.language,
        "variant": c.variant,
        "toolchain": c.toolchain,
        "profile": c.profile,
        "kind": c.kind,
        "status": c.status,
        "detail": c.detail,
        "metric": row.metric,  # what iorace compares: "inner" (iorace_time_inner) or "wall" (time_wall_clock)
    }


def _utc(started: str) -> str:
    """hyperfine's start_time form (2026-11-23T20:01:40Z) of the session's ISO time."""
    try:
        return datetime.fromisoformat(started).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return started


def document(report: Report) -> dict:
    session = report.session
    rows = [r for g in report.groups for r in g.rows]
    return {
        "schema_version": SCHEMA_VERSION,
        "metadata": {"start_time": _utc(session.started)},  # hyperfine adds its version and platform; iorace's are below
        "primary_metric": PRIMARY_METRIC,
        "results": [result(r) for r in rows if measured(r)],
        "iorace_unmeasured": [
            {
                "command": shlex.join(r.cell.command) if r.cell.command else r.cell.label,
                "name": cell_name(r.cell),
                "iorace": _cell_fields(r),
            }
            for r in rows
            if not measured(r)
        ],
        "iorace": {**session_fields(session), "contention": report.contention.as_dict()},
    }


def write_hyperfine2(report: Report, path: Path) -> None:
    path.write_text(json.dumps(document(report), indent=2) + "\n")
