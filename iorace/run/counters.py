"""Counters of one extra run per verified cell: cachegrind (`run --instructions`) and perf stat (`run --counters`).

Hardware counters (`perf stat -e instructions`) are not available on many VMs,
and wall times on a shared machine drift; the number of instructions a program
executes does not. cachegrind gives the rdb seed's `perf stat` "instructions"
line made repeatable: the same binary, input and environment give the same
count whatever else the machine is doing. It counts user-space instructions
only (not the kernel's share of a read(2)), and a JIT (Java) or interpreter
(Python) is counted with its start-up. With branch simulation it also counts
conditional and indirect branches and how many a simple predictor misses: the
stand-in for perf's branches and branch-misses that works everywhere. With its
cache simulation (I1, D1 and the last level, LL) it says where each access was
served, and iai-callgrind's "estimated cycles" (L1 hits + 5 x LL hits + 35 x
RAM hits) weighs them: an exact cost that, unlike the instruction count, sees
the memory system; neither sees the kernel's work (system calls, page faults).

`perf stat` gives the rdb seed's whole table (task-clock, context switches,
page faults, cycles, instructions, IPC, branches, branch misses) where the
kernel allows: software counters almost everywhere, hardware ones only where
the CPU's counters are exposed (not on most VMs). What is unavailable is
recorded with the reason, and `iorace doctor` says it up front.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile

from iorace.analyse.counter_keys import (
    CG_BRANCH_MISSES,
    CG_BRANCHES,
    CG_L1_HITS,
    CG_LL_HITS,
    CG_RAM_HITS,
    cache_hits,
    estimated_cycles,
    perf_key,
)
from iorace.manifest.cells import Cell
from iorace.run.launcher import SINK_NULL, run_once
from iorace.run.verify import env_for
from iorace.store.run import timeout_text

VALGRIND_INSTALL = "apt-get install valgrind"
PERF_INSTALL = "apt-get install linux-perf"

# perf's event names, in the rdb seed's order; IPC is instructions / cycles (see ipc()).
PERF_EVENTS = ["task-clock", "context-switches", "page-faults", "cycles", "instructions", "branches", "branch-misses"]
NOT_SUPPORTED = "not supported here (no hardware performance counters: usually a VM without a virtual PMU)"


def why_unavailable() -> str:
    """'' when counting instructions under cachegrind is possible here, else why not."""
    return "" if shutil.which("valgrind") else f"valgrind not found ({VALGRIND_INSTALL})"


def _cachegrind_summary(path: str) -> dict[str, int]:
    events: list[str] = []
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:"):
                return dict(zip(events, map(int, line.split()[1:]), strict=False))
    return {}


def count(cell: Cell, timeout: float) -> tuple[int | None, str]:
    """(instructions, '') or (None, why not) for one run of the cell under cachegrind, with branch and cache
    simulation: its branches and mispredicts, and where its accesses were served (L1, LL, RAM), go into
    cell.counters (cachegrind:branches, cachegrind:l1-hits, ...), and iai-callgrind's estimated cycles from
    them into cell.estimated_cycles: exact from run to run like the instruction count."""
    fd, out = tempfile.mkstemp(prefix="iorace-cg-")
    os.close(fd)
    try:
        argv = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=yes",
            "--branch-sim=yes",
            f"--cachegrind-out-file={out}",
            "--quiet",
            *cell.argv,
        ]
        run = run_once(argv, timeout=timeout, sink=SINK_NULL, env=env_for(cell), cwd=str(cell.build_dir), cpus=cell.cpus)
        if run.timed_out:
            return None, f"under valgrind: {timeout_text(timeout)}"
        if run.exit_code != 0:
            return None, f"failed under valgrind: {run.failure()}"
        summary = _cachegrind_summary(out)
        if "Ir" not in summary:
            return None, "cachegrind wrote no summary"
        if "Bc" in summary:
            cell.counters[CG_BRANCHES] = summary["Bc"] + summary.get("Bi", 0)
            cell.counters[CG_BRANCH_MISSES] = summary["Bcm"] + summary.get("Bim", 0)
        hits = cache_hits(summary)
        if hits is not None:
            cell.counters[CG_L1_HITS], cell.counters[CG_LL_HITS], cell.counters[CG_RAM_HITS] = hits
            cell.estimated_cycles = estimated_cycles(*hits)
        return summary["Ir"], ""
    finally:
        os.unlink(out)


def parse_perf_csv(text: str) -> tuple[dict[str, float], dict[str, str]]:
    """perf stat -x, output -> ({event: value}, {event: why there is no value})."""
    values: dict[str, float] = {}
    missing: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(",")
        if len(fields) < 3:
            continue
        raw, event = fields[0], fields[2].split(":")[0]  # "cycles:u" -> cycles
        if raw == "<not supported>":
            missing[event] = NOT_SUPPORTED
        elif raw == "<not counted>":
            missing[event] = "not counted (the counter could not be scheduled, or the program ended first)"
        else:
            try:
                values[event] = float(raw)
            except ValueError:
                missing[event] = f"unreadable value {raw!r}"
    return values, missing


def _why_perf_failed(stderr: str) -> str:
    if "perf_event_paranoid" in stderr or "No permission" in stderr or "Permission denied" in stderr:
        try:
            with open("/proc/sys/kernel/perf_event_paranoid") as f:
                level = f.read().strip()
        except OSError:
            level = "?"
        return f"not permitted (kernel.perf_event_paranoid = {level}: run as root or lower it)"
    last = [ln for ln in stderr.splitlines() if ln.strip()]
    return f"perf stat failed: {last[-1].strip() if last else 'no message'}"


@functools.cache
def perf_status() -> dict[str, str]:
    """Each perf event -> '' when perf stat can count it here, else why not (perf stat on /bin/true)."""
    perf = shutil.which("perf")
    if perf is None:
        return dict.fromkeys(PERF_EVENTS, f"perf not found ({PERF_INSTALL})")
    true = shutil.which("true") or "/bin/true"
    try:
        proc = subprocess.run(
            [perf, "stat", "-x,", "-e", ",".join(PERF_EVENTS), "--", true], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return dict.fromkeys(PERF_EVENTS, f"perf stat failed: {e}")
    if proc.returncode != 0:
        return dict.fromkeys(PERF_EVENTS, _why_perf_failed(proc.stderr))
    values, missing = parse_perf_csv(proc.stderr)
    return {e: "" if e in values else missing.get(e, "perf stat did not report it") for e in PERF_EVENTS}


def perf_count(cell: Cell, timeout: float) -> None:
    """One run of the cell under perf stat: each counter into cell.counters, or why not into cell.counter_notes."""
    status = perf_status()
    events = [e for e in PERF_EVENTS if not status[e]]
    for e in PERF_EVENTS:
        if status[e]:
            cell.counter_notes[perf_key(e)] = status[e]
    if not events:
        return
    fd, out = tempfile.mkstemp(prefix="iorace-perf-")
    os.close(fd)
    try:
        argv = [shutil.which("perf") or "perf", "stat", "-x,", "-o", out, "-e", ",".join(events), "--", *cell.argv]
        run = run_once(argv, timeout=timeout, sink=SINK_NULL, env=env_for(cell), cwd=str(cell.build_dir), cpus=cell.cpus)
        why = (
            f"under perf stat: {timeout_text(timeout)}"
            if run.timed_out
            else f"failed under perf stat: {run.failure()}"
            if run.exit_code != 0
            else ""
        )
        with open(out) as f:
            values, missing = parse_perf_csv(f.read())
        for e in events:
            if why:
                cell.counter_notes[perf_key(e)] = why
            elif e in values:
                cell.counters[perf_key(e)] = values[e]
            else:
                cell.counter_notes[perf_key(e)] = missing.get(e, "perf stat did not report it")
    finally:
        os.unlink(out)


def doctor_lines() -> list[str]:
    """What `iorace doctor` says about counters: which can be recorded here, and why the others cannot."""
    status = perf_status()
    ok = [e for e in PERF_EVENTS if not status[e]]
    lines = [f"perf stat counters (run --counters): {', '.join(ok) if ok else 'none'} available"]
    reasons: dict[str, list[str]] = {}
    for e in PERF_EVENTS:
        if status[e]:
            reasons.setdefault(status[e], []).append(e)
    lines += [f"  unavailable: {', '.join(events)}: {why}" for why, events in reasons.items()]
    if status["instructions"] or status["cycles"]:
        lines.append("  IPC needs cycles and instructions: unavailable")
    cg = why_unavailable()
    lines.append(f"cachegrind (run --instructions: instructions, estimated cycles, branches, branch misses): {cg or 'available'}")
    return lines
