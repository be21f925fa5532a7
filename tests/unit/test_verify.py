"""verify() with a fake runner and a recorder in a list (no process is started): how a verification run
is judged, what is recorded, the stdout digest of `answer = "stdout"` suites."""

from __future__ import annotations

import hashlib

import pytest
from fakes import ANSWER, FakeRunner, ListRecorder, record, toy_cells

from iorace.manifest.cells import FAILED, OK, PLANNED, TIMEOUT, WRONG
from iorace.run.launcher import SINK_DIGEST, SINK_NULL
from iorace.run.verify import KNOWN, verify
from iorace.store.run import timeout_text


def toy(tmp_path, **kw):
    """One toy cell as verify meets it: built, not yet judged."""
    (cell,) = toy_cells(tmp_path, ("a",), **kw)
    cell.status = PLANNED
    return cell


def verify_one(cell, fake) -> ListRecorder:
    recorder = ListRecorder()
    assert verify(cell, 5.0, recorder, runner=fake) is None
    return recorder


@pytest.mark.parametrize(
    "run, known_wrong, status, detail, answer",
    [
        (record(), False, OK, "", ANSWER),
        (record(answer=1001), False, WRONG, f"answered 1001, expected {ANSWER}", 1001),
        (record(answer={"n": 1}), False, WRONG, f'answered {{"n": 1}}, expected {ANSWER}', {"n": 1}),
        (record(exit_code=3, stderr="toy: bad input\n"), False, FAILED, "exit code 3: toy: bad input", None),
        (record(exit_code=-11), False, FAILED, "killed by SIGSEGV", None),
        (record(exit_code=-9, timed_out=True), False, TIMEOUT, timeout_text(5.0), None),
        (record(result=None), False, FAILED, "printed no iorace-result line on stderr", None),
        (record(result={"inner_ns": 5}), False, FAILED, "its iorace-result line has no answer", None),
        (record(result={"_invalid": "iorace-result {"}), False, FAILED, "unreadable result line: iorace-result {", None),
        # the manifest says this variant cannot be right on tiny: a clean refusal is its known wrong answer ...
        (record(exit_code=2, stderr="toy: cannot do tiny\n"), True, WRONG, f"refused: exit code 2: toy: cannot do tiny{KNOWN}", None),
        (record(answer=7), True, WRONG, f"answered 7, expected {ANSWER}{KNOWN}", 7),
        # ... but a crash is still a failure, and a right answer is right
        (record(exit_code=-11), True, FAILED, "killed by SIGSEGV", None),
        (record(), True, OK, "", ANSWER),
    ],
)
def test_a_verification_run_is_judged_and_recorded(tmp_path, run, known_wrong, status, detail, answer):
    cell = toy(tmp_path, known_wrong=("a",) if known_wrong else ())
    fake = FakeRunner(script={("a", 0): run})
    recorder = verify_one(cell, fake)
    assert (cell.status, cell.detail, cell.answer) == (status, detail, answer)
    assert [(r.name, r.phase, r.round_no) for r in recorder.runs] == [("a", "verify", 0)]
    assert recorder.runs[0].run is run
    assert recorder.events == recorder.runs  # verify does not commit: the session does, after every cell


def test_the_run_is_the_cells_command_once(tmp_path):
    cell = toy(tmp_path, env={"TOY_MODE": "fast"})
    fake = FakeRunner()
    verify_one(cell, fake)
    (call,) = fake.calls
    assert call.schedule == [0] and len(call.jobs) == 1
    (job,) = call.jobs
    assert (job.argv, job.timeout, job.sink, job.cwd) == (cell.argv, 5.0, SINK_NULL, str(cell.build_dir))
    assert job.env is not None and job.env["TOY_MODE"] == "fast"
    assert call.on_stdout is None  # a result-line suite's stdout is not read


