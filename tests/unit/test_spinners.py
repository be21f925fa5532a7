"""Idle spinners (run/spinners.py): one SCHED_IDLE, nice 19 loop per CPU while measuring, gone afterwards,
and left out of the machine's busy time that the launcher reads around each run (a quiet session with
spinners must still read as quiet)."""

from __future__ import annotations

import os

import pytest

from iorace.run import spinners
from iorace.run.launcher import run_once

pytestmark = pytest.mark.skipif(not spinners.available(), reason="needs SCHED_IDLE and CPU affinity (Linux)")


def test_one_idle_spinner_per_cpu_while_the_block_runs_and_none_after():
    cpus = sorted(os.sched_getaffinity(0))
    with spinners.idle_spinners() as pids:
        assert len(pids) == len(cpus)
        for pid, cpu in zip(pids, cpus, strict=True):
            assert os.sched_getscheduler(pid) == os.SCHED_IDLE
            assert os.getpriority(os.PRIO_PROCESS, pid) == 19
            assert os.sched_getaffinity(pid) == {cpu}
        assert os.environ[spinners.IGNORE_NICE_ENV] == "1"
    for pid in pids:  # killed and reaped
        assert not os.path.exists(f"/proc/{pid}")
    assert spinners.IGNORE_NICE_ENV not in os.environ


def test_disabled_spinners_start_nothing():
    with spinners.idle_spinners(False) as pids:
        assert pids == [] and spinners.IGNORE_NICE_ENV not in os.environ


def test_the_launcher_leaves_the_nice_column_out_of_busy_time_while_spinners_run(tmp_path, monkeypatch):
    # a file stands in for /proc/stat (IORACE_SPAWN_PROC_STAT), and the run itself adds 2 s of nice time (200
    # ticks) and 0.5 s of user time to it: the spinners' time, and another process's
    stat = tmp_path / "stat"
    stat.write_text("cpu 1000 500 100 9000 0 0 0 0\n")
    job = ["/bin/sh", "-c", f"echo 'cpu 1050 700 100 9000 0 0 0 0' > {stat}"]
    monkeypatch.setenv("IORACE_SPAWN_PROC_STAT", str(stat))
    tick_ns = 1_000_000_000 // os.sysconf("SC_CLK_TCK")
    counted = run_once(job, timeout=10)
    assert counted.host_busy_ns == 250 * tick_ns  # without spinners, nice time is other processes' time
    stat.write_text("cpu 1000 500 100 9000 0 0 0 0\n")
    with spinners.idle_spinners():
        left_out = run_once(job, timeout=10)
    assert left_out.host_busy_ns == 50 * tick_ns
