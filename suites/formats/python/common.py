# Shared by the Python cells: the canon stream and its digest (README.md), the untimed set-up, the timed passes
# and the result line of the variant protocol, and the --emit / --decode modes of the interop check.
"""Usage: PROG CANON OP PASSES | PROG --emit CANON OUT | PROG --decode FILE (see the suite's README)."""

from __future__ import annotations

import hashlib
import json
import struct
import sys
import time
from collections.abc import Callable
from typing import Any

Codec = Callable[[Any], Any]


class Canon:
    """The canon stream of a decoded catalogue (plain dicts and lists), in the master schema's field order. The
    plain objects are whatever the bytes held: each value's type is checked here (untimed), where the typed
    languages' decoders check it, so that bytes of another shape are refused with a ValueError."""

    def __init__(self) -> None:
        self.out = bytearray()

    def i64(self, v: Any) -> None:
        if type(v) is not int or not -(1 << 63) <= v < 1 << 63:
            raise ValueError(f"not a 64-bit integer: {_short(v)}")
        self.out += struct.pack("<q", v)

    def str(self, v: Any) -> None:
        if type(v) is not str:
            raise ValueError(f"not a string: {_short(v)}")
        b = v.encode("utf-8")
        self.out += struct.pack("<I", len(b))
        self.out += b

    def opt(self, v: Any) -> None:
        if v is None:
            self.out.append(0)
        else:
            self.out.append(1)
            self.str(v)

    def count(self, n: int) -> None:
        self.out += struct.pack("<I", n)

    def ints(self, v: Any) -> None:
        self.count(len(_list(v)))
        for x in v:
            self.i64(x)

    def keys(self, m: Any) -> list:
        self.count(len(_dict(m)))
        for k in m:
            if type(k) is not str:
                raise ValueError(f"not a string key: {_short(k)}")
        return sorted(m, key=lambda k: k.encode("utf-8"))

    def catalog(self, c: Any) -> bytes:
        _dict(c)
        for k in self.keys(c["areaNames"]):
            self.str(k)
            self.str(c["areaNames"][k])
        for k in self.keys(c["events"]):
            e = _dict(c["events"][k])
            self.str(k)
            self.i64(e["id"])
            self.str(e["name"])
            self.opt(e.get("description"))
            self.opt(e.get("logo"))
            self.ints(e["subTopicIds"])
            self.ints(e["topicIds"])
        self.count(len(_list(c["performances"])))
        for p in c["performances"]:
            _dict(p)
            self.i64(p["id"])
            self.i64(p["eventId"])
            self.opt(p.get("name"))
            self.opt(p.get("logo"))
            self.i64(p["start"])
            self.str(p["venueCode"])
            self.count(len(_list(p["prices"])))
            for pr in p["prices"]:
                _dict(pr)
                self.i64(pr["amount"])
                self.i64(pr["audienceSubCategoryId"])
                self.i64(pr["seatCategoryId"])
            self.count(len(_list(p["seatCategories"])))
            for sc in p["seatCategories"]:
                self.i64(_dict(sc)["seatCategoryId"])
                self.count(len(_list(sc["areas"])))
                for a in sc["areas"]:
                    _dict(a)
                    self.i64(a["areaId"])
                    self.ints(a["blockIds"])
        for k in self.keys(c["topicSubTopics"]):
            self.str(k)
            self.ints(c["topicSubTopics"][k])
        for k in self.keys(c["venueNames"]):
            self.str(k)
            self.str(c["venueNames"][k])
        return bytes(self.out)


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _dict(v: Any) -> dict:
    if type(v) is not dict:
        raise ValueError(f"not a map: {_short(v)}")
    return v


def _list(v: Any) -> list:
    if type(v) is not list:
        raise ValueError(f"not a list: {_short(v)}")
    return v


def digest(catalog: Any) -> str:
    return hashlib.sha256(Canon().catalog(catalog)).hexdigest()


def fail(code: int, message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(code)


def main(encode: Codec, decode: Codec, read: Callable[[bytes], int] | None = None) -> None:
    """read (zero-copy formats): bytes -> the visit checksum (README), every field reached through the format's
    accessors, no plain objects built; op=read times it and answers the checksum in decimal."""
    args = sys.argv[1:]
    ops = ("encode", "decode", "read") if read else ("encode", "decode")
    try:
        if len(args) == 3 and args[0] == "--emit":
            with open(args[1], "rb") as f:
                data = json.loads(f.read())
            with open(args[2], "wb") as f:
                f.write(encode(data))
            return
        if len(args) == 2 and args[0] == "--decode":
            with open(args[1], "rb") as f:
                print(digest(decode(f.read())))
            return
        if len(args) == 2 and args[0] == "--read" and read:
            with open(args[1], "rb") as f:
                print(read(f.read()))
            return
        if len(args) != 3 or args[1] not in ops or not args[2].isdigit() or int(args[2]) < 1:
            fail(2, f"usage: {sys.argv[0]} CANON {'|'.join(ops)} PASSES | --emit CANON OUT | --decode FILE")
        with open(args[0], "rb") as f:  # untimed: the canonical file to plain objects
            data = json.loads(f.read())
        op, passes = args[1], int(args[2])
        encoded = encode(data)
        size = len(encoded)
        if op == "encode":
            start = time.perf_counter_ns()
            for p in range(passes):
                encoded = encode(data)
                if len(encoded) != size:
                    fail(1, f"pass {p + 1} wrote {len(encoded)} bytes, the first {size}")
            inner = time.perf_counter_ns() - start
            answer = digest(decode(encoded))  # untimed: what the last pass wrote, decoded
        elif op == "read" and read:
            start = time.perf_counter_ns()
            for _ in range(passes):
                checksum = read(encoded)
            inner = time.perf_counter_ns() - start
            answer = str(checksum)
        else:
            start = time.perf_counter_ns()
            for _ in range(passes):
                decoded = decode(encoded)
            inner = time.perf_counter_ns() - start
            answer = digest(decoded)  # untimed: what the last pass decoded
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as e:  # RecursionError: nested too deep
        fail(1, f"{type(e).__name__}: {e}")
    result = {"answer": answer, "inner_ns": inner, "extra": {"encoded_bytes": size}}
    print("iorace-result " + json.dumps(result), file=sys.stderr)
