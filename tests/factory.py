"""Hand-built sessions for fast tests of reports, exports and comparisons: no toolchain, no CLI run.

`cell(...)` and `session(...)` make the dataclasses the store loads; `save(db, session)` writes one into a
real SQLite database through the store's own schema, so `iorace compare` / `history` / `report` can read it.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import fields
from pathlib import Path

from iorace.store import CellData, RunData, SessionData, Store

NS = 1_000_000_000


def runs(times: list[float], inner: bool = True, phase: str = "measure") -> list[RunData]:
    """One measured run per time (seconds): the wall time is the inner time plus 1 ms of start-up."""
    return [RunData(phase=phase, round=i, wall_ns=int((t + 0.001) * NS), user_ns=int(t * NS * 0.9),
                    sys_ns=int(t * NS * 0.1), max_rss_kb=2048, minflt=100, majflt=0, nvcsw=1, nivcsw=2,
                    inner_ns=int(t * NS) if inner else None, exit_code=0) for i, t in enumerate(times)]


def cell(variant: str = "a", times: list[float] | None = None, *, language: str = "c", toolchain: str = "gcc",
         profile: str = "release", status: str = "ok", detail: str = "", suite: str = "demo",
         dataset: str = "tiny", params: dict | None = None, kind: str = "variant", metric: str = "inner",
         instructions: int | None = None, cell_id: int = 0) -> CellData:
    times = [] if times is None else times
    c = CellData(id=cell_id, suite=suite, title="A demo job", metric=metric, dataset=dataset, dataset_sha256="0" * 64,
                 input_path="/tmp/in", params=dict(params or {"passes": 1}), variant=variant, language=language,
                 kind=kind, description=f"{variant} strategy", toolchain=toolchain, toolchain_version=f"{toolchain} 1.0",
                 profile=profile, build_key="k", command=[f"/cache/{variant}/prog", "/tmp/in", "1"], status=status,
                 detail=detail, answer=1000 if status == "ok" else None, expected=1000,
                 units={"bytes": 1000}, known_wrong=False, instructions=instructions)
    c.runs = runs(times) if status == "ok" else []
    return c


def session(cells: list[CellData], *, sid: int = 1, git: str = "1111111", started: str = "2026-11-22T07:00:00+00:00",
            command_line: str = "iorace run demo") -> SessionData:
    for i, c in enumerate(cells):
        c.id = c.id or i + 1
    return SessionData(id=sid, started=started, finished=started, status="done", command_line=command_line,
                       options={"runs": 5, "sink": "null"}, machine={"cpu_model": "Test CPU", "cores": 2},
                       toolchains={"gcc": "gcc 1.0"}, git_revision=git, iorace_version="0.1.0", cells=cells)


def _insert(db: sqlite3.Connection, table: str, values: dict) -> int:
    have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    values = {k: (json.dumps(v) if isinstance(v, (dict, list)) or (k in {"answer", "expected"} and v is not None)
                  else v) for k, v in values.items() if k in have}
    cur = db.execute(f"INSERT INTO {table} ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
                     tuple(int(v) if isinstance(v, bool) else v for v in values.values()))
    return cur.lastrowid


def save(db_path: Path, s: SessionData) -> int:
    """Store a hand-built session (through the store's schema); returns its new id."""
    Store(db_path).db.close()
    db = sqlite3.connect(db_path)
    sid = _insert(db, "sessions", {f.name: getattr(s, f.name) for f in fields(s) if f.name not in {"id", "cells"}})
    for c in s.cells:
        row = {f.name: getattr(c, f.name) for f in fields(c) if f.name not in {"id", "runs"}}
        cid = _insert(db, "cells", {**row, "session_id": sid})
        for r in c.runs:
            _insert(db, "runs", {**{f.name: getattr(r, f.name) for f in fields(r)}, "cell_id": cid, "round": r.round})
    db.commit()
    db.close()
    return sid
