"""The names of the counters a cell's extra runs record ("SOURCE:EVENT", the keys of Cell.counters and of the
counters table), and what is derived from them: shared by the pipeline that counts and the tables that show."""

from __future__ import annotations

from collections.abc import Mapping

CG_BRANCHES, CG_BRANCH_MISSES = "cachegrind:branches", "cachegrind:branch-misses"


def perf_key(event: str) -> str:
    return f"perf:{event}"


def ipc(counters: Mapping[str, float | None]) -> float | None:
    """Instructions per cycle from perf's counts, when both were counted."""
    ins, cyc = counters.get(perf_key("instructions")), counters.get(perf_key("cycles"))
    return ins / cyc if ins and cyc else None
