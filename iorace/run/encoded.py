"""The bytes each cell encodes, sized by the harness itself (a suite's `encoded_args`): once a cell is verified,
its program is run once more, untimed, with those arguments, and writes the bytes it encodes to a file; their
size, zlib (level 6) and zstd (level 3) sizes become the cell's `bytes`, `zlib` and `zstd` figures, shown beside
its time in every format (the `extra` columns). One compressor for every cell, so that sizes compare across
languages and libraries; a program's own idea of its size is not asked for.

Cells of one build, data set and arguments write the same bytes (an encode and a decode cell of one program, two
pass counts): their program runs once."""

from __future__ import annotations

import subprocess
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

import zstandard

from iorace.manifest.cells import FAILED, OK, Cell
from iorace.run.build import argv_with
from iorace.run.verify import env_for

FIGURES = ("bytes", "zlib", "zstd")  # the figures each cell gets, in this order
ZLIB_LEVEL, ZSTD_LEVEL = 6, 3  # each library's default level


def sizes(data: bytes) -> dict[str, float]:
    """The encoded bytes' size, and their size compressed by zlib and zstd at their default levels."""
    return {
        "bytes": len(data),
        "zlib": len(zlib.compress(data, ZLIB_LEVEL)),
        "zstd": len(zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(data)),
    }


def size_encodings(cells: list[Cell], timeout: float, done: Callable[[Cell], None]) -> None:
    """Give each verified cell of a suite with `encoded_args` its encoding's sizes (cell.extra); a program that
    cannot write its encoding fails its cell, saying why (the suite promised it)."""
    seen: dict[tuple[str, ...], dict[str, float] | str] = {}
    with tempfile.TemporaryDirectory(prefix="iorace-encoded-") as tmp:
        for cell in cells:
            args = cell.suite.manifest.encoded_args
            if cell.status != OK or not args or cell.dataset.path is None:
                continue
            output = Path(tmp) / "encoded"
            argv = argv_with(cell, cell.dataset.path, args, field="encoded_args", output=str(output))
            key = (cell.build_key, str(cell.dataset.path), *argv)
            if key not in seen:
                seen[key] = _encode(cell, argv, output, timeout)
            outcome = seen[key]
            if isinstance(outcome, str):
                cell.status, cell.detail = FAILED, outcome
            else:
                cell.extra = {**cell.extra, **outcome}
            done(cell)


def _encode(cell: Cell, argv: list[str], output: Path, timeout: float) -> dict[str, float] | str:
    output.unlink(missing_ok=True)
    shown = " ".join(argv[len(cell.toolchain.run) :])
    try:
        proc = subprocess.run(argv, env=env_for(cell), cwd=str(cell.build_dir), capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return f"writing its encoding ({shown}) took more than {timeout:g} s"
    except OSError as e:
        return f"cannot start {argv[0]} to write its encoding: {e.strerror or e}"
    if proc.returncode != 0 or not output.exists():
        said = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["nothing"]
        why = f"exit {proc.returncode}" if proc.returncode != 0 else "no file written"
        return f"writing its encoding ({shown}) failed, {why}: {said[0][:200]} (suite.toml's encoded_args)"
    return sizes(output.read_bytes())
