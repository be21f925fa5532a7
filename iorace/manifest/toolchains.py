"""Find toolchains on this machine and read their versions."""

from __future__ import annotations

import functools
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass

from iorace.manifest.schema import Toolchain


@dataclass(frozen=True)
class Probe:
    available: bool
    version: str  # the first non-empty line the version command printed
    reason: str  # why it is not available ("" when it is)


@functools.cache
def _probe(command: str, version_cmd: str, install: str) -> Probe:
    if shutil.which(command) is None:
        hint = f" ({install})" if install else ""
        return Probe(False, "", f"{command} not found{hint}")
    try:
        proc = subprocess.run(shlex.split(version_cmd), capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return Probe(False, "", f"{version_cmd!r} failed: {e}")
    text = (proc.stdout + "\n" + proc.stderr).strip()
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if proc.returncode != 0:
        return Probe(False, "", f"{version_cmd!r} exited {proc.returncode}: {first}")
    return Probe(True, first, "")


def harness_python() -> str:
    """The interpreter running iorace: the project venv that `scripts/setup` fills with the suites' Python
    packages. Python variants run on it ({python}), not on whatever `python3` comes first on PATH."""
    return sys.executable


def expand(text: str) -> str:
    """A toolchain field with {python} replaced by the harness's own interpreter."""
    return text.replace("{python}", harness_python())


def probe(tc: Toolchain) -> Probe:
    return _probe(expand(tc.command), expand(tc.version), tc.install)
