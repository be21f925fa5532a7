"""hyperfine's JSON schema (results[] with command, mean, stddev, median, user, system, min, max, times,
memory_usage_byte, exit_codes, parameters; times in seconds), plus iorace's own fields per result.

hyperfine's own scripts (scripts/advanced_statistics.py, plot_whisker.py, plot_histogram.py, ...) read
`results` and take every entry's `times` as a non-empty list of numbers: a cell that was never timed
(wrong, failed, skipped, --check-only) would break them. So `results` holds only the cells timed to the
end, and every other cell, with the same fields, goes to the top-level `iorace_unmeasured` list, where
hyperfine's tools do not look.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path

from iorace.analyse.analysis import NS, Row, ThenNowTable
from iorace.analyse.leaders import LeaderTable
from iorace.analyse.placement import Placement
from iorace.analyse.stats import NO_LEVEL, Level
from iorace.report.document import Report
from iorace.store.db import SessionData


def _stat(values: list[float], fn: Callable[[list[float]], float]) -> float | None:
    return fn(values) if values else None


def measured(row: Row) -> bool:
    """Timed to the end: hyperfine's tools can read it (times non-empty, every statistic a number)."""
    return row.ok and bool(row.cell.measured()) and row.wall is not None


def result(row: Row, scale_params: list[str] | None = None, level: Level = NO_LEVEL) -> dict:
    c = row.cell
    runs = c.measured()
    times = [r.wall_ns / NS for r in runs]
    user = [r.user_ns / NS for r in runs]
    system = [r.sys_ns / NS for r in runs]
    return {
        # hyperfine's fields (wall-clock times of the whole process, in seconds)
        "command": shlex.join(c.command) if c.command else c.label,
        "mean": row.wall.mean if row.wall else None,
        "stddev": row.wall.stddev if row.wall and row.wall.n > 1 else None,  # hyperfine: null for one run
        "median": row.wall.median if row.wall else None,
        "user": _stat(user, lambda v: sum(v) / len(v)),
        "system": _stat(system, lambda v: sum(v) / len(v)),
        "min": row.wall.min if row.wall else None,
        "max": row.wall.max if row.wall else None,
        "times": times,
        "memory_usage_byte": [r.max_rss_kb * 1024 for r in runs],
        "exit_codes": [r.exit_code for r in runs],
        # iorace's: how much of each timed run the program ran, and the runs that waited for the CPU instead
        "cpu_shares": [r.cpu_share for r in runs],
        "cpu_times": [r.cpu_ns / NS for r in runs],  # user + system of each timed run: what --metric cpu compares
        "rounds": [r.round for r in runs],  # each timed run's round: what pairs runs (a displaced run's round has none)
        "displaced_runs": sum(r.phase == "displaced" for r in c.runs),
        "parameters": {k: str(v) for k, v in c.params.items()},
        # those of its parameters that only scale its work (passes; what --target-ms sizes): a cell compared
        # across sessions is the same cell whatever they were, since it is compared per unit of work
        "scale_parameters": [k for k in scale_params or [] if k in c.params],
        # iorace's fields
        "suite": c.suite,
        "dataset": c.dataset,
        "dataset_sha256": c.dataset_sha256,
        "variant": c.variant,
        "language": c.language,
        "kind": c.kind,
        "description": c.description,
        "toolchain": c.toolchain,
        "toolchain_version": c.toolchain_version,
        "profile": c.profile,
        "label": c.label,
        "status": c.status,
        "detail": c.detail,
        "known_wrong": c.known_wrong,
        "answer": c.answer,
        "expected": c.expected,
        "metric": row.metric,
        "inner_times": [r.inner_ns / NS for r in runs if r.inner_ns is not None],
        "inner_median": row.inner.median if row.inner else None,
        "ratio": row.vs_fastest.value if row.vs_fastest else None,
        "ratio_ci95": [row.vs_fastest.low, row.vs_fastest.high] if row.vs_fastest and row.vs_fastest.low is not None else None,
        # the interval's two parts: the standard error of ln(ratio) from this session's rounds, and the sd of ln(ratio)
        # from one session to the next on this machine (ratio_between), which compare adds for a repeat: its suite's
        # level, fitted on earlier sessions (0: not known), an sd for every ratio of the suite or, fitted on every
        # suite, a multiple of each ratio's own per-round sd (analyse/session_spread.py)
        "ratio_se_log": row.vs_fastest.se_log if row.vs_fastest else None,
        "ratio_between": row.vs_fastest.between if row.vs_fastest else None,
        "session_sd": level.sd,
        "session_sd_per_round": level.per_round,
        # the places its interval allows among the table's ranked cells ([1, 3]: first to third), and whether that
        # is a range, a tie the intervals cannot break (analysis.Place); null for a cell that is not ranked
        "place": [row.place.best, row.place.worst] if row.place is not None else None,
        "tied": row.place.tied if row.place is not None else None,
        "ratio_to_limit": row.vs_limit,
        "ratio_to_language_reference": row.vs_language_ref,
        "ratio_to_best_peer": row.vs_peer,
        "noisy": row.noisy,
        "units_per_run": c.units,
        "instructions": c.instructions,
        "instructions_ratio": row.instructions_ratio,
        "estimated_cycles": c.estimated_cycles,
        # figures reported beside the answer: the program's own (its result line's "extra") and what the harness
        # measured of its output (run/encoded.py: bytes, zlib, zstd of what it encodes)
        "extra": dict(c.extra),
        # its code layouts (a run's entry in "layouts" indexes layout_names; null: the as-linked build) and how
        # much they alone move it (analyse/placement.py)
        "layout_names": list(c.layout_names),
        "layout_note": c.layout_note,
        "placement": _placement(row.placement),
        # the CPUs its runs were confined to (its suite's [one_cpu]; []: any) and why
        "cpus": list(c.cpus),
        "cpus_note": c.cpus_note,
        "page_faults": [r.minflt + r.majflt for r in runs],
        "context_switches": [r.nvcsw + r.nivcsw for r in runs],
        # every other Run field declared with json="NAME" (runner.Run; none of today's): its value per run
        **{name: [getattr(r, f) for r in runs] for f, name in c.json_fields().items()},
    }


