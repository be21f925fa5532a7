"""How `iorace machines`, `compare-machines` and `history` scale with a fleet (tools/fleet_scale.py): a
temporary SQLite store filled with MACHINES x SESSIONS synthetic sessions of readbytes-like cells (one
table of CELLS cells, ROUNDS rounds each; seeded), then each command's work timed in-process (what the
command computes and draws, without Python's start-up). The goal: within 2 s each.

usage: .venv/bin/python tools/fleet_scale.py [--machines 100] [--sessions 50] [--cells 10] [--rounds 10] [--db FILE]
  asserts nothing: prints what each takes (the figures depend on the machine). --db FILE keeps the store;
  given again, an existing FILE is timed as it is.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from iorace.compare import fleet  # noqa: E402  (the checkout's iorace, whatever is installed)
from iorace.compare.history import history, history_table  # noqa: E402
from iorace.core import machine  # noqa: E402
from iorace.store.db import CellData, SessionData, Store  # noqa: E402
from iorace.store.run import Run  # noqa: E402

VARIANTS = [
    "c/mmap",
    "c/read",
    "cpp/ifstream",
    "cpp/fread",
    "rust/bufread",
    "rust/mmap",
    "go/bufio",
    "d/rawread",
    "java/channel",
    "python/read",
]
BASE_MS = [5.0, 6.0, 9.0, 6.5, 6.2, 5.3, 8.0, 7.0, 12.0, 40.0, 15.0, 20.0]


def cell(variant: str, ms: float, rounds: int, rng: np.random.Generator, drift: np.ndarray) -> CellData:
    language, name = variant.split("/")
    times = ms * drift * np.exp(rng.normal(0, 0.01, rounds))
    runs = [
        Run(phase="measure", round=n, wall_ns=int(t * 1.05e6), user_ns=int(t * 0.9e6), sys_ns=int(t * 0.1e6), max_rss_kb=2048,
            minflt=100, majflt=0, nvcsw=1, nivcsw=1, inner_ns=int(t * 1e6), exit_code=0)
        for n, t in enumerate(times)
    ]  # fmt: skip
    return CellData(
        id=0, suite="readbytes", title="Read a file's bytes", metric="inner", dataset="quick", dataset_sha256="ab" * 32,
        input_path="/data/quick", params={"mode": "count"}, variant=name, language=language, kind="variant",
        description=name, toolchain=language, toolchain_version=f"{language} 1.0", profile="release", build_key="k",
        command=[name], status="ok", detail="", answer=1, expected=1, units={"bytes": 10**8}, known_wrong=False, runs=runs,
    )  # fmt: skip


def fill(store: Store, machines: int, sessions: int, cells: int, rounds: int) -> None:
    variants = [VARIANTS[i % len(VARIANTS)] + (f"{i // len(VARIANTS)}" if i >= len(VARIANTS) else "") for i in range(cells)]
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    store.db.execute("PRAGMA synchronous = OFF")  # a throwaway store: no fsync per session
    for m in range(machines):
        rng = np.random.default_rng(m)
        speed = np.exp(rng.normal(0, 0.3))  # each machine its own speed, and its own small differences per cell
        own = np.exp(rng.normal(0, 0.05, cells))
        facts = {"cpu_model": f"CPU model {m % 7}", "cores": 2 ** (1 + m % 6), "memory_gb": 16, "kernel": f"6.{m % 3}"}
        for j in range(sessions):
            drift = np.exp(rng.normal(0, 0.03, rounds))
            ms = [BASE_MS[i % len(BASE_MS)] * speed * own[i] for i in range(cells)]
            started = (start + dt.timedelta(days=j, minutes=m)).isoformat()
            ctx = machine.context(facts, {})
            store.add_session(
                SessionData(
                    id=0, started=started, finished=started, status="done", command_line="iorace run readbytes",
                    options={"runs": rounds}, machine=facts, toolchains={}, git_revision=f"{j:07x}", iorace_version="0",
                    cells=[cell(v, ms[i], rounds, rng, drift) for i, v in enumerate(variants)], machine_name=f"m{m:03d}",
                    machine_fingerprint=machine.fingerprint(facts), machine_context=ctx,
                    context_fingerprint=machine.context_fingerprint(ctx),
                )
            )  # fmt: skip


def timed(what: str, work: Callable[[], str]) -> None:
    t0 = time.perf_counter()
    detail = work()
    took = time.perf_counter() - t0
    print(f"{what}: {took:.2f} s{' (goal: 2 s)' if took > 2 else ''}  {detail}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--machines", type=int, default=100)
    ap.add_argument("--sessions", type=int, default=50)
    ap.add_argument("--cells", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--db", type=Path, help="keep the store here (default: a temporary file)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "fleet.sqlite"
        t0 = time.perf_counter()
        n = args.machines * args.sessions
        if path.exists():  # --db of an earlier run: timed as it is
            print(f"{path}: timed as it is, not filled")
        else:
            fill(Store(path), args.machines, args.sessions, args.cells, args.rounds)
            took = time.perf_counter() - t0
            print(f"filled {path}: {n} sessions, {n * args.cells} cells, {n * args.cells * args.rounds} runs in {took:.0f} s")
        store = Store(path)
        timed("machines", lambda: f"{len(fleet.machines_table(store).rows)} machines")
        timed("compare-machines readbytes", lambda: _compare(store))
        timed("history readbytes", lambda: _history(store))


def _compare(store: Store) -> str:
    cmp = fleet.compare_machines(store, "readbytes")
    fleet.pairs_table(cmp), fleet.correlation_table(cmp), fleet.summary_lines(cmp)
    return f"{len(cmp.pairs)} pairs: {cmp.count(fleet.HOLDS)} hold, {cmp.count(fleet.FLIPS)} flip, {cmp.count(fleet.UNRESOLVED)} unresolved"


def _history(store: Store) -> str:
    sessions, series, _ = history(store, "readbytes", last=8)  # as the command reads it (--last 8)
    history_table("readbytes", sessions[-8:], series)
    return f"{len(series)} cells x {len(sessions)} sessions"


if __name__ == "__main__":
    main()
