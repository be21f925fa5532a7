"""Idle spinners: keep every vCPU of a virtual machine busy while measuring, with work that yields at once.

A guest's idle vCPU halts (HLT) and the host deschedules it; when a benchmark's run then wakes it, the host
may place it on another physical core, with other neighbours, cold caches and another clock. On this
project's VMs (no cpuidle driver: /sys/devices/system/cpu/cpuidle/current_driver is "none", so the kernel's
PM QoS knob /dev/cpu_dma_latency, the field's usual way to keep CPUs out of idle states, changes nothing)
the same program's runs jump between levels 1.5x apart. One busy loop per CPU under SCHED_IDLE
and nice 19 keeps the vCPUs from halting without taking CPU from anyone: the kernel runs a SCHED_IDLE task
only when nothing else wants that CPU, and preempts it as soon as something does.

Their CPU time is the machine's, not "other processes'": they run at nice 19, so /proc/stat counts it in its
nice column, and the launcher leaves that column out of the machine's busy time while they spin
(IGNORE_NICE_ENV, read by iorace-spawn), so a quiet session with spinners still reads as quiet.

Each spinner is pinned to one CPU, and exits by itself when iorace does (it checks its parent), so an
interrupted session leaves none behind."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator

IGNORE_NICE_ENV = "IORACE_SPAWN_IGNORE_NICE"  # iorace-spawn: leave /proc/stat's nice column out of busy time

# The spinner: nice 19 (its time goes to /proc/stat's nice column), SCHED_IDLE (runs only on an otherwise
# idle CPU), pinned to its CPU; it spins in short stretches between checks that iorace is still its parent.
_SPIN = """
import os, sys
cpu, parent = int(sys.argv[1]), int(sys.argv[2])
os.nice(19)
os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
os.sched_setaffinity(0, {cpu})
sys.stdout.write("ready\\n"); sys.stdout.flush()
while os.getppid() == parent:
    for _ in range(200000):
        pass
"""


def available() -> bool:
    """Whether this platform has SCHED_IDLE and CPU affinity (Linux)."""
    return hasattr(os, "SCHED_IDLE") and hasattr(os, "sched_setaffinity")


@contextlib.contextmanager
def idle_spinners(enabled: bool = True) -> Iterator[list[int]]:
    """One SCHED_IDLE busy loop per CPU this process may use, for the duration of the block; yields their
    pids ([] when disabled or not available). The launcher's busy time leaves them out meanwhile."""
    if not enabled or not available():
        yield []
        return
    procs: list[subprocess.Popen] = []
    before = os.environ.get(IGNORE_NICE_ENV)
    try:
        for cpu in sorted(os.sched_getaffinity(0)):
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-c", _SPIN, str(cpu), str(os.getpid())],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
            )
        for p in procs:  # each has set its policy before a timed run starts
            if p.stdout is not None:
                p.stdout.readline()
        os.environ[IGNORE_NICE_ENV] = "1"
        yield [p.pid for p in procs]
    finally:
        if before is None:
            os.environ.pop(IGNORE_NICE_ENV, None)
        else:
            os.environ[IGNORE_NICE_ENV] = before
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
            if p.stdout is not None:
                p.stdout.close()
