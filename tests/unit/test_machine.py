"""The busy-machine warning of `iorace run` (fast: hand-made samples, and one real sample)."""

from iorace import machine

QUIET = {"load_per_core": 0.1, "others_pct": 5, "busiest": []}


def test_quiet_machine_no_warning():
    assert machine.busy_warning(QUIET, QUIET) == ""


def test_load_before_measuring_warns_in_one_line():
    w = machine.busy_warning({**QUIET, "load_per_core": 0.9}, QUIET)
    assert "load average 0.9 per core before measuring" in w and "\n" not in w


def test_load_after_measuring_is_ours_and_does_not_warn():
    # after measuring, the load average includes iorace's own runs: only other processes count then
    assert machine.busy_warning(QUIET, {**QUIET, "load_per_core": 1.0}) == ""


def test_another_process_using_a_core_warns_before_or_after():
    busy = {**QUIET, "others_pct": 95, "busiest": ["rustc (pid 7) 95%"]}
    assert "rustc (pid 7) 95%" in machine.busy_warning(QUIET, busy)
    assert "before measuring" in machine.busy_warning(busy, QUIET)


def test_a_real_sample_leaves_out_iorace_itself():
    import os

    s = machine.busy_sample(0.05)
    assert s["load_per_core"] >= 0 and s["others_pct"] >= 0
    assert not any(f"(pid {os.getpid()})" in b for b in s["busiest"])
