"""Hand-built sessions for the fast tier: no toolchain, no subprocess, every number known in advance
(hyperfine's export tests do the same with a hand-made BenchmarkResult)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from iorace.core import machine
from iorace.store.db import CellData, SessionData, Store
from iorace.store.run import Run

MS = 1_000_000  # ns


def run(
    wall_ms: float,
    inner_ms: float | None = None,
    phase: str = "measure",
    round_no: int = 0,
    rss_kb: int = 2048,
    user_ms: float | None = None,
    sys_ms: float = 0.0,
) -> Run:
    user = wall_ms * 0.9 if user_ms is None else user_ms
    return Run(
        phase=phase,
        round=round_no,
        wall_ns=int(wall_ms * MS),
        user_ns=int(user * MS),
        sys_ns=int(sys_ms * MS),
        max_rss_kb=rss_kb,
        minflt=100,
        majflt=0,
        nvcsw=1,
        nivcsw=2,
        inner_ns=None if inner_ms is None else int(inner_ms * MS),
        exit_code=0,
    )


def cell(
    variant: str,
    language: str = "c",
    toolchain: str = "gcc",
    *,
    inner: list[float] | None = None,
    wall: list[float] | None = None,
    kind: str = "variant",
    status: str = "ok",
    params: dict | None = None,
    units: dict | None = None,
    profile: str = "release",
    instructions: int | None = None,
    extra: dict | None = None,
    detail: str = "",
    suite: str = "toy",
    dataset: str = "tiny",
    cell_id: int = 0,
    metric: str = "inner",
) -> CellData:
    """One cell whose measured runs have the given inner (or wall) times in ms; wall defaults to inner + 1."""
    wall = wall if wall is not None else [t + 1 for t in (inner or [])]
    runs = [run(w, i, round_no=n) for n, (w, i) in enumerate(zip(wall, inner or [None] * len(wall), strict=True))]
    if status != "ok":
        runs = []
    return CellData(
        id=cell_id,
        suite=suite,
        title="A toy job",
        metric=metric,
        dataset=dataset,
        dataset_sha256="ab" * 32,
        input_path="/data/tiny",
        params=params or {"mode": "count"},
        variant=variant,
        language=language,
        kind=kind,
        description=f"{variant} strategy",
        toolchain=toolchain,
        toolchain_version=f"{toolchain} 1.0",
        profile=profile,
        build_key="k",
        command=[f"/cache/{variant}/prog", "/data/tiny", "count"],
        status=status,
        detail=detail,
        answer=1000 if status == "ok" else None,
        expected=1000,
        units=units or {"bytes": 1000},
        known_wrong=False,
        instructions=instructions,
        extra=extra or {},
        runs=runs,
    )


def session(
    cells: list[CellData],
    suites: dict | None = None,
    options: dict | None = None,
    *,
    sid: int = 7,
    git: str = "abc123",
    started: str = "2026-11-22T08:00:00+00:00",
    machine_name: str = "toy-box",
    facts: dict | None = None,
    toolchains: dict | None = None,
) -> SessionData:
    """facts: the machine's facts that differ from the toy machine's (cpu_model, cores, kernel, ...)."""
    for i, c in enumerate(cells):
        c.id = i + 1
    facts = {"cpu_model": "Toy CPU", "cores": 2, "kernel": "6.1", **(facts or {})}
    toolchains = toolchains or {"gcc": "gcc 12.2", "clang": "clang 14"}
    context = machine.context(facts, toolchains)
    return SessionData(
        id=sid,
        started=started,
        finished=started,
        status="done",
        command_line="iorace run toy",
        options=options or {"runs": 5, "sink": "null"},
        machine=facts,
        toolchains=toolchains,
        git_revision=git,
        iorace_version="0.1.0",
        cells=cells,
        suites=suites or {},
        machine_name=machine_name,
        machine_fingerprint=machine.fingerprint(facts),
        machine_context=context,
        context_fingerprint=machine.context_fingerprint(context),
    )


def save(db_path: Path, s: SessionData) -> int:
    """Store a hand-built session in a real database (the store's own tables and records), for the commands
    that read one (`compare`, `history`, `report`); returns its new id."""
    store = Store(db_path)
    sid = store.add_session(s)
    store.db.close()
    return sid


def toy_session() -> SessionData:
    """Four cells of one group (a fast and a slow gcc cell, a clang cell, a limit row) and a wrong one."""
    return session(
        [
            cell("fast", inner=[10, 10, 11, 10, 10], instructions=4000),
            cell("slow", inner=[30, 31, 30, 29, 30], instructions=12000, extra={"alloc_bytes_per_op": 48}),
            cell("fast", toolchain="clang", inner=[20, 20, 21, 20, 19], instructions=7000),
            cell("simd", kind="limit", inner=[2, 2, 2, 2, 2], instructions=500),
            cell("broken", status="wrong", detail="answered 1001, expected 1000"),
        ],
        suites={"toy": {"baseline_languages": ["c"], "scale_params": [], "throughput": "bytes", "same_language_reference": None}},
    )


def demo_cell(variant: str, times: list[float] | None = None, **kw: Any) -> CellData:
    """A cell of the `demo` suite whose runs took `times` seconds (inner)."""
    kw.setdefault("suite", "demo")
    kw.setdefault("params", {"passes": 1})
    return cell(variant, inner=[t * 1000 for t in times] if times else None, **kw)


def mixed_session() -> SessionData:
    """One cell of each outcome: timed (several runs, one run), wrong, failed, skipped, timed out: what the
    exports must tell apart."""
    return session(
        [
            demo_cell("fast", [0.010, 0.011, 0.012, 0.010]),
            demo_cell("slow", [0.020, 0.022, 0.021, 0.020]),
            demo_cell("once", [0.015]),
            demo_cell("wrong", status="wrong", detail="answered 1001, expected 1000"),
            demo_cell("crash", status="failed", detail="killed by SIGSEGV"),
            demo_cell("dmd", status="skipped", detail="dmd not found", toolchain="dmd", language="d"),
            demo_cell("slowpoke", status="timeout", detail="timed out after 1 s"),
        ]
    )
