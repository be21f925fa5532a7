"""serialize suite, its Python reference of Cerealed's format (suite.py) against hand-computed bytes, bad
inputs and a plain loop. The D and C++ cells: ../test_serialize.py (slow)."""

from __future__ import annotations

from pathlib import Path

import pytest
from suite_code import serialize_bad_inputs, suite_module

ref = suite_module("serialize")


# --- the reference ------------------------------------------------------------------------------


def test_record_0_bytes_by_hand():
    # id 0 | kind 0 | delta -32768 | stamp 0 | active 1 | ratio 0.0 | value -1000.25 | dims 0,0,0,0 | "record-0"
    want = bytes.fromhex("0000000000800000000000000000000100000000c08f42000000000000000000000000000008") + b"record-0"
    assert ref.encode(ref.make_record(0)) == want


def test_record_1_bytes_by_hand():
    # id 2654435761 = 0x9e3779b1; delta 37 - 32768 = -32731 = 0x8025; stamp 0x9e3779b97f4a7c15 (negative as i64,
    # written as its unsigned bits, network order); ratio 0.125 = 0x3e000000; value -999.75 = 0xc08f3e0000000000
    want = bytes.fromhex("9e3779b10180259e3779b97f4a7c15003e000000c08f3e000000000000010003000500070008") + b"record-1"
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


def test_reference_rejects_bad_inputs(tiny_file):
    for name, data in serialize_bad_inputs(tiny_file.read_bytes()).items():
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
        assert ref.expected(tiny_file, {**params, "op": "ser"}) == {"ops": ops, "bytes": total, "xor": x, "digest": f"{h:016x}"}
        assert ref.expected(tiny_file, {**params, "op": "deser"}) == {"ops": ops, "checksum": c}
        assert ref.expected(tiny_file, {**params, "op": "roundtrip"}) == {"ops": ops, "checksum": c}