def _placement(p: Placement | None) -> dict | None:
    if p is None:
        return None
    return {
        "layouts": p.layouts,
        "spread": p.spread,
        "fastest_layout": p.fastest,
        "slowest_layout": p.slowest,
        "p_value": p.p_value,
        "sensitive": p.sensitive,
        "as_linked": p.as_linked,  # the as-linked build's mean over the layouts' (null: it was not among them)
    }


def session_fields(session: SessionData) -> dict:
    """The session as the JSON exports carry it (their "iorace" key)."""
    return {
        "session": session.id,
        "started": session.started,
        "finished": session.finished,
        "status": session.status,
        "command_line": session.command_line,
        "options": session.options,
        "machine": session.machine,
        "machine_name": session.machine_name,
        "machine_fingerprint": session.machine_fingerprint,
        "toolchains": session.toolchains,
        "git_revision": session.git_revision,
        "version": session.iorace_version,
    }


def document(report: Report) -> dict:
    session = report.session
    rows = [(r, g.scale_params, g.session_level) for g in report.groups for r in g.rows]
    return {
        "results": [result(r, scaling, level) for r, scaling, level in rows if measured(r)],
        "iorace_unmeasured": [result(r, scaling, level) for r, scaling, level in rows if not measured(r)],
        "iorace": {**session_fields(session), "contention": report.contention.as_dict()},
        # each seed's published table beside this session (the report's overview), row by row
        "iorace_seeds": [seed(s.source) for s in report.of_kind("overview") if isinstance(s.source, ThenNowTable)],
        # each suite's best cell per language and toolchain over its tables (the overview's second part)
        "iorace_leaders": [leaders(s.source) for s in report.of_kind("leaders") if isinstance(s.source, LeaderTable)],
    }


def leaders(t: LeaderTable) -> dict:
    return {
        "suite": t.suite,
        "tables": t.tables,
        "rows": [
            {
                "language": r.language,
                "toolchain": r.toolchain,
                "best_cells": dict(r.variants.most_common()),
                "ratio_geomean": r.geomean,
                "ratios": r.ratios,
                "tables_won": r.won,
            }
            for r in t.rows
        ],
    }


def seed(t: ThenNowTable) -> dict:
    """A seed's then-and-now table: per seed row, its cell here, today's median and ratio (with its 95%
    interval) and the seed's figure and ratio, both to the row's baseline row, or why it has no time."""
    return {
        "seed": t.seed,
        "suite": t.suite,
        "dataset": t.dataset,
        "metric": t.metric,
        "figures": t.figures,
        "rows_left_out": t.left_out,
        "rows": [
            {
                "label": r.label,
                "cell": r.cell or None,
                "status": r.row.cell.status if r.row is not None else "not run",
                "now_median": r.row.cost if r.row is not None and r.row.ok else None,
                "now_ratio": r.now.value if r.now else None,
                "now_ratio_ci95": [r.now.low, r.now.high] if r.now and r.now.low is not None else None,
                "then_seconds": r.then_seconds,
                "then_ratio": r.then,
                "baseline": r.baseline,
                "why": r.why or None,
                "note": r.note or None,  # how the cell departs from the seed's program, or that it is as written
                "instructions_per_unit": r.instructions_per_unit,
                "original_instructions_per_unit": r.original,  # the seed's own program's, counted here or published
                "folded": r.folded,  # today's compiler folded the loop: it no longer does the work
            }
            for r in t.rows
        ],
    }


def write_json(report: Report, path: Path) -> None:
    path.write_text(json.dumps(document(report), indent=2) + "\n")
