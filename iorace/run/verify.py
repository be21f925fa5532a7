"""Run every built cell once and check its answer against the reference before anything is timed."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from iorace.manifest.cells import FAILED, Cell, Status
from iorace.run.launcher import SINK_DIGEST, SINK_NULL, Run, Runner, run_batch, run_once, stop_all
from iorace.run.reference import same_answer


def _short(value: object, limit: int = 120) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Recorder(Protocol):
    """Where verify and measure put the runs they make: the session's Store (a test keeps them in a list)."""

    def add_run(self, cell: Cell, phase: str, round_no: int, run: Run) -> None: ...

    def commit(self) -> None: ...


KNOWN = " (known: the manifest says this strategy cannot be right on this input)"


@dataclass
class Judgement:
    status: Status
    detail: str = ""
    answer: object = None  # what the run answered (its stdout's sha256 for stdout suites), when it said


def judge_run(run: Run, *, expected: object, answer_kind: str, known_wrong: bool = False, timed: bool = False) -> Judgement:
    """The one judgement of a run: timeout / failed / wrong / ok, with the evidence in detail.

    A verification run (timed=False) must print a result line with an answer (or, for stdout suites,
    its stdout is the answer). A timed run (timed=True) writes stdout to the sink and may skip its
    result line; where it reports an answer, the answer must still be the expected one.
    """
    prefix = "a timed run " if timed else ""
    if run.timed_out:
        return Judgement(Status.TIMEOUT, prefix + run.failure())
    if reason := run.failure():
        if known_wrong and run.exit_code > 0 and not timed:
            # The manifest says this strategy cannot be right here, and it refused cleanly (an error
            # message and an exit code, not a crash): that is the known wrong answer, shown as such.
            return Judgement(Status.WRONG, f"refused: {reason}{KNOWN}")
        return Judgement(Status.FAILED, f"{prefix}failed: {reason}" if timed else reason)
    if answer_kind == "stdout":
        if timed:
            return Judgement(Status.OK)
        answer = run.stdout_sha256
    elif run.result is None:
        return Judgement(Status.OK) if timed else Judgement(Status.FAILED, "printed no iorace-result line on stderr")
    elif "_invalid" in run.result:
        return Judgement(Status.OK) if timed else Judgement(Status.FAILED, f"unreadable result line: {run.result['_invalid']}")
    elif "answer" not in run.result:
        return Judgement(Status.OK) if timed else Judgement(Status.FAILED, "its iorace-result line has no answer")
    else:
        answer = run.result["answer"]
    if same_answer(answer, expected):
        return Judgement(Status.OK, "", answer)
    detail = f"{prefix}answered {_short(answer)}, expected {_short(expected)}"
    return Judgement(Status.WRONG, detail + (KNOWN if known_wrong and not timed else ""), answer)


def judge(cell: Cell, run: Run) -> None:
    """Set the cell's status (and answer) from its verification run."""
    v = judge_run(run, expected=cell.expected, answer_kind=cell.suite.manifest.answer, known_wrong=cell.known_wrong)
    cell.status, cell.detail = v.status, v.detail
    if v.status in (Status.OK, Status.WRONG):
        cell.answer = v.answer


def env_for(cell: Cell) -> dict:
    return {**os.environ, **cell.variant.env}


def verify(cell: Cell, timeout: float, recorder: Recorder, *, runner: Runner = run_batch) -> None:
    """Run the cell once (through runner: the launcher by default), judge it and record the run as "verify"."""
    _judge_and_record(cell, _run(cell, timeout, runner), recorder)


def verify_all(
    cells: list[Cell], timeout: float, recorder: Recorder, jobs: int, done: Callable[[Cell], None], *, runner: Runner = run_batch
) -> None:
    """Each cell's verification run, `jobs` at a time: a verification run is checked, not timed (its time only
    sizes the cell, to within --target-ms's rough aim), so it need not run alone, and a suite's verification
    takes half as long on two cores. The runs go in threads (each is a launcher subprocess: the GIL is free
    meanwhile); judging and recording stay on this thread, in the cells' order, and `done(cell)` follows each.
    Ctrl-C stops every launcher running (launcher.stop_all), not only the one this thread would wait for."""
    if jobs <= 1:
        for cell in cells:
            verify(cell, timeout, recorder, runner=runner)
            done(cell)
        return
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="iorace-verify") as pool:
        futures = [pool.submit(_run, cell, timeout, runner) for cell in cells]
        try:
            for cell, future in zip(cells, futures, strict=True):
                _judge_and_record(cell, future.result(), recorder)
                done(cell)
        except KeyboardInterrupt:
            for f in futures:
                f.cancel()
            stop_all()
            raise


def _run(cell: Cell, timeout: float, runner: Runner) -> Run | OSError:
    sink = SINK_DIGEST if cell.suite.manifest.answer == "stdout" else SINK_NULL
    try:
        return run_once(cell.argv, timeout=timeout, sink=sink, env=env_for(cell), cwd=str(cell.build_dir), cpus=cell.cpus, runner=runner)
    except OSError as e:
        return e


def _judge_and_record(cell: Cell, run: Run | OSError, recorder: Recorder) -> None:
    if isinstance(run, OSError):
        cell.status, cell.detail = FAILED, f"cannot start {cell.argv[0]}: {run.strerror or run}"
        return
    judge(cell, run)
    metric_ns = run.metric_ns(cell.metric)  # the inner time where the program reports one, as the rounds compare
    cell.verify_ns = metric_ns if metric_ns is not None else run.wall_ns
    extra = (run.result or {}).get("extra")
    if isinstance(extra, dict):  # figures the program reports beside its answer (bytes per message, ...)
        cell.extra = {str(k): v for k, v in extra.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    recorder.add_run(cell, "verify", 0, run)
