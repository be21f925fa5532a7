"""serialize: the Python reference of Cerealed's wire format, the dataset and every expected answer.

The record (field order = wire order; Cerealed's format: big-endian integers, signed types / bool / floats
written as the unsigned type of their size, a static array as its elements only, a string as a big-endian
u16 length then its bytes; 64-bit values in network byte order, the 2015 fix):

    id u32 | kind u8 | delta i16 | stamp i64 | active bool | ratio f32 | value f64 | dims u16[4] | name string

Encoded size = 38 + len(name). A dataset file is K records concatenated, nothing else.

`python suite.py generate tiny FILE` writes a dataset; `python suite.py decode FILE [N]` prints records;
`python suite.py expected FILE ser|deser|roundtrip OPS` prints an answer.
"""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path
from typing import NamedTuple

K = 1000  # records in every generated dataset
FIXED = struct.Struct(">IBhqBfd4H")  # every field before the name (bool read as a raw byte, checked below)
HEADER = FIXED.size + 2  # + the name's u16 length = 38
assert HEADER == 38

M64 = (1 << 64) - 1
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
CHECKSUM_MUL = 1000003


class CorruptError(ValueError):
    """A serialized file that is not a sequence of valid records."""


class Record(NamedTuple):  # a NamedTuple, not a dataclass: loads by file path without sys.modules
    id: int
    kind: int
    delta: int
    stamp: int
    active: bool
    ratio: float
    value: float
    dims: tuple[int, int, int, int]
    name: bytes


def make_record(j: int) -> Record:
    """Record j of a generated dataset (the spec's formulas, all arithmetic wrapping)."""
    stamp = (j * 0x9E3779B97F4A7C15) & M64
    if stamp >= 1 << 63:
        stamp -= 1 << 64
    return Record(
        id=(j * 2654435761) & 0xFFFFFFFF,
        kind=j % 251,
        delta=((j * 37) % 65536) - 32768,
        stamp=stamp,
        active=j % 3 == 0,
        ratio=(j % 1000) / 8.0,
        value=j * 0.5 - 1000.25,
        dims=(j % 65536, 3 * j % 65536, 5 * j % 65536, 7 * j % 65536),
        name=b"record-" + str(j).encode(),
    )


def encode(r: Record) -> bytes:
    if len(r.name) > 0xFFFF:
        raise ValueError(f"name of {len(r.name)} bytes does not fit Cerealed's u16 length")
    return FIXED.pack(r.id, r.kind, r.delta, r.stamp, int(r.active), r.ratio, r.value, *r.dims) + struct.pack(">H", len(r.name)) + r.name


def decode_one(data: bytes, pos: int, index: int = 0) -> tuple[Record, int]:
    """The record at byte `pos` and the position after it; CorruptError on a truncated or invalid record."""
    left = len(data) - pos
    if left < HEADER:
        raise CorruptError(f"record {index} at byte {pos} is truncated: {left} bytes left, a record needs {HEADER}")
    rid, kind, delta, stamp, active, ratio, value, d0, d1, d2, d3 = FIXED.unpack_from(data, pos)
    if active > 1:
        raise CorruptError(f"record {index} at byte {pos}: bool byte {active} is neither 0 nor 1")
    (n,) = struct.unpack_from(">H", data, pos + FIXED.size)
    end = pos + HEADER + n
    if end > len(data):
        raise CorruptError(f"record {index} at byte {pos}: name of {n} bytes runs past the end of the file")
    return Record(rid, kind, delta, stamp, bool(active), ratio, value, (d0, d1, d2, d3), bytes(data[pos + HEADER : end])), end


def decode_all(data: bytes) -> list[Record]:
    if not data:
        raise CorruptError("empty file: no records")
    records, pos = [], 0
    while pos < len(data):
        r, pos = decode_one(data, pos, len(records))
        records.append(r)
    return records


def read_records(path: Path) -> tuple[list[Record], list[bytes]]:
    """The records of a file and their exact bytes (which a valid file round-trips through encode)."""
    data = Path(path).read_bytes()
    records = decode_all(data)
    return records, [encode(r) for r in records]


def generate(dataset: str, path: Path) -> None:
    # Every dataset holds the same K records; the datasets differ in the number of operations (params).
    Path(path).write_bytes(b"".join(encode(make_record(j)) for j in range(K)))