@pytest.mark.parametrize(
    "stdout, result, status",
    [
        (b"right\n", None, OK),  # the digest is the answer; no result line needed
        (b"right\n", {"inner_ns": 12}, OK),
        (b"wrong\n", None, WRONG),
        (b"", None, WRONG),
    ],
)
def test_a_stdout_suite_is_judged_by_the_digest_of_its_stdout(tmp_path, stdout, result, status):
    cell = toy(tmp_path, answer="stdout")
    fake = FakeRunner(stdout=stdout, script={("a", 0): record(result=result)})
    recorder = verify_one(cell, fake)
    (call,) = fake.calls
    assert call.jobs[0].sink == SINK_DIGEST and call.on_stdout is not None
    digest = hashlib.sha256(stdout).hexdigest()
    run = recorder.runs[0].run
    assert (run.stdout_sha256, run.stdout_bytes) == (digest, len(stdout))
    assert cell.status == status and cell.answer == digest
    if status == WRONG:
        assert cell.detail == f'answered "{digest}", expected "{cell.expected}"'


def test_a_program_that_cannot_be_started_fails_and_records_nothing(tmp_path):
    cell = toy(tmp_path)
    recorder = verify_one(cell, FakeRunner(script={("a", 0): OSError(2, "No such file or directory")}))
    assert (cell.status, cell.detail) == (FAILED, "cannot start a: No such file or directory")
    assert not recorder.events


def test_a_run_the_launcher_does_not_report_fails_and_records_nothing(tmp_path):
    cell = toy(tmp_path)
    recorder = verify_one(cell, FakeRunner(script={("a", 0): None}))
    assert (cell.status, cell.detail) == (FAILED, "cannot start a: iorace-spawn ended without reporting the run")
    assert not recorder.events


def test_ctrl_c_during_verification_is_keyboard_interrupt(tmp_path):
    cell = toy(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        verify_one(cell, FakeRunner(interrupt=(0, 0)))
    assert cell.status == PLANNED and cell.detail == ""  # not judged


def test_extra_figures_come_from_the_result_line(tmp_path):
    cell = toy(tmp_path)
    run = record(extra={"bytes_per_msg": 12, "alloc_per_op": 1.5, "flag": True, "name": "x"})
    verify_one(cell, FakeRunner(script={("a", 0): run}))
    assert cell.status == OK and cell.extra == {"bytes_per_msg": 12, "alloc_per_op": 1.5}


def test_verification_runs_go_two_at_a_time_and_are_judged_and_recorded_in_the_cells_order(tmp_path):
    import threading
    import time

    from fakes import toy_cells

    from iorace.run.verify import verify_all

    cells = toy_cells(tmp_path, ("a", "b", "c", "d", "e"))
    for c in cells:
        c.status = PLANNED
    lock, running, most = threading.Lock(), [0], [0]
    inner = FakeRunner(script={(cells[1].argv[0], 0): OSError("no such program")})

    def runner(jobs, schedule, **kw):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05 if jobs[0].argv[0] != cells[0].argv[0] else 0.2)  # the first is slowest: order must hold
        with lock:
            running[0] -= 1
            return inner(jobs, schedule, **kw)

    recorder, done = ListRecorder(), []
    verify_all(cells, 5.0, recorder, 2, lambda c: done.append(c.variant.name), runner=runner)
    assert most[0] == 2  # two at once, never more
    assert done == ["a", "b", "c", "d", "e"]
    assert [r.name for r in recorder.runs] == ["a", "c", "d", "e"]  # b could not start: nothing recorded
    assert cells[1].status == FAILED and "cannot start" in cells[1].detail
    assert all(c.status == OK for c in cells if c is not cells[1])


def test_threads_that_find_the_launcher_missing_build_it_once_and_all_get_it(tmp_path, monkeypatch):
    """On a fresh cache two verification threads both found iorace-spawn missing and raced to build it (one
    failed: a cell reported as "cannot start" on a fresh clone's make bench)."""
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from iorace.run import launcher

    monkeypatch.setenv("IORACE_CACHE", str(tmp_path))
    with ThreadPoolExecutor(max_workers=4) as pool:
        paths = list(pool.map(lambda _: launcher._tool("iorace-spawn", launcher.SPAWN_SOURCE, "its launcher"), range(4)))
    assert len(set(paths)) == 1 and Path(paths[0]).exists()
    assert [p.name for p in (tmp_path / "tools").iterdir()] == [Path(paths[0]).name]  # no temporary left behind
