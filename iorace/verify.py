"""Run every built cell once and check its answer against the reference before anything is timed."""
from __future__ import annotations

import json
import os

from iorace.cells import FAILED, OK, TIMEOUT, WRONG, Cell
from iorace.reference import same_answer
from iorace.runner import SINK_DIGEST, SINK_NULL, RunRecord, run_once


def _short(value: object, limit: int = 120) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def judge(cell: Cell, run: RunRecord) -> None:
    """Set the cell's status from one run: failed / timeout / wrong / ok, with the evidence in detail."""
    if run.timed_out:
        cell.status, cell.detail = TIMEOUT, "timed out (process group killed)"
        return
    if reason := run.failure():
        if cell.known_wrong and run.exit_code > 0:
            # The manifest says this strategy cannot be right here, and it refused cleanly (an error
            # message and an exit code, not a crash): that is the known wrong answer, shown as such.
            cell.status, cell.detail = WRONG, f"refused: {reason} (known: the manifest says this strategy cannot be right on this input)"
        else:
            cell.status, cell.detail = FAILED, reason
        return
    if cell.suite.manifest.answer == "stdout":
        cell.answer = run.stdout_sha256
    elif run.result is None:
        cell.status, cell.detail = FAILED, "printed no iorace-result line on stderr"
        return
    elif "_invalid" in run.result:
        cell.status, cell.detail = FAILED, f"unreadable result line: {run.result['_invalid']}"
        return
    elif "answer" not in run.result:
        cell.status, cell.detail = FAILED, "its iorace-result line has no answer"
        return
    else:
        cell.answer = run.result["answer"]
    if same_answer(cell.answer, cell.expected):
        cell.status, cell.detail = OK, ""
        return
    cell.status = WRONG
    cell.detail = f"answered {_short(cell.answer)}, expected {_short(cell.expected)}"
    if cell.known_wrong:
        cell.detail += " (known: the manifest says this strategy cannot be right on this input)"


def env_for(cell: Cell) -> dict:
    return {**os.environ, **cell.variant.env}


def verify(cell: Cell, timeout: float, store) -> RunRecord | None:
    sink = SINK_DIGEST if cell.suite.manifest.answer == "stdout" else SINK_NULL
    try:
        run = run_once(cell.argv, timeout=timeout, sink=sink, env=env_for(cell), cwd=str(cell.build_dir))
    except OSError as e:
        cell.status, cell.detail = FAILED, f"cannot start {cell.argv[0]}: {e.strerror or e}"
        return None
    judge(cell, run)
    extra = (run.result or {}).get("extra")
    if isinstance(extra, dict):  # figures the program reports beside its answer (bytes per message, ...)
        cell.extra = {str(k): v for k, v in extra.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    store.add_run(cell, "verify", 0, run)
    return run
