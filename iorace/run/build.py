"""Build cells into a content-addressed cache: same sources + toolchain + flags = no rebuild."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from iorace.core.errors import UsageError
from iorace.core.paths import cache_dir
from iorace.core.status import Status
from iorace.manifest.cells import BUILD_FAILED, PLANNED, SKIPPED, Cell
from iorace.manifest.toolchains import harness_python, probe

if TYPE_CHECKING:
    from _hashlib import HASH  # what hashlib.sha256() returns

BUILD_FORMAT = "1"  # bump to invalidate every cached build
BUILD_TIMEOUT = 1200
LOG_TAIL_LINES = 12


def _hash_path(h: HASH, path: Path, rel: str) -> None:
    if path.is_dir():
        for p in sorted(path.rglob("*")):
            # not what builds write there: cargo's target/, Python's bytecode (a run imports the kit's module)
            if p.is_file() and not {"target", "__pycache__"} & set(p.relative_to(path).parts):
                _hash_path(h, p, f"{rel}/{p.relative_to(path)}")
    elif path.exists():
        h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    else:
        raise FileNotFoundError(rel)


PATH_VARIABLES = ("src", "dir", "main", "out", "work", "python")


def _variables(cell: Cell, out: Path) -> dict[str, str]:
    """Template variables of a cell, unquoted: {src} {dir} {sources} {main} {stem} {bin} {out} {work}
    {flags} {link}, plus every variable of the chosen profile."""
    v = cell.variant
    suite_dir = cell.suite.dir
    sources = [suite_dir / s for s in v.sources]
    return {
        **cell.toolchain.profiles.get(cell.profile, {}),
        "src": str(suite_dir),
        "dir": str(suite_dir / (v.dir or v.language)),
        "sources": " ".join(shlex.quote(str(s)) for s in sources),
        "main": str(sources[0]),
        "stem": sources[0].stem,
        "bin": v.bin or v.name,
        "out": str(out),
        "work": str(cache_dir() / "work" / cell.suite.name / cell.toolchain.name),
        "flags": v.flags,
        "link": v.link,
        "python": harness_python(),
    }


def build_command(cell: Cell, out: Path) -> str:
    """The bash command that builds a cell: paths are quoted, manifest words (flags) are kept as words."""
    variables = _variables(cell, out)
    for k in PATH_VARIABLES:
        variables[k] = shlex.quote(variables[k])
    profile = cell.toolchain.profiles.get(cell.profile, {})
    template = profile.get("build", cell.toolchain.build)
    try:
        return template.format_map(variables)
    except (KeyError, IndexError, ValueError) as e:
        raise UsageError(
            f"{cell.suite.dir / 'suite.toml'}: toolchain {cell.toolchain.name}: build template: unknown variable {e}"
        ) from None


def run_argv(cell: Cell, input_path: Path) -> list[str]:
    """The command line of one run: the toolchain's run template, then the variant's args (no shell)."""
    return argv_with(cell, input_path, cell.variant.args)


def argv_with(cell: Cell, input_path: Path, args: list[str], field: str = "args", **more: str) -> list[str]:
    """The toolchain's run template, then `args` (the variant's, or a suite's encoded_args), each {name} of the
    cell's parameters, its build's variables, {input} and the `more` given filled in; `field` names the manifest
    field the args come from, for the error that points at it."""
    context = {**_variables(cell, cell.build_dir or Path(".")), **{k: str(v) for k, v in cell.params.items()}, "input": str(input_path)}
    context.update(more)
    try:
        return [part.format_map(context) for part in [*cell.toolchain.run, *args]]
    except (KeyError, IndexError, ValueError) as e:
        raise UsageError(f"{cell.suite.dir / 'suite.toml'}: variant {cell.variant.key}: {field}: unknown variable {e}") from None


def build_key(cell: Cell) -> str:
    h = hashlib.sha256(BUILD_FORMAT.encode())
    v = cell.variant
    for rel in [*v.sources, *v.deps]:
        try:
            _hash_path(h, cell.suite.dir / rel, rel)
        except FileNotFoundError:
            raise UsageError(f"{cell.suite.dir / 'suite.toml'}: variant {v.key}: {rel} does not exist") from None
    profile = cell.toolchain.profiles.get(cell.profile, {})
    for part in (
        cell.suite.name,
        cell.toolchain.name,
        cell.toolchain_version,
        cell.toolchain.build,
        repr(sorted(profile.items())),
        v.flags,
        v.link,
        v.bin or v.name,
        v.language,
        v.dir or "",
    ):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:24]


@dataclass(frozen=True)
class Outcome:
    """What building one key gave: where it is, or why there is nothing (the cells of the key share it)."""

    build_dir: Path | None
    status: Status = PLANNED
    detail: str = ""

    def apply(self, cell: Cell) -> None:
        cell.build_dir = self.build_dir
        if self.status != PLANNED:
            cell.status, cell.detail = self.status, self.detail


def build(cell: Cell) -> None:
    """Build one cell (or find it cached); sets cell.build_dir, or marks it skipped/build-failed."""
    prepare(cell)
    if cell.status == PLANNED:
        compile_key(cell).apply(cell)


def prepare(cell: Cell) -> None:
    """Probe the cell's toolchain (cached per toolchain) and compute its build key; a missing toolchain
    makes it skipped. Cells with one build key are built once (compile_key), then share the outcome."""
    pr = probe(cell.toolchain)
    if not pr.available:
        cell.status, cell.detail = SKIPPED, pr.reason
        return
    cell.toolchain_version = pr.version
    cell.build_key = build_key(cell)


_running: set[subprocess.Popen] = set()  # build commands running now, in any thread
_running_lock = threading.Lock()
_stopped = threading.Event()  # set by stop_builds: no build command starts until resume_builds


def stop_builds() -> None:
    """Kill every build command running (Ctrl-C in the main thread while worker threads build): its whole
    process group, the compilers it started too; and start none until resume_builds()."""
    with _running_lock:
        _stopped.set()
        for proc in _running:
            _kill_group(proc)


def _kill_group(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def resume_builds() -> None:
    _stopped.clear()


def run_command(command: str, cwd: Path, env: dict[str, str]) -> tuple[str, int]:
    """Run a build command in its own process group (stop_builds kills it whole); its output and exit code."""
    with _running_lock:
        if _stopped.is_set():
            return "build stopped: the session was interrupted", -1
        proc = subprocess.Popen(
            ["bash", "-c", command],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            start_new_session=True,
        )
        _running.add(proc)
    try:
        try:
            output, _ = proc.communicate(timeout=BUILD_TIMEOUT)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            proc.communicate()
            return f"build timed out after {BUILD_TIMEOUT} s", -1
        return output, proc.returncode
    finally:
        with _running_lock:
            _running.discard(proc)
        if proc.returncode is None:  # interrupted in this thread (Ctrl-C): nothing of the build outlives it
            _kill_group(proc)
            proc.wait()


@contextlib.contextmanager
def _key_lock(final: Path) -> Iterator[bool]:
    """Hold the key's lock (a file beside its folder, KEY.lock) while building it: another iorace process
    that wants the same key (two sessions at once, or a test run in several workers) waits and then finds it
    built, instead of building it too. Yields False if the session was interrupted while waiting. The kernel
    drops the lock of a process that dies, so a killed build leaves nothing to wait for."""
    final.parent.mkdir(parents=True, exist_ok=True)
    with open(final.with_name(final.name + ".lock"), "a") as f:
        while True:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if _stopped.is_set():
                    yield False
                    return
                time.sleep(0.1)
        try:
            yield True
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def compile_key(cell: Cell) -> Outcome:
    """Build the key of a prepared cell into the cache (or find it there). Reads the cell, changes nothing
    (safe in a worker thread): the caller applies the outcome to every cell of the key. One key is built by
    one thread at a time (its temp dir is named after the process), and by one process at a time (_key_lock)."""
    assert cell.build_key, f"{cell.label}: prepare() first"
    final = cache_dir() / "build" / cell.build_key
    if (final / ".built").exists():
        return Outcome(final)
    with _key_lock(final) as locked:
        if not locked:
            return Outcome(None, BUILD_FAILED, "build stopped: the session was interrupted")
        return _compile_locked(cell, final)


def _compile_locked(cell: Cell, final: Path) -> Outcome:
    if (final / ".built").exists():  # built by another process while this one waited for the lock
        return Outcome(final)
    tmp = final.with_name(final.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (cache_dir() / "work" / cell.suite.name / cell.toolchain.name).mkdir(parents=True, exist_ok=True)
    command = build_command(cell, tmp)
    if command.strip():
        output, code = run_command(command, tmp, {**os.environ, **cell.variant.env})
        (tmp / "build.log").write_text(f"$ {command}\n{output}")
        if code != 0:
            tail = "\n".join(output.strip().splitlines()[-LOG_TAIL_LINES:])
            shutil.rmtree(tmp, ignore_errors=True)
            return Outcome(None, BUILD_FAILED, f"exit {code}: {tail}")
    # Built in a temp dir and renamed, so an interrupted build never looks finished. Another iorace
    # process may have finished the same build meanwhile: then its copy stands and ours goes.
    (tmp / ".built").write_text(command)
    if final.exists() and not (final / ".built").exists():
        shutil.rmtree(final, ignore_errors=True)  # a stale partial build (older iorace)
    try:
        tmp.rename(final)
    except OSError:
        if not (final / ".built").exists():
            raise
        shutil.rmtree(tmp, ignore_errors=True)
    return Outcome(final)
