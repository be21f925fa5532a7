# Shared by every Python serialize variant: the record, its struct layout, the file check, the timed loops, the result.
"""Usage of every program: python3 PROGRAM.py FILE OPS"""

from __future__ import annotations

import json
import struct
import sys
import time

# Every fixed field, then the name's u16 length (the bool as a raw byte: 0 or 1 is checked on decode).
HEAD = struct.Struct(">IBhqBfd4HH")
assert HEAD.size == 38


class Record:
    """The suite's record; field order = wire order."""

    __slots__ = ("active", "delta", "dims", "id", "kind", "name", "ratio", "stamp", "value")

    def __init__(self, id, kind, delta, stamp, active, ratio, value, dims, name):
        self.id, self.kind, self.delta, self.stamp, self.active = id, kind, delta, stamp, active
        self.ratio, self.value, self.dims, self.name = ratio, value, dims, name

    def __reduce__(self):  # pickle: rebuilt from its fields
        return Record, (self.id, self.kind, self.delta, self.stamp, self.active, self.ratio, self.value, self.dims, self.name)


class Corrupt(ValueError):
    pass


def decode(data: bytes, pos: int) -> tuple[Record, int]:
    """The record at byte pos and the position after it (Corrupt if truncated or invalid)."""
    if len(data) - pos < 38:
        raise Corrupt("truncated")
    i, k, d, s, a, r, v, d0, d1, d2, d3, n = HEAD.unpack_from(data, pos)
    if a > 1:
        raise Corrupt(f"corrupt: bool byte {a} (not 0 or 1)")
    end = pos + 38 + n
    if end > len(data):
        raise Corrupt("truncated")
    return Record(i, k, d, s, a == 1, r, v, (d0, d1, d2, d3), data[pos + 38 : end]), end


def fail(message: str, status: int = 1) -> None:
    """One line on stderr, then exit (status 2 for a usage error). No traceback."""
    print(f"serialize: {message}", file=sys.stderr)
    sys.exit(status)


M64 = (1 << 64) - 1
FLOATS = struct.Struct(">fd")  # ratio and value, packed to read back their IEEE bits
BITS = struct.Struct(">IQ")


def fold(checksum: int, r: Record) -> int:
    """The deser/roundtrip checksum of the spec: every field, the name's length and bytes included."""
    ratio_bits, value_bits = BITS.unpack(FLOATS.pack(r.ratio, r.value))
    s = r.id + r.kind + r.delta + r.stamp + r.active + ratio_bits + value_bits + sum(r.dims) + len(r.name) + sum(r.name)
    return (checksum * 1000003 + s) & M64


class Job:
    """`prog FILE OPS`: the file's bytes, its records (decoded once, untimed: this validates it), OPS."""

    def __init__(self, argv: list[str]):
        if len(argv) != 3:
            fail(f"usage: {argv[0]} FILE OPS", 2)
        try:
            self.ops = int(argv[2])
        except ValueError:
            self.ops = 0
        if self.ops <= 0:
            fail(f"OPS must be a positive integer, not '{argv[2]}'", 2)
        try:
            with open(argv[1], "rb") as f:
                self.data = f.read()
        except OSError as e:
            fail(f"{argv[1]}: {e.strerror or e}")
        if not self.data:
            fail("empty file: no records")
        self.records, pos = [], 0
        while pos < len(self.data):
            try:
                record, end = decode(self.data, pos)
            except Corrupt as e:
                fail(f"record {len(self.records)} at byte {pos}: {e}")
            self.records.append(record)
            pos = end

    def time_ser(self, serialize) -> None:
        """op n serializes record n mod K with serialize(record) -> bytes; its length, byte n & 31 and
        (every 64th op) all its bytes through FNV-1a are consumed."""
        records, k = self.records, len(self.records)
        total = x = 0
        h = 0xCBF29CE484222325
        start = time.perf_counter_ns()
        for n in range(self.ops):
            out = serialize(records[n % k])
            total += len(out)
            x ^= out[n & 31]
            if n % 64 == 0:
                for b in out:
                    h = ((h ^ b) * 0x100000001B3) & M64
        inner = time.perf_counter_ns() - start
        self.report({"ops": self.ops, "bytes": total, "xor": x, "digest": f"{h:016x}"}, inner)

    def time_deser(self, deserialize) -> None:
        """Walks the file record by record (back to the start after the last): deserialize(data, pos) ->
        (record, next pos); every record is folded into the checksum."""
        data, end = self.data, len(self.data)
        checksum = pos = 0
        start = time.perf_counter_ns()
        for _ in range(self.ops):
            record, pos = deserialize(data, pos)
            checksum = fold(checksum, record)
            if pos == end:
                pos = 0
        inner = time.perf_counter_ns() - start
        self.report({"ops": self.ops, "checksum": checksum}, inner)

    def time_roundtrip(self, roundtrip) -> None:
        """op n hands record n mod K to roundtrip(record) -> (decoded record, size of the library's encoding)."""
        records, k = self.records, len(self.records)
        checksum = wire = 0
        start = time.perf_counter_ns()
        for n in range(self.ops):
            back, size = roundtrip(records[n % k])
            checksum = fold(checksum, back)
            wire += size
        inner = time.perf_counter_ns() - start
        self.report({"ops": self.ops, "checksum": checksum}, inner, {"wire_bytes_per_op": wire / self.ops})

    def report(self, answer: dict, inner_ns: int, extra: dict | None = None) -> None:
        """The human line on stdout, then the machine line, last, on stderr."""
        print(f"{self.ops} ops in {inner_ns / 1e6:.1f} ms ({inner_ns / self.ops:.1f} ns/op): {json.dumps(answer)}")
        sys.stdout.flush()
        result = {"answer": answer, "inner_ns": inner_ns}
        if extra:
            result["extra"] = extra
        print("iorace-result " + json.dumps(result), file=sys.stderr)
