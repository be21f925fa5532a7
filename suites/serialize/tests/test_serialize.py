"""serialize suite: every D and C++ cell through the real CLI (tiny data), including bad inputs (truncated,
corrupt, empty) run by the exact command the export shows. The Rust, Go, Java and Python variants are tested in
test_serialize_languages.py, the Python reference in unit/test_serialize_unit.py."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest
from suite_code import serialize_bad_inputs, suite_module

from conftest import run_iorace

ref = suite_module("serialize")


@pytest.fixture(scope="module")
def tiny_file(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("data") / "tiny"
    ref.generate("tiny", p)
    return p


# --- D and C++ through the real CLI -------------------------------------------------------------------

D_CELLS = 16 * 2  # six designs, four expert ones (grains inlined, fixed offsets), the six as the seed wrote them x gdc, ldc2 (dmd: skipped)
CPP_CELLS = 8 * 2  # six designs + an expert one (ser-fixed) + cereal x g++, clang++


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    return run_iorace(
        ["run", "serialize", "--size", "tiny", "--check-only", "--variant", "d/*", "--variant", "cpp/*"], tmp_path_factory.mktemp("tiny")
    )


def test_tiny_every_d_and_cpp_cell_ok(tiny_run):
    rows = tiny_run.cells(suite="serialize")
    assert rows, tiny_run.stdout[-3000:] + tiny_run.stderr[-3000:]
    ok = [r for r in rows if r["status"] == "ok"]
    bad = [
        (r["label"], r["status"], r.get("detail"))
        for r in rows
        if r["status"] != "ok" and not (r["status"] == "skipped" and r["toolchain"] == "dmd")
    ]
    assert not bad, bad
    assert len([r for r in ok if r["label"].startswith("d/")]) == D_CELLS
    assert len([r for r in ok if r["label"].startswith("cpp/")]) == CPP_CELLS


def test_bad_inputs_rejected_by_every_program(tiny_run, tiny_file, tmp_path):
    """Every D and C++ program, run by the command the export shows with a bad file in place of the input:
    exit 1 and exactly one line on stderr."""
    cmds = {}
    for r in tiny_run.cells(suite="serialize", status="ok"):
        argv = shlex.split(r["command"])
        assert len(argv) >= 3, argv
        cmds[r["label"]] = argv
    assert len(cmds) == D_CELLS + CPP_CELLS
    files = {}
    for name, data in serialize_bad_inputs(tiny_file.read_bytes()).items():
        files[name] = tmp_path / name
        files[name].write_bytes(data)
    files["missing"] = tmp_path / "no-such-file"
    problems = []
    for label, argv in sorted(cmds.items()):
        for name, path in files.items():
            cmd = [*argv[:-2], str(path), argv[-1]]  # prog FILE OPS
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
            if p.returncode != 1 or len(lines) != 1 or not lines[0].startswith("serialize: "):
                problems.append(f"{label} {name}: exit {p.returncode}, stderr {lines[-3:]}")
    assert not problems, "\n".join(problems)
