"""The launcher and the judge of a run, without toolchains or the CLI (fast: only cc builds the launcher once).

Each test starts real processes through iorace-spawn: exit codes, signals, timeouts, leftovers (forked
children, setsid() daemons) that must not outlive their run, the schedule of a round, stdout digests.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from iorace.manifest.cells import BAD_STATES, Status
from iorace.run import launcher
from iorace.run.launcher import SINK_DIGEST, SINK_PIPE, Job, run_batch, run_once
from iorace.run.verify import judge_run
from iorace.store.run import Run, timeout_text

SH = "/bin/sh"


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def pids_in(text: str) -> list[int]:
    return [int(w.split("=", 1)[1]) for w in text.split() if w.startswith("pid=")]


def test_a_clean_run_reports_its_costs_and_result():
    run = run_once([SH, "-c", 'echo \'iorace-result {"answer": 7, "inner_ns": 5}\' >&2'], timeout=10)
    assert run.exit_code == 0 and not run.timed_out and run.failure() == ""
    assert run.result == {"answer": 7, "inner_ns": 5} and run.inner_ns == 5
    assert run.wall_ns > 0 and run.max_rss_kb > 0 and run.leftovers == 0


def test_the_machine_s_cpu_time_is_read_around_each_run():
    """/proc/stat before and after: a run that spins 0.2 s of CPU sees at least its own time as the machine's
    busy time (whole 10 ms ticks), so the rest of the machine's share can be told apart."""
    run = run_once([SH, "-c", 'end=$(($(date +%s%N) + 200000000)); while [ "$(date +%s%N)" -lt "$end" ]; do :; done'], timeout=10)
    assert run.host_busy_ns is not None and run.host_steal_ns is not None and run.host_steal_ns >= 0
    assert run.cpu_ns > 0 and run.host_busy_ns >= 0.5 * run.cpu_ns  # its own CPU time is part of the machine's


def test_exit_code_signal_and_missing_program_are_failures_with_the_last_stderr_line():
    assert run_once([SH, "-c", "echo bad input >&2; exit 3"], timeout=10).failure() == "exit code 3: bad input"
    assert run_once([SH, "-c", "kill -SEGV $$"], timeout=10).failure().startswith("killed by SIGSEGV")
    missing = run_once(["iorace-no-such-program"], timeout=10)
    assert missing.exit_code == 127 and "cannot execute iorace-no-such-program" in missing.failure()


def test_setsid_daemon_and_forked_child_do_not_outlive_the_run():
    # The daemon is in its own session and process group, out of reach of a group kill.
    run = run_once([SH, "-c", "setsid sleep 300 & echo pid=$! >&2; sleep 300 & echo pid=$! >&2"], timeout=10)
    pids = pids_in(run.stderr_tail)
    assert len(pids) == 2 and run.exit_code == 0
    assert run.leftovers >= 2
    assert not [p for p in pids if alive(p)]


def test_timeout_kills_the_run_and_everything_it_started():
    start = time.monotonic()
    run = run_once([SH, "-c", "trap '' TERM; setsid sleep 300 & echo pid=$! >&2; sleep 300 & echo pid=$! >&2; wait"], timeout=0.5)
    assert time.monotonic() - start < 10
    assert run.timed_out and run.exit_code == -signal.SIGKILL
    assert run.failure() == timeout_text(0.5)
    assert not [p for p in pids_in(run.stderr_tail) if alive(p)]


def test_a_round_runs_in_schedule_order_and_a_failed_job_is_not_run_again(tmp_path):
    log = tmp_path / "log"
    ok = Job([SH, "-c", f"echo ok >> {log}"], 10)
    bad = Job([SH, "-c", f"echo bad >> {log}; exit 1"], 10)
    records, interrupted = run_batch([ok, bad], [0, 1, 0, 1, 0])
    assert not interrupted
    assert [r is not None for r in records] == [True, True, True, False, True]
    assert [r.exit_code for r in records if r] == [0, 1, 0, 0]
    assert log.read_text().split() == ["ok", "bad", "ok", "ok"]


def test_the_run_a_stop_kills_was_not_made():
    """Ctrl-C (here a SIGTERM from elsewhere, which takes the same path) kills the run going on: it has no
    record, so the session ends interrupted instead of marking that cell failed (killed by SIGKILL). The run
    that ended before the stop keeps its record."""
    ok, slow = Job([SH, "-c", "exit 0"], 10), Job([SH, "-c", "sleep 30"], 60)

    def stop_soon() -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with launcher._live_lock:
                live = list(launcher._live)
            if live:
                time.sleep(0.5)  # the first job is done and the sleep under way
                live[0].send_signal(signal.SIGTERM)
                return
            time.sleep(0.02)

    stopper = threading.Thread(target=stop_soon)
    stopper.start()
    records, interrupted = run_batch([ok, slow], [0, 1])
    stopper.join()
    assert interrupted
    assert records[0] is not None and records[0].exit_code == 0
    assert records[1] is None


def test_each_job_has_its_own_environment_and_folder(tmp_path):
    job = Job([SH, "-c", 'echo "$IORACE_X $(pwd)" >&2'], 10, env={**os.environ, "IORACE_X": "hello"}, cwd=str(tmp_path))
    (run,), _ = run_batch([job], [0])
    assert run.stderr_tail.strip() == f"hello {tmp_path}"


