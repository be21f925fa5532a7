"""A suite's encoded_args (run/encoded.py): the harness runs each verified cell once more to write the bytes it
encodes and reports their size, zlib and zstd size as the cell's `bytes`, `zlib`, `zstd` figures (table columns
and JSON), computed by the harness itself; a program that cannot write them fails its cell with a line that says
so. Python programs in a throwaway suite: no compiler needed."""

from __future__ import annotations

import json
import subprocess
import sys
import zlib
from pathlib import Path

import zstandard

PROGRAM = """
import sys
PAYLOAD = bytes(range(256)) * 40 + b"tail"
if sys.argv[1] == "--emit":
    if "BROKEN" in sys.argv[0]:
        sys.exit("cannot encode: no encoder here")
    open(sys.argv[3], "wb").write(PAYLOAD)
    sys.exit(0)
print('iorace-result {"answer": 7, "inner_ns": 1000}', file=sys.stderr)
"""

MANIFEST = """
name = "enc"
title = "a suite whose programs write what they encode"
answer = "result"
encoded_args = ["--emit", "{input}", "{output}"]
[datasets.tiny]
[defaults]
args = ["{input}"]
[[variants]]
name = "good"
language = "python"
description = "writes its encoding"
sources = ["good.py"]
"""

BROKEN = """
[[variants]]
name = "BROKEN"
language = "python"
description = "cannot write its encoding"
sources = ["BROKEN.py"]
"""


def _suite(tmp_path: Path, manifest: str) -> Path:
    suite = tmp_path / "suites" / "enc"
    suite.mkdir(parents=True)
    (suite / "suite.toml").write_text(manifest)
    (suite / "suite.py").write_text(
        "def generate(dataset, path):\n    path.write_bytes(b'x')\n\ndef expected(path, params):\n    return 7\n"
    )
    (suite / "good.py").write_text(PROGRAM)
    (suite / "BROKEN.py").write_text(PROGRAM)
    return suite.parent


def _run(tmp_path: Path, suites: Path) -> tuple[subprocess.CompletedProcess[str], dict]:
    export = tmp_path / "x.json"
    cmd = [sys.executable, "-m", "iorace", "run", "enc", "--suite-dir", str(suites), "--size", "tiny", "--check-only"]
    cmd += ["--db", str(tmp_path / "db.sqlite"), "--export-json", str(export)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env={**__import__("os").environ, "COLUMNS": "250"})
    return proc, json.loads(export.read_text()) if export.exists() else {}


def _cells(doc: dict) -> dict[str, dict]:
    return {c["variant"]: c for c in doc.get("results", []) + doc.get("iorace_unmeasured", [])}


def test_the_harness_sizes_what_each_cell_encodes(tmp_path):
    proc, doc = _run(tmp_path, _suite(tmp_path, MANIFEST))
    assert proc.returncode == 0, proc.stderr
    payload = bytes(range(256)) * 40 + b"tail"
    want = {
        "bytes": len(payload),
        "zlib": len(zlib.compress(payload, 6)),
        "zstd": len(zstandard.ZstdCompressor(level=3).compress(payload)),
    }
    cell = _cells(doc)["good"]
    assert cell["status"] == "ok"
    assert {k: cell["extra"][k] for k in want} == want
    header = next(line for line in proc.stdout.splitlines() if "variant" in line and "notes" in line)
    assert all(name in header.split() for name in ("bytes", "zlib", "zstd"))
    assert f"{len(payload):,}" in proc.stdout


def test_a_program_that_cannot_write_its_encoding_fails_its_cell_saying_why(tmp_path):
    proc, doc = _run(tmp_path, _suite(tmp_path, MANIFEST + BROKEN))
    cells = _cells(doc)
    assert cells["good"]["status"] == "ok"
    broken = cells["BROKEN"]
    assert broken["status"] == "failed"
    assert "writing its encoding (--emit" in broken["detail"] and "cannot encode: no encoder here" in broken["detail"]
    assert "encoded_args" in broken["detail"]
    assert "Traceback" not in proc.stderr