# --- answers -------------------------------------------------------------------------------------------


def fold(r: Record) -> int:
    """s of the spec: every field (strings included) as an unsigned 64-bit sum."""
    s = (
        r.id
        + r.kind
        + (r.delta & M64)
        + (r.stamp & M64)
        + int(r.active)
        + struct.unpack(">I", struct.pack(">f", r.ratio))[0]
        + struct.unpack(">Q", struct.pack(">d", r.value))[0]
        + sum(r.dims)
        + len(r.name)
        + sum(r.name)
    )
    return s & M64


def _compose(f: tuple[int, int], g: tuple[int, int]) -> tuple[int, int]:
    """The affine map c -> g(f(c)) where (a, b) means c -> a*c + b (mod 2^64)."""
    return (g[0] * f[0]) & M64, (g[0] * f[1] + g[1]) & M64


def checksum(records: list[Record], ops: int) -> int:
    """checksum = checksum * 1000003 + s over records n mod K, n = 0..ops-1. One cycle of K records is an
    affine map of the checksum, so `ops` far beyond K costs log(ops) compositions, not a loop of ops."""
    cycle = (1, 0)
    for r in records:
        cycle = _compose(cycle, (CHECKSUM_MUL, fold(r)))
    full, rest = divmod(ops, len(records))
    total, power = (1, 0), cycle
    while full:
        if full & 1:
            total = _compose(total, power)
        power = _compose(power, power)
        full >>= 1
    c = total[1]
    for r in records[:rest]:
        c = (c * CHECKSUM_MUL + fold(r)) & M64
    return c


def fnv1a(h: int, data: bytes) -> int:
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & M64
    return h


def ser_answer(encoded: list[bytes], ops: int) -> dict:
    """bytes = sum of lengths; xor of out[n & 31]; FNV-1a 64 over the outputs of ops n % 64 == 0, in order."""
    k = len(encoded)
    lengths = [len(e) for e in encoded]
    full, rest = divmod(ops, k)
    total = full * sum(lengths) + sum(lengths[:rest])
    # (n mod K, n & 31) repeats with period lcm(K, 32): XOR of an even number of periods is 0.
    period = k * 32 // _gcd(k, 32)
    x_period = 0
    for n in range(min(period, ops)):
        x_period ^= encoded[n % k][n & 31]
    x = x_period if (ops // period) % 2 else 0
    for n in range(ops - ops % period, ops):
        x ^= encoded[n % k][n & 31]
    h = FNV_OFFSET
    for n in range(0, ops, 64):
        h = fnv1a(h, encoded[n % k])
    return {"ops": ops, "bytes": total, "xor": x, "digest": f"{h:016x}"}


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _ops(params: dict) -> int:
    return int(params["ser_ops"] if params["op"] == "ser" else params["deser_ops"])


def expected(path: Path, params: dict) -> dict:
    records, encoded = read_records(path)
    ops = _ops(params)
    op = params["op"]
    if op == "ser":
        return ser_answer(encoded, ops)
    if op in ("deser", "roundtrip"):
        return {"ops": ops, "checksum": checksum(records, ops)}
    raise ValueError(f"unknown op {op!r} (ser, deser or roundtrip)")


def units(path: Path, params: dict) -> dict[str, int]:
    return {"ops": _ops(params)}


def main(argv: list[str]) -> int:
    try:
        if len(argv) == 3 and argv[0] == "generate":
            generate(argv[1], Path(argv[2]))
        elif len(argv) in (2, 3) and argv[0] == "decode":
            records, _ = read_records(Path(argv[1]))
            for r in records[: int(argv[2]) if len(argv) == 3 else None]:
                print(r)
        elif len(argv) == 4 and argv[0] == "expected":
            ops = int(argv[3])
            params = {"op": argv[2], "ser_ops": ops, "deser_ops": ops}
            print(json.dumps(expected(Path(argv[1]), params)))
        else:
            print("usage: suite.py generate DATASET FILE | decode FILE [N] | expected FILE ser|deser|roundtrip OPS", file=sys.stderr)
            return 2
    except (OSError, ValueError) as e:
        print(f"suite.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
