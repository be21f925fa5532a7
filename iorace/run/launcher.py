"""Run variant processes and measure them: wall time, rusage from wait4, the program's own result line.

Programs are started by iorace-spawn (spawn.c), a tiny C launcher that runs a
whole list of runs (a verification run, or a measuring phase's rounds) by
itself: it times each with CLOCK_MONOTONIC around posix_spawn and wait4,
enforces the per-run timeout, and kills and reaps everything a run left behind
(it is a child subreaper). The harness waits in one wait4 until the list is
done, so no Python code or thread runs between or beside timed runs. Each
run's stderr goes to its own file (in /dev/shm when there is one), read once
the list is done.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

from iorace.core.errors import UsageError
from iorace.core.paths import cache_dir
from iorace.store.run import RESULT_PREFIX, Run

STDERR_TAIL_BYTES = 8192
UNKNOWN_WHEN_NEGATIVE = ("host_busy_ns", "host_steal_ns")
WATCHDOG_GRACE_S = 60.0  # the launcher enforces timeouts; this only guards against the launcher itself hanging

# Where a run's stdout goes.
SINK_NULL = "null"  # /dev/null (timed runs, default)
SINK_PIPE = "pipe"  # a pipe drained by the launcher (timed runs with --sink pipe)
SINK_DIGEST = "digest"  # a pipe whose bytes the harness hashes (verification of stdout suites)


@dataclass
class Job:
    """One command the launcher may run several times (a cell of a measuring phase)."""

    argv: list[str]
    timeout: float
    sink: str = SINK_NULL  # SINK_NULL, SINK_PIPE or SINK_DIGEST (the launcher's own stdout, which the harness hashes)
    env: dict | None = None
    cwd: str | None = None
    cpus: tuple[int, ...] = ()  # the CPUs it runs on (the launcher's affinity while it starts it); (): any


class Runner(Protocol):
    """What makes a list of runs: run_batch (the launcher), or a test's fake that returns scripted records.

    schedule holds job numbers, in order; the answer has one record per scheduled run (None for a run
    not made) and whether the list was interrupted. on_stdout(stream) reads the digest sink's stdout.
    """

    def __call__(
        self, jobs: list[Job], schedule: list[int], *, on_stdout: Callable[[IO[bytes]], None] | None = None
    ) -> tuple[list[Run | None], bool]: ...


SPAWN_SOURCE = Path(__file__).resolve().parent / "spawn.c"
REPLACE_PAGES_SOURCE = Path(__file__).resolve().parent / "replace_pages.c"


@functools.cache
def launcher() -> str:
    """Build iorace-spawn once per source version into the cache; return its path."""
    return _tool("iorace-spawn", SPAWN_SOURCE, "its process launcher")


@functools.cache
def page_replacer() -> str:
    """Build iorace-replace-pages (replace_pages.c: drop a file's cached pages and read it back) once."""
    return _tool("iorace-replace-pages", REPLACE_PAGES_SOURCE, "its page re-placer")


_tool_lock = threading.Lock()  # verification runs launchers from several threads: one builds a missing tool


def _tool(name: str, source_path: Path, what: str) -> str:
    """A small C tool of the harness, built once per source version into the cache; its path. Under a lock: on a
    fresh cache, two verification threads both found the launcher missing, both compiled it to one temporary
    name, and the second rename failed (a cell reported as "cannot start", on a fresh clone's make bench)."""
    with _tool_lock:
        return _build_tool(name, source_path, what)


def _build_tool(name: str, source_path: Path, what: str) -> str:
    source = source_path.read_bytes()
    path = cache_dir() / "tools" / f"{name}-{hashlib.sha256(source).hexdigest()[:12]}"
    if path.exists():
        return str(path)
    cc = next((c for c in ("cc", "gcc", "clang") if shutil.which(c)), None)
    if cc is None:
        raise UsageError(f"iorace needs a C compiler to build {what} (apt-get install gcc)")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    proc = subprocess.run([cc, "-O2", "-pthread", "-o", str(tmp), str(source_path)], check=False, capture_output=True, text=True)
    if proc.returncode != 0:
        raise UsageError(f"cannot build {what} with {cc}: {proc.stderr.strip().splitlines()[-1:]}")
    tmp.rename(path)
    return str(path)


def _parse_result(stderr_tail: str) -> dict | None:
    for line in reversed(stderr_tail.splitlines()):
        if line.startswith(RESULT_PREFIX):
            try:
                value = json.loads(line[len(RESULT_PREFIX) :])
            except json.JSONDecodeError:
                return {"_invalid": line[:200]}
            return value if isinstance(value, dict) else {"_invalid": line[:200]}
    return None


def _resolve(argv0: str, env: Mapping[str, str]) -> str:
    """The launcher does not search PATH: look the program up here, in the PATH the run will have."""
    if "/" in argv0:
        return argv0
    return shutil.which(argv0, path=env.get("PATH", os.defpath)) or argv0


def _plan(jobs: list[Job], schedule: list[int], errdir: str) -> bytes:
    fields = ["iorace-plan-2", errdir, str(len(jobs))]
    for job in jobs:
        env = os.environ if job.env is None else job.env
        sink = {SINK_DIGEST: "inherit"}.get(job.sink, job.sink)
        fields += [
            job.cwd or "",
            sink,
            str(max(1, round(job.timeout * 1000))),
            ",".join(map(str, job.cpus)),
            str(len(job.argv)),
            _resolve(job.argv[0], env),
            *job.argv[1:],
            str(len(env)),
            *(f"{k}={v}" for k, v in env.items()),
        ]
    fields += [str(len(schedule)), *map(str, schedule)]
    if any("\0" in f for f in fields):
        raise UsageError("a command line or environment value contains a NUL byte")
    return b"".join(os.fsencode(f) + b"\0" for f in fields)


def _scratch() -> str | None:
    """Where runs' stderr files go: a RAM file system (/dev/shm) when there is one, so that a program's
    stderr costs what writing to /dev/null costs (hyperfine's default), not a disk file system's write."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def _tail(path: str) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - STDERR_TAIL_BYTES))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def parse_report(lines: list[str], run_type: type[Run] = Run) -> dict[int, dict[str, Any]]:
    """The launcher's report: a header line naming its fields ("i job" then fields of Run), then one line
    per run. Returns {run number in the schedule: its values by field name, each of the type Run declares}.
    A run that was skipped ("i job skipped") or whose line a kill cut short is missing."""
    if not lines:
        return {}
    header = lines[0].split()
    types = typing.get_type_hints(run_type)
    unknown = [name for name in header[2:] if name not in types]
    if header[:2] != ["i", "job"] or unknown:
        raise RuntimeError(f"iorace-spawn's report names {' '.join(unknown or header[:2])}, which {run_type.__name__} does not declare")
    runs = {}
    for line in lines[1:]:
        values = line.split()
        if len(values) != len(header):
            continue
        run: dict[str, int | bool | None] = {
            name: bool(int(v)) if types[name] is bool else int(v) for name, v in zip(header[2:], values[2:], strict=True)
        }
        for name in UNKNOWN_WHEN_NEGATIVE:  # the launcher's -1: it could not read the machine's figure
            if (value := run.get(name)) is not None and value < 0:
                run[name] = None
        runs[int(values[0])] = run
    return runs


def _record(values: dict[str, Any], job: Job, err_path: str) -> Run:
    tail = _tail(err_path)
    result = _parse_result(tail)
    inner = result.get("inner_ns") if result else None
    return Run(
        **values,
        inner_ns=int(inner) if isinstance(inner, (int, float)) and not isinstance(inner, bool) else None,
        result=result,
        stderr_tail=tail,
        timeout_s=job.timeout,
    )


_live: set[subprocess.Popen] = set()  # launchers running now (verification runs several at once, in threads)
_live_lock = threading.Lock()


def stop_all() -> None:
    """Ask every launcher running now to stop, as Ctrl-C does one: each kills its current run, reaps it and
    ends. A launcher is in a session of its own, so only the thread that waits for it would otherwise know."""
    with _live_lock:
        for proc in _live:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)


def run_batch(
    jobs: list[Job], schedule: list[int], *, on_stdout: Callable[[IO[bytes]], None] | None = None
) -> tuple[list[Run | None], bool]:
    """Run schedule (job numbers, in order) through one launcher; Python sleeps until it is done.

    Returns one record per scheduled run (None for a run not made: its job failed earlier in the list,
    or the list was interrupted) and whether Ctrl-C interrupted it. on_stdout(stream) reads the
    launcher's stdout (the "inherit"/digest sink) while the runs go on.
    """
    with tempfile.TemporaryDirectory(prefix="iorace-runs-", dir=_scratch()) as tmp:
        plan_path, report_path = os.path.join(tmp, "plan"), os.path.join(tmp, "report")
        with open(plan_path, "wb") as f:
            f.write(_plan(jobs, schedule, tmp))
        with open(os.path.join(tmp, "launcher.err"), "w+b") as lerr:
            proc = subprocess.Popen(
                [launcher(), plan_path, report_path],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE if on_stdout else subprocess.DEVNULL,
                stderr=lerr,
                start_new_session=True,
            )
            limit = sum(jobs[j].timeout for j in schedule) + WATCHDOG_GRACE_S
            watchdog = threading.Timer(limit, lambda: _kill_group(proc.pid))
            watchdog.daemon = True
            watchdog.start()
            interrupted = False
            with _live_lock:
                _live.add(proc)
            try:
                if on_stdout is not None and proc.stdout is not None:
                    on_stdout(proc.stdout)
                    proc.stdout.close()
                proc.wait()
            except KeyboardInterrupt:  # Ctrl-C: the launcher kills the current run, reaps it and stops
                interrupted = True
                proc.send_signal(signal.SIGTERM)
                proc.wait()
            finally:
                watchdog.cancel()
                with _live_lock:
                    _live.discard(proc)
            lerr.seek(0)
            launcher_err = lerr.read().decode("utf-8", "replace").strip()
        if proc.returncode not in (0, 128 + signal.SIGTERM):
            raise OSError(f"iorace-spawn failed (status {proc.returncode}): {launcher_err or 'no message'}")
        records: list[Run | None] = [None] * len(schedule)
        try:
            with open(report_path) as f:
                lines = f.read().splitlines()
        except OSError:
            lines = []
        for i, values in parse_report(lines).items():
            records[i] = _record(values, jobs[schedule[i]], os.path.join(tmp, str(i)))
        if not interrupted and proc.returncode != 0:
            interrupted = True  # stopped by a signal from elsewhere: treat as Ctrl-C
    return records, interrupted


def _digest(stream: IO[bytes], out: dict) -> None:
    h = hashlib.sha256()
    n = 0
    while block := stream.read(1 << 20):
        n += len(block)
        h.update(block)
    out["sha256"] = h.hexdigest()
    out["bytes"] = n


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def run_once(
    argv: list[str],
    *,
    timeout: float,
    sink: str = SINK_NULL,
    env: dict | None = None,
    cwd: str | None = None,
    cpus: tuple[int, ...] = (),
    runner: Runner = run_batch,
) -> Run:
    """Start argv through iorace-spawn (or the runner given), wait for it, and return what it cost and what it said."""
    drained: dict = {}
    on_stdout = (lambda stream: _digest(stream, drained)) if sink == SINK_DIGEST else None
    records, interrupted = runner([Job(argv, timeout, sink, env, cwd, cpus)], [0], on_stdout=on_stdout)
    if interrupted:
        raise KeyboardInterrupt
    run = records[0]
    if run is None:
        raise OSError("iorace-spawn ended without reporting the run")
    run.stdout_sha256, run.stdout_bytes = drained.get("sha256", ""), drained.get("bytes", 0)
    return run
