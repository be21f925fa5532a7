"""The busy-machine warning of `iorace run` (fast: hand-made samples, and one real sample); the machine's
name and fingerprint stored with a session."""

import pytest

from iorace.core import machine
from iorace.core.errors import UsageError

QUIET = {"load_per_core": 0.1, "others_pct": 5, "busiest": []}


def test_quiet_machine_no_warning():
    assert machine.busy_warning(QUIET, QUIET) == ""


def test_the_load_average_left_by_earlier_work_does_not_warn():
    # it decays over minutes: a quiet session after a build read as busy; the runs judge contention
    assert machine.busy_warning({**QUIET, "load_per_core": 0.9}, {**QUIET, "load_per_core": 1.0}) == ""


def test_another_process_using_a_core_warns_before_or_after():
    busy = {**QUIET, "others_pct": 95, "busiest": ["rustc (pid 7) 95%"]}
    assert "rustc (pid 7) 95%" in machine.busy_warning(QUIET, busy)
    assert "before measuring" in machine.busy_warning(busy, QUIET) and "\n" not in machine.busy_warning(busy, QUIET)


def test_a_real_sample_leaves_out_iorace_itself():
    import os

    s = machine.busy_sample(0.05)
    assert s["load_per_core"] >= 0 and s["others_pct"] >= 0
    assert not any(f"(pid {os.getpid()})" in b for b in s["busiest"])


FACTS = {"hostname": "a", "cpu_model": "Xeon 9", "cores": 8, "memory_gb": 31.3, "kernel": "6.1", "load": [0.1, 0, 0], "cpu_mhz": 2900}


def test_a_fingerprint_holds_across_what_does_not_make_another_machine():
    same = {**FACTS, "hostname": "ci-7f3a", "kernel": "6.12", "load": [1.5, 1, 1], "cpu_mhz": 3400, "memory_gb": 31.0}
    assert machine.fingerprint(same) == machine.fingerprint(FACTS) != ""
    for other in ({"cpu_model": "Xeon 10"}, {"cores": 4}, {"memory_gb": 15.6}):
        assert machine.fingerprint({**FACTS, **other}) != machine.fingerprint(FACTS), other
    assert machine.fingerprint({}) == ""  # no facts stored: no fingerprint to compare


def test_a_fingerprint_tells_stepping_threads_caches_and_virtualization_apart():
    new = {**FACTS, "cpu_stepping": "cpu family 25, model 1, stepping 1", "physical_cores": 4, "caches": "L2 512K, L3 32768K"}
    new["virtualization"] = "kvm"
    for other in (
        {"cpu_stepping": "cpu family 25, model 1, stepping 2"},
        {"physical_cores": 8},  # 8 threads on 4 cores or on 8
        {"caches": "L2 1024K, L3 32768K"},
        {"virtualization": "none"},
    ):
        assert machine.fingerprint({**new, **other}) != machine.fingerprint(new), other
    assert machine.fingerprint({**FACTS, "caches": None}) == machine.fingerprint(FACTS)  # a missing fact is left out


def test_this_machine_has_the_new_facts():
    facts = machine.info()
    assert facts["caches"] and facts["virtualization"] and facts["cpu_stepping"]
    assert facts["physical_cores"] is None or 1 <= facts["physical_cores"] <= (facts["cores"] or 1)


def test_a_machine_is_named_by_run_machine_else_iorace_machine_else_its_host(monkeypatch):
    monkeypatch.delenv("IORACE_MACHINE", raising=False)
    monkeypatch.setattr(machine.platform, "node", lambda: "box.lan")
    assert machine.name(None) == "box.lan"
    monkeypatch.setenv("IORACE_MACHINE", "ci-runner-2")
    assert machine.name(None) == "ci-runner-2" and machine.name("lab_3") == "lab_3"
    for bad in ("two words", "-x", "a/b", "x" * 65):
        with pytest.raises(UsageError, match="a machine's name is"):
            machine.name(bad)


def test_a_bad_machine_name_is_one_line_before_anything_runs(iorace_inprocess, tmp_path):
    out = iorace_inprocess("run", "readbytes", "--machine", "my laptop", "--db", str(tmp_path / "s.sqlite"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--machine 'my laptop'" in out.stderr, out.stderr
    assert not (tmp_path / "s.sqlite").exists()
