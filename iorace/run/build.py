"""Build cells into a content-addressed cache: same sources + toolchain + flags = no rebuild."""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from iorace.core.errors import UsageError
from iorace.core.paths import cache_dir
from iorace.manifest.cells import BUILD_FAILED, SKIPPED, Cell
from iorace.manifest.toolchains import harness_python, probe

if TYPE_CHECKING:
    from _hashlib import HASH  # what hashlib.sha256() returns

BUILD_FORMAT = "1"  # bump to invalidate every cached build
BUILD_TIMEOUT = 1200
LOG_TAIL_LINES = 12


def _hash_path(h: HASH, path: Path, rel: str) -> None:
    if path.is_dir():
        for p in sorted(path.rglob("*")):
            if p.is_file() and "target" not in p.relative_to(path).parts:
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
    context = {**_variables(cell, cell.build_dir or Path(".")), **{k: str(v) for k, v in cell.params.items()}, "input": str(input_path)}
    try:
        return [part.format_map(context) for part in [*cell.toolchain.run, *cell.variant.args]]
    except (KeyError, IndexError, ValueError) as e:
        raise UsageError(f"{cell.suite.dir / 'suite.toml'}: variant {cell.variant.key}: args: unknown variable {e}") from None


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


def build(cell: Cell) -> None:
    """Build one cell (or find it cached); sets cell.build_dir, or marks it skipped/build-failed."""
    pr = probe(cell.toolchain)
    if not pr.available:
        cell.status, cell.detail = SKIPPED, pr.reason
        return
    cell.toolchain_version = pr.version
    cell.build_key = build_key(cell)
    final = cache_dir() / "build" / cell.build_key
    cell.build_dir = final
    if (final / ".built").exists():
        return
    tmp = final.with_name(final.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (cache_dir() / "work" / cell.suite.name / cell.toolchain.name).mkdir(parents=True, exist_ok=True)
    command = build_command(cell, tmp)
    if command.strip():
        try:
            proc = subprocess.run(
                ["bash", "-c", command],
                cwd=tmp,
                capture_output=True,
                text=True,
                timeout=BUILD_TIMEOUT,
                env={**os.environ, **cell.variant.env},
            )
            output, code = proc.stdout + proc.stderr, proc.returncode
        except subprocess.TimeoutExpired:
            output, code = f"build timed out after {BUILD_TIMEOUT} s", -1
        (tmp / "build.log").write_text(f"$ {command}\n{output}")
        if code != 0:
            tail = "\n".join(output.strip().splitlines()[-LOG_TAIL_LINES:])
            cell.status, cell.detail = BUILD_FAILED, f"exit {code}: {tail}"
            cell.build_dir = None
            shutil.rmtree(tmp, ignore_errors=True)
            return
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
