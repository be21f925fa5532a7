"""serialize suite: the Python reference of Cerealed's format against hand-computed bytes, and every D and C++
cell through the real CLI (tiny data), including bad inputs (truncated, corrupt, empty) run by the exact command
the export shows. The Rust, Go, Java and Python variants are tested in test_serialize_languages.py."""
from __future__ import annotations

import importlib.util
import shlex
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, run_iorace

SUITE = REPO / "suites" / "serialize"


def _suite_module():
    spec = importlib.util.spec_from_file_location("test_serialize_suite", SUITE / "suite.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


ref = _suite_module()


# --- the reference ------------------------------------------------------------------------------

def test_record_0_bytes_by_hand():
    # id 0 | kind 0 | delta -32768 | stamp 0 | active 1 | ratio 0.0 | value -1000.25 | dims 0,0,0,0 | "record-0"
    want = bytes.fromhex("00000000" "00" "8000" "0000000000000000" "01" "00000000" "c08f420000000000"
                         "0000" "0000" "0000" "0000" "0008") + b"record-0"
    assert ref.encode(ref.make_record(0)) == want


def test_record_1_bytes_by_hand():
    # id 2654435761 = 0x9e3779b1; delta 37 - 32768 = -32731 = 0x8025; stamp 0x9e3779b97f4a7c15 (negative as i64,
    # written as its unsigned bits, network order); ratio 0.125 = 0x3e000000; value -999.75 = 0xc08f3e0000000000
    want = bytes.fromhex("9e3779b1" "01" "8025" "9e3779b97f4a7c15" "00" "3e000000" "c08f3e0000000000"
                         "0001" "0003" "0005" "0007" "0008") + b"record-1"
    assert ref.encode(ref.make_record(1)) == want


def test_cerealed_example_ushort_then_string():
    # Cerealed's documented example: struct {ushort 5, string "blargh"} -> 00 05 00 06 62 6c 61 72 67 68.
    # Our record ends with exactly that pair: dims[3] (a ushort) then the name.
    r = ref.Record(0, 0, 0, 0, False, 0.0, 0.0, (0, 0, 0, 5), b"blargh")
    assert ref.encode(r)[-10:] == bytes.fromhex("00 05 00 06 62 6c 61 72 67 68")


def test_sizes_and_round_trip():
    for j in (0, 1, 9, 10, 99, 100, 999):
        r = ref.make_record(j)
        b = ref.encode(r)
        assert len(b) == 38 + len(r.name)
        assert 46 <= len(b) <= 50  # more than ScopeBuffer's 32-byte stack array
        assert ref.decode_one(b, 0) == (r, len(b))


@pytest.fixture(scope="module")
def tiny_file(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("data") / "tiny"
    ref.generate("tiny", p)
    return p


def _bad_inputs(good: bytes) -> dict[str, bytes]:
    """name -> bytes of a file every decoder must reject with one line."""
    first = len(ref.encode(ref.make_record(0)))
    corrupt_bool = bytearray(good)
    corrupt_bool[first + 15] = 2  # record 1's bool byte
    long_name = bytearray(good[: first * 2])
    long_name[first + 36:first + 38] = struct.pack(">H", 60)  # record 1's name runs past the end
    return {
        "empty": b"",
        "truncated-header": good[: first + 20],
        "truncated-name": good[: len(good) - 3],
        "corrupt-bool": bytes(corrupt_bool),
        "name-past-end": bytes(long_name),
    }


def test_reference_rejects_bad_inputs(tiny_file):
    for name, data in _bad_inputs(tiny_file.read_bytes()).items():
        with pytest.raises(ref.CorruptError):
            ref.decode_all(data)
        assert name


def test_expected_matches_a_plain_loop(tiny_file):
    """The shortcuts in expected() (periodic XOR, checksum cycles as affine maps) against the spec's loop."""
    records, encoded = ref.read_records(tiny_file)
    for ops in (1, 63, 64, 65, 1000, 4001, 9000):
        x = total = 0
        h = ref.FNV_OFFSET
        c = 0
        for n in range(ops):
            out = encoded[n % len(encoded)]
            total += len(out)
            x ^= out[n & 31]
            if n % 64 == 0:
                h = ref.fnv1a(h, out)
            c = (c * 1000003 + ref.fold(records[n % len(records)])) & ref.M64
        params = {"ser_ops": ops, "deser_ops": ops}
        assert ref.expected(tiny_file, {**params, "op": "ser"}) == {"ops": ops, "bytes": total, "xor": x,
                                                                     "digest": f"{h:016x}"}
        assert ref.expected(tiny_file, {**params, "op": "deser"}) == {"ops": ops, "checksum": c}
        assert ref.expected(tiny_file, {**params, "op": "roundtrip"}) == {"ops": ops, "checksum": c}


# --- D and C++ through the real CLI -------------------------------------------------------------------

D_CELLS = 6 * 2    # six designs x gdc, ldc2 (dmd: skipped, not installed)
CPP_CELLS = 7 * 2  # six designs + cereal x g++, clang++


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    return run_iorace(["run", "serialize", "--size", "tiny", "--check-only", "--variant", "d/*", "--variant", "cpp/*"],
                      tmp_path_factory.mktemp("tiny"))


@pytest.mark.slow
def test_tiny_every_d_and_cpp_cell_ok(tiny_run):
    rows = tiny_run.cells(suite="serialize")
    assert rows, tiny_run.stdout[-3000:] + tiny_run.stderr[-3000:]
    ok = [r for r in rows if r["status"] == "ok"]
    bad = [(r["label"], r["status"], r.get("detail")) for r in rows
           if r["status"] != "ok" and not (r["status"] == "skipped" and r["toolchain"] == "dmd")]
    assert not bad, bad
    assert len([r for r in ok if r["label"].startswith("d/")]) == D_CELLS
    assert len([r for r in ok if r["label"].startswith("cpp/")]) == CPP_CELLS


@pytest.mark.slow
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
    for name, data in _bad_inputs(tiny_file.read_bytes()).items():
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