def test_a_confined_job_and_its_children_run_on_its_cpus_and_the_next_job_is_free_again():
    """[one_cpu]: the launcher's affinity is the job's while it starts it (a pipe config's server, forked by the
    program, inherits it too), and its own again for the next job."""
    allowed = sorted(os.sched_getaffinity(0))
    last = allowed[-1]
    show = 'grep Cpus_allowed_list /proc/self/status >&2; sh -c "grep Cpus_allowed_list /proc/self/status >&2"'
    confined = Job([SH, "-c", show], 10, cpus=(last,))
    free = Job([SH, "-c", show], 10)
    (one, other), _ = run_batch([confined, free], [0, 1])
    assert one.stderr_tail.split() == ["Cpus_allowed_list:", str(last)] * 2
    assert other.stderr_tail.split()[1] != str(last) or len(allowed) == 1


def test_stdout_sinks():
    text = "x" * 100_000
    digest = run_once([sys.executable, "-c", f"print('{text}', end='')"], timeout=30, sink=SINK_DIGEST)
    assert digest.stdout_sha256 == hashlib.sha256(text.encode()).hexdigest() and digest.stdout_bytes == len(text)
    # a pipe the launcher drains: a program writing more than a pipe holds must not block
    piped = run_once([SH, "-c", "head -c 5000000 /dev/zero"], timeout=30, sink=SINK_PIPE)
    assert piped.exit_code == 0 and not piped.timed_out


def record(**kw) -> Run:
    base = {
        "wall_ns": 1,
        "user_ns": 0,
        "sys_ns": 0,
        "max_rss_kb": 1,
        "minflt": 0,
        "majflt": 0,
        "nvcsw": 0,
        "nivcsw": 0,
        "exit_code": 0,
        "timed_out": False,
        "inner_ns": None,
        "result": {"answer": 5},
        "stderr_tail": "",
        "timeout_s": 2.0,
    }
    return Run(**{**base, **kw})


@pytest.mark.parametrize(
    "run, timed, known_wrong, status, detail",
    [
        (record(), False, False, Status.OK, ""),
        (record(result={"answer": 6}), False, False, Status.WRONG, "answered 6, expected 5"),
        (record(result={"answer": 6}), True, False, Status.WRONG, "a timed run answered 6, expected 5"),
        (record(result={"answer": 6}), False, True, Status.WRONG, "answered 6, expected 5 (known: "),
        (record(exit_code=-9, timed_out=True), False, False, Status.TIMEOUT, timeout_text(2.0)),
        (record(exit_code=-9, timed_out=True), True, False, Status.TIMEOUT, "a timed run " + timeout_text(2.0)),
        (record(exit_code=3, stderr_tail="nope\n"), False, False, Status.FAILED, "exit code 3: nope"),
        (record(exit_code=3, stderr_tail="nope\n"), True, False, Status.FAILED, "a timed run failed: exit code 3: nope"),
        (record(exit_code=3, stderr_tail="nope\n"), False, True, Status.WRONG, "refused: exit code 3: nope (known: "),
        (record(exit_code=-11), False, True, Status.FAILED, "killed by SIGSEGV"),
        (record(result=None), False, False, Status.FAILED, "printed no iorace-result line"),
        (record(result=None), True, False, Status.OK, ""),  # a timed run may stay silent
        (record(result={"_invalid": "iorace-result {"}), False, False, Status.FAILED, "unreadable result line"),
        (record(result={"inner_ns": 3}), False, False, Status.FAILED, "its iorace-result line has no answer"),
    ],
)
def test_judge_run(run, timed, known_wrong, status, detail):
    v = judge_run(run, expected=5, answer_kind="result", known_wrong=known_wrong, timed=timed)
    assert v.status is status
    assert v.detail.startswith(detail) if detail else v.detail == ""


def test_judge_run_on_stdout_suites():
    run = record(result=None, stdout_sha256="abc")
    assert judge_run(run, expected="abc", answer_kind="stdout").status is Status.OK
    assert judge_run(run, expected="abd", answer_kind="stdout").status is Status.WRONG
    assert judge_run(run, expected="abd", answer_kind="stdout", timed=True).status is Status.OK  # sink, no digest


def test_status_is_one_type():
    assert Status.OK == "ok" and Status("build-failed") is Status.BUILD_FAILED and Status.of("nonsense") is None
    assert sorted(Status, key=lambda s: s.order)[:2] == [Status.OK, Status.WRONG]
    assert Status.TIMEOUT.order < Status.SKIPPED.order < Status.PLANNED.order
    assert {Status.WRONG, Status.FAILED, Status.TIMEOUT, Status.BUILD_FAILED} == BAD_STATES
    assert Status.OK.style == "green" and all(s.style == "bold red" for s in BAD_STATES)
    assert not Status.SKIPPED.bad and not Status.OK.bad


@pytest.mark.parametrize("sink", [SINK_PIPE, SINK_DIGEST])
def test_a_daemon_holding_the_stdout_pipe_neither_blocks_the_run_nor_survives_it(sink):
    start = time.monotonic()
    run = run_once([SH, "-c", "setsid sleep 300 & echo pid=$! >&2; echo out"], timeout=30, sink=sink)
    assert time.monotonic() - start < 20 and run.exit_code == 0
    (pid,) = pids_in(run.stderr_tail)
    assert not alive(pid)
