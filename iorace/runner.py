"""Run one variant process and measure it: wall time, rusage from wait4, the program's own result line.

The program is started by iorace-spawn (spawn.c), a tiny C launcher that
forks, execs and reaps it and reports wait4's rusage: see spawn.c for why max
RSS needs that. Each run gets its own process group (so a timeout kills
everything it started) and stderr goes to a temporary file (no reader thread
competing for the CPU).
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from iorace.errors import UsageError
from iorace.paths import cache_dir

RESULT_PREFIX = "iorace-result "
STDERR_TAIL_BYTES = 8192

# Where a run's stdout goes.
SINK_NULL = "null"      # /dev/null (timed runs, default)
SINK_PIPE = "pipe"      # a pipe drained by the harness (timed runs with --sink pipe)
SINK_DIGEST = "digest"  # a pipe whose bytes the harness hashes (verification of stdout suites)


@dataclass
class RunRecord:
    wall_ns: int
    user_ns: int
    sys_ns: int
    max_rss_kb: int
    minflt: int
    majflt: int
    nvcsw: int
    nivcsw: int
    exit_code: int          # negative: killed by that signal
    timed_out: bool
    inner_ns: int | None
    result: dict | None     # the parsed iorace-result object
    stderr_tail: str
    stdout_sha256: str = ""
    stdout_bytes: int = 0

    def failure(self) -> str:
        """'' for a clean exit, else a one-line reason with the last stderr line."""
        if self.timed_out:
            return "timed out (process group killed)"
        if self.exit_code == 0:
            return ""
        if self.exit_code < 0:
            try:
                why = f"killed by {signal.Signals(-self.exit_code).name}"
            except ValueError:
                why = f"killed by signal {-self.exit_code}"
        else:
            why = f"exit code {self.exit_code}"
        last = [ln for ln in self.stderr_tail.splitlines() if ln.strip() and not ln.startswith(RESULT_PREFIX)]
        return f"{why}: {last[-1].strip()}" if last else why


SPAWN_SOURCE = Path(__file__).resolve().parent / "spawn.c"


@functools.cache
def launcher() -> str:
    """Build iorace-spawn once per source version into the cache; return its path."""
    source = SPAWN_SOURCE.read_bytes()
    path = cache_dir() / "tools" / f"iorace-spawn-{hashlib.sha256(source).hexdigest()[:12]}"
    if path.exists():
        return str(path)
    cc = next((c for c in ("cc", "gcc", "clang") if shutil.which(c)), None)
    if cc is None:
        raise UsageError("iorace needs a C compiler to build its process launcher (apt-get install gcc)")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    proc = subprocess.run([cc, "-O2", "-o", str(tmp), str(SPAWN_SOURCE)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise UsageError(f"cannot build the process launcher with {cc}: {proc.stderr.strip().splitlines()[-1:]}")
    tmp.rename(path)
    return str(path)


def _parse_result(stderr_tail: str) -> dict | None:
    for line in reversed(stderr_tail.splitlines()):
        if line.startswith(RESULT_PREFIX):
            try:
                value = json.loads(line[len(RESULT_PREFIX):])
            except json.JSONDecodeError:
                return {"_invalid": line[:200]}
            return value if isinstance(value, dict) else {"_invalid": line[:200]}
    return None


def _drain(stream, digest: bool, out: dict) -> None:
    h = hashlib.sha256() if digest else None
    n = 0
    while block := stream.read(1 << 20):
        n += len(block)
        if h is not None:
            h.update(block)
    out["sha256"] = h.hexdigest() if h is not None else ""
    out["bytes"] = n


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_once(argv: list[str], *, timeout: float, sink: str = SINK_NULL, env: dict | None = None,
             cwd: str | None = None) -> RunRecord:
    """Start argv through iorace-spawn, wait for it, and return what it cost and what it said."""
    report_r, report_w = os.pipe()
    with tempfile.TemporaryFile() as err, os.fdopen(report_r, "rb") as report:
        stdout = subprocess.DEVNULL if sink == SINK_NULL else subprocess.PIPE
        timed_out = threading.Event()
        drained: dict = {}
        start = time.perf_counter_ns()
        try:
            proc = subprocess.Popen([launcher(), str(report_w), *argv], stdin=subprocess.DEVNULL, stdout=stdout,
                                    stderr=err, start_new_session=True, env=env, cwd=cwd, pass_fds=(report_w,))
        finally:
            os.close(report_w)
        pgid = proc.pid  # start_new_session: the launcher leads its own group, the program is in it

        def on_timeout():
            timed_out.set()
            _kill_group(pgid)

        timer = threading.Timer(timeout, on_timeout)
        timer.daemon = True
        timer.start()
        reader = None
        if proc.stdout is not None:
            reader = threading.Thread(target=_drain, args=(proc.stdout, sink == SINK_DIGEST, drained), daemon=True)
            reader.start()
        try:
            _, launcher_status, ru = os.wait4(proc.pid, 0)
            fallback_wall = time.perf_counter_ns() - start
        except BaseException:  # Ctrl-C while waiting: take the run's whole process group down with us
            _kill_group(pgid)
            proc.wait()
            raise
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(launcher_status)  # reaped by us: Popen must not wait again
        _kill_group(pgid)  # anything the program left behind (it could hold our pipe open)
        if reader is not None:
            reader.join()
            proc.stdout.close()
        line = report.read().decode().split()
        err.seek(0, os.SEEK_END)
        size = err.tell()
        err.seek(max(0, size - STDERR_TAIL_BYTES))
        tail = err.read().decode("utf-8", "replace")
    if len(line) == 9:  # the launcher reaped the program: its own numbers are exact
        wall, user, system, rss, minflt, majflt, nvcsw, nivcsw, status = map(int, line)
        exit_code = os.waitstatus_to_exitcode(status)
    else:  # the launcher itself was killed (timeout): only our own clock is left
        wall, user, system, rss = fallback_wall, int(ru.ru_utime * 1e9), int(ru.ru_stime * 1e9), ru.ru_maxrss
        minflt, majflt, nvcsw, nivcsw, exit_code = ru.ru_minflt, ru.ru_majflt, ru.ru_nvcsw, ru.ru_nivcsw, proc.returncode
    result = _parse_result(tail)
    inner = result.get("inner_ns") if result else None
    return RunRecord(
        wall_ns=wall, user_ns=user, sys_ns=system, max_rss_kb=rss, minflt=minflt, majflt=majflt, nvcsw=nvcsw,
        nivcsw=nivcsw, exit_code=exit_code, timed_out=timed_out.is_set() and exit_code == -signal.SIGKILL,
        inner_ns=int(inner) if isinstance(inner, (int, float)) and not isinstance(inner, bool) else None,
        result=result, stderr_tail=tail, stdout_sha256=drained.get("sha256", ""), stdout_bytes=drained.get("bytes", 0))
