"""The formats suite's untimed checks, driven through the programs the harness built: each cell's command line
(from `iorace run formats --check-only --export-json`) less its `CANON OP PASSES` is the program, which also
takes `--emit CANON OUT` (encode the canonical data once, write the bytes) and `--decode FILE` (print the
digest of what it decoded); a zero-copy format's program also takes `--read FILE` (the visit checksum). Used by tests/test_formats.py (the interop matrix) and sizes.py (the size table)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SUITE = Path(__file__).resolve().parent


def wire_format(variant: str, language: str = "") -> str:
    """The format a variant writes and reads: its name's first word (json-fast is JSON, read by every JSON decoder
    and reading every JSON encoder's bytes; json, msgpack and protobuf are themselves). A native variant's format
    (native, native-bitcode: a language's own) is language-local, VARIANT@LANGUAGE (native@go): its own program's."""
    if is_native(variant):
        return f"{variant}@{language}"
    return re.split(r"[-_]", variant)[0]


# --- native formats: a language's own (postcard, bitcode, gob, pickle, Kryo, cereal), read by no other language -----
def is_native(variant: str) -> bool:
    """A native variant (native, native-...): its wire format is its language's own, in no interop matrix."""
    return variant == "native" or variant.startswith("native-")


def language_local(fmt: str) -> bool:
    """A wire format (wire_format's) that only its own program reads: a native one, VARIANT@LANGUAGE."""
    return "@" in fmt


# --- end of native formats ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    language: str
    format: str  # the wire format: json | msgpack | cbor | protobuf | flatbuffers | capnp | native@LANG (wire_format of the variant)
    argv: list[str]  # the program, without its arguments
    description: str
    variant: str = ""  # the manifest's variant name (json, json-fast, msgpack, ...); "" is the format's own

    @property
    def key(self) -> str:
        """The program among its format's: its language, or language/variant for a format's second library
        (cpp/json-fast beside cpp for JSON)."""
        return self.language if self.variant in ("", self.format) else f"{self.language}/{self.variant}"


@dataclass
class Checked:
    cells: list[dict]  # the export's cells (iorace_unmeasured)
    programs: list[Program]  # one per language x variant (the first toolchain of each)
    canonical: Path  # the dataset the cells ran on
    expected: str  # the reference digest
    checksum: str = ""  # op=read's reference: the visit checksum (README), "" when no read cell ran


def check_only(size: str, workdir: Path, extra: list[str] | None = None) -> Checked:
    """Run the suite's cells through the harness (verification only) and return them with their programs."""
    export = workdir / "cells.json"
    command = [sys.executable, "-m", "iorace", "run", "formats", "--suite-dir", str(SUITE.parent), "--size", size]
    command += ["--check-only", "--db", str(workdir / "db.sqlite"), "--export-json", str(export), *(extra or [])]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    if not export.exists():
        raise RuntimeError(f"iorace run failed ({proc.returncode}): {proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    cells = json.loads(export.read_text())["iorace_unmeasured"]
    programs: dict[tuple[str, str], Program] = {}
    canonical, expected, checksum = Path(), "", ""
    for c in cells:
        if c["status"] != "ok" or not c["command"]:
            continue
        argv = shlex.split(c["command"])
        if c["parameters"].get("op") == "read":  # its answer is the visit checksum, not the digest
            checksum = c["expected"]
            continue
        canonical, expected = Path(argv[-3]), c["expected"]
        program = Program(c["language"], wire_format(c["variant"], c["language"]), argv[:-3], c["description"], c["variant"])
        programs.setdefault((c["language"], c["variant"]), program)
    return Checked(cells, list(programs.values()), canonical, expected, checksum)


def emit(program: Program, canonical: Path, out: Path) -> bytes:
    subprocess.run([*program.argv, "--emit", str(canonical), str(out)], check=True, capture_output=True, timeout=120)
    return out.read_bytes()


def run_decode(program: Program, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*program.argv, "--decode", str(path)], capture_output=True, text=True, timeout=120, check=False)


def run_read(program: Program, path: Path) -> subprocess.CompletedProcess[str]:
    """A zero-copy format's `--read FILE`: the visit checksum of the bytes, read in place."""
    return subprocess.run([*program.argv, "--read", str(path)], capture_output=True, text=True, timeout=120, check=False)


def decode(program: Program, path: Path, read: bool = False) -> tuple[str, str]:
    """The digest the program answers for the bytes at path (read: the visit checksum), or "" and its error."""
    proc = run_read(program, path) if read else run_decode(program, path)
    if proc.returncode != 0:
        return "", (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    return proc.stdout.strip(), ""
