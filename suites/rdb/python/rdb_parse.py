# Reference RDB parser: buffered file object, one f.read(n) per field (CRC-64 of the file and of the summary computed in bulk with numpy).
"""Parse a Redis RDB dump and print the iorace canonical summary (see ../README.md).

Usage: python3 rdb_parse.py FILE

The same logic is implemented in Rust, C, Go and Java next to this file;
suite.py imports this module to compute every dataset's expected answer.
"""
from __future__ import annotations

import json
import math
import os
import struct
import sys
import time

import numpy as np

# --- CRC-64/Jones (reflected, init 0, xorout 0) ------------------------------

POLY = 0x95AC9329AC4BC9B5  # 0xad93d23594c935a9 bit-reversed


def _make_table() -> list[int]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ POLY if c & 1 else c >> 1
        table.append(c)
    return table


TABLE = _make_table()
TABLE_NP = np.array(TABLE, dtype=np.uint64)
_LANES = 4096
_ZERO_OPS: dict[int, list[int]] = {}


def _crc64_bytewise(crc: int, data) -> int:
    t = TABLE
    for b in data:
        crc = t[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


def _gf2_times(mat: list[int], vec: int) -> int:
    s = 0
    i = 0
    while vec:
        if vec & 1:
            s ^= mat[i]
        vec >>= 1
        i += 1
    return s


def _zeros_op(nbytes: int) -> list[int]:
    """The GF(2) matrix that advances a CRC register over `nbytes` zero bytes."""
    op = _ZERO_OPS.get(nbytes)
    if op is None:
        p = [POLY] + [1 << (n - 1) for n in range(1, 64)]  # one zero bit
        op = [1 << n for n in range(64)]                    # identity
        bits = nbytes * 8
        while bits:
            if bits & 1:
                op = [_gf2_times(p, op[n]) for n in range(64)]
            p = [_gf2_times(p, p[n]) for n in range(64)]
            bits >>= 1
        _ZERO_OPS[nbytes] = op
    return op


def crc64(crc: int, data) -> int:
    """Continue CRC-64/Jones `crc` over `data` (bytes-like). Large inputs run as 4096
    interleaved lanes in numpy, then combined: crc(c, A) = crc(0, A) ^ zeros(len A)(c)."""
    n = len(data)
    if n < (1 << 16):
        return _crc64_bytewise(crc, data)
    lane = n // _LANES
    cols = np.frombuffer(data, dtype=np.uint8, count=lane * _LANES).reshape(_LANES, lane).T.copy()
    c = np.zeros(_LANES, dtype=np.uint64)
    for row in cols:
        c = TABLE_NP[(c ^ row) & 0xFF] ^ (c >> 8)
    op = _zeros_op(lane)
    for v in c.tolist():
        crc = _gf2_times(op, crc) ^ v
    return _crc64_bytewise(crc, memoryview(data)[lane * _LANES:])


# --- errors -------------------------------------------------------------------

class RdbError(Exception):
    def __init__(self, offset: int, msg: str):
        super().__init__(f"offset {offset}: {msg}")
        self.offset = offset
        self.msg = msg


TYPE_NAMES = ("string", "list", "set", "zset", "hash", "stream")
MAX_VERSION = 12
FLUSH = 8 << 20  # digest buffer folded into the CRC every 8 MiB


def _fmt_score(x: float) -> str:
    if math.isnan(x):
        return "7ff8000000000000"
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


def _parse_score(s: bytes, at: int) -> float:
    try:
        t = s.decode("ascii")
        if "_" in t or t != t.strip():
            raise ValueError
        return float(t)
    except (UnicodeDecodeError, ValueError):
        raise RdbError(at, f"bad zset score {s[:32]!r}") from None


class Parser:
    def __init__(self, f, size: int):
        self.f = f
        self.size = size
        self.pos = 0
        self.ser = bytearray()
        self.digest = 0
        self.counts = {t: 0 for t in TYPE_NAMES}
        self.dbs: dict[int, int] = {}
        self.keys = 0
        self.expires = 0

    # -- primitive reads --
    def read(self, n: int) -> bytes:
        if n > self.size - self.pos:
            raise RdbError(self.pos, f"need {n} bytes but only {self.size - self.pos} remain (truncated file or bad length)")
        b = self.f.read(n)
        if len(b) != n:
            raise RdbError(self.pos, "unexpected end of file")
        self.pos += n
        return b

    def u8(self) -> int:
        return self.read(1)[0]

    def length_enc(self) -> tuple[int, bool]:
        at = self.pos
        b = self.u8()
        kind = b >> 6
        if kind == 0:
            return b & 0x3F, False
        if kind == 1:
            return ((b & 0x3F) << 8) | self.u8(), False
        if kind == 3:
            return b & 0x3F, True
        if b == 0x80:
            return struct.unpack(">I", self.read(4))[0], False
        if b == 0x81:
            return struct.unpack(">Q", self.read(8))[0], False
        raise RdbError(at, f"bad length byte 0x{b:02x}")

    def length(self) -> int:
        at = self.pos
        v, enc = self.length_enc()
        if enc:
            raise RdbError(at, "encoded string where a length was expected")
        return v

    def count(self, what: str) -> int:
        """A collection size: every element takes at least one byte, so it cannot exceed what is left."""
        at = self.pos
        n = self.length()
        if n > self.size - self.pos:
            raise RdbError(at, f"{what} count {n} exceeds the {self.size - self.pos} bytes left")
        return n

    def string(self) -> bytes:
        at = self.pos
        v, enc = self.length_enc()
        if not enc:
            return self.read(v)
        if v == 0:
            return b"%d" % struct.unpack("<b", self.read(1))[0]
        if v == 1:
            return b"%d" % struct.unpack("<h", self.read(2))[0]
        if v == 2:
            return b"%d" % struct.unpack("<i", self.read(4))[0]
        if v == 3:
            clen = self.length()
            ulen = self.length()
            if ulen > 100 * clen + 16:
                raise RdbError(at, f"LZF uncompressed length {ulen} implausible for {clen} compressed bytes")
            return lzf_decompress(self.read(clen), ulen, at)
        raise RdbError(at, f"unknown string encoding {v}")

    # -- digest --
    def field(self, b: bytes) -> None:
        self.ser += struct.pack("<I", len(b))
        self.ser += b

    def emit(self, db: int, tname: str, key: bytes, expiry, values: list[bytes], n: int) -> None:
        f = self.field
        f(b"%d" % db)
        f(tname.encode())
        f(key)
        f(b"" if expiry is None else b"%d" % expiry)
        for v in values:
            f(v)
        f(b"%d" % n)
        if len(self.ser) >= FLUSH:
            self.digest = crc64(self.digest, self.ser)
            self.ser = bytearray()
        self.counts[tname] += 1
        self.dbs[db] = self.dbs.get(db, 0) + 1
        self.keys += 1
        if expiry is not None:
            self.expires += 1

    # -- the file --
    def parse(self) -> dict:
        magic = self.read(9)
        if magic[:5] != b"REDIS":
            raise RdbError(0, f"bad magic {magic[:5]!r} (not an RDB file)")
        ver = magic[5:]
        if not ver.isdigit() or not 1 <= int(ver) <= MAX_VERSION:
            raise RdbError(5, f"unsupported RDB version {ver!r}")
        version = int(ver)
        db = 0
        expiry = None
        while True:
            at = self.pos
            op = self.u8()
            if op == 0xFF:  # EOF
                break
            if op == 0xFE:
                db = self.length()
            elif op == 0xFD:
                expiry = struct.unpack("<I", self.read(4))[0] * 1000
            elif op == 0xFC:
                expiry = struct.unpack("<q", self.read(8))[0]
            elif op == 0xFB:
                self.length()
                self.length()
            elif op == 0xFA:
                self.string()
                self.string()
            elif op == 0xF9:
                self.u8()
            elif op == 0xF8:
                self.length()
            elif op == 0xF5:  # FUNCTION2: one string, the library source
                self.string()
            elif op == 0xF7:
                raise RdbError(at, "MODULE_AUX data is unsupported (needs the module)")
            elif op == 0xF6:
                raise RdbError(at, "pre-release FUNCTION opcode is unsupported")
            elif op in (6, 7):
                raise RdbError(at, f"module value type {op} is unsupported (needs the module)")
            elif op <= 21 and op != 8:
                key = self.string()
                tname, values, n = self.value(op, at)
                self.emit(db, tname, key, expiry, values, n)
                expiry = None
            else:
                raise RdbError(at, f"unknown opcode or value type {op}")
        if version >= 5:
            body_end = self.pos
            stored = struct.unpack("<Q", self.read(8))[0]
            if stored != 0:
                crc = 0
                with open(self.f.name, "rb") as g:
                    left = body_end
                    while left:
                        block = g.read(min(left, FLUSH))
                        crc = crc64(crc, block)
                        left -= len(block)
                if crc != stored:
                    raise RdbError(body_end, f"checksum mismatch: file says {stored:016x}, computed {crc:016x}")
        self.digest = crc64(self.digest, self.ser)
        return {
            "keys": self.keys,
            "expires": self.expires,
            "dbs": {str(d): self.dbs[d] for d in sorted(self.dbs)},
            "types": dict(self.counts),
            "digest": f"{self.digest:016x}",
        }

    def value(self, t: int, at: int) -> tuple[str, list[bytes], int]:
        if t == 0:
            return "string", [self.string()], 1
        if t in (1, 2):
            n = self.count("list" if t == 1 else "set")
            return ("list" if t == 1 else "set"), [self.string() for _ in range(n)], n
        if t in (3, 5):
            n = self.count("zset")
            vals = []
            for _ in range(n):
                vals.append(self.string())
                sat = self.pos
                if t == 5:
                    score = struct.unpack("<d", self.read(8))[0]
                else:
                    ln = self.u8()
                    if ln == 253:
                        score = math.nan
                    elif ln == 254:
                        score = math.inf
                    elif ln == 255:
                        score = -math.inf
                    else:
                        score = _parse_score(self.read(ln), sat)
                vals.append(_fmt_score(score).encode())
            return "zset", vals, n
        if t == 4:
            n = self.count("hash")
            return "hash", [self.string() for _ in range(2 * n)], n
        if t == 9:
            vals = zipmap(self.string(), at)
            return "hash", vals, len(vals) // 2
        if t == 10:
            vals = ziplist(self.string(), at)
            return "list", vals, len(vals)
        if t == 11:
            vals = intset(self.string(), at)
            return "set", vals, len(vals)
        if t in (12, 17):
            vals = (ziplist if t == 12 else listpack)(self.string(), at)
            return "zset", _zset_pairs(vals, at), len(vals) // 2
        if t in (13, 16):
            vals = (ziplist if t == 13 else listpack)(self.string(), at)
            if len(vals) % 2:
                raise RdbError(at, "hash with an odd number of entries")
            return "hash", vals, len(vals) // 2
        if t == 14:
            vals = []
            for _ in range(self.count("quicklist node")):
                vals += ziplist(self.string(), at)
            return "list", vals, len(vals)
        if t == 18:
            vals = []
            for _ in range(self.count("quicklist node")):
                cat = self.pos
                container = self.length()
                blob = self.string()
                if container == 1:
                    vals.append(blob)
                elif container == 2:
                    vals += listpack(blob, at)
                else:
                    raise RdbError(cat, f"bad quicklist container {container}")
            return "list", vals, len(vals)
        if t == 20:
            vals = listpack(self.string(), at)
            return "set", vals, len(vals)
        if t in (15, 19, 21):
            return "stream", [], self.stream(t)
        raise RdbError(at, f"unknown value type {t}")

    def stream(self, t: int) -> int:
        """Consume a stream (its structure, not its entries); return its recorded length."""
        for _ in range(self.count("stream listpack")):
            kat = self.pos
            if len(self.string()) != 16:
                raise RdbError(kat, "stream node key is not 16 bytes")
            self.string()
        length = self.length()
        self.length(), self.length()  # last id
        if t >= 19:
            for _ in range(5):  # first id, max deleted id, entries added
                self.length()
        for _ in range(self.count("stream consumer group")):
            self.string()
            self.length(), self.length()
            if t >= 19:
                self.length()  # entries read
            for _ in range(self.count("stream PEL")):
                self.read(16 + 8)  # raw id, delivery time
                self.length()      # delivery count
            for _ in range(self.count("stream consumer")):
                self.string()
                self.read(8)       # seen time
                if t >= 21:
                    self.read(8)   # active time
                for _ in range(self.count("consumer PEL")):
                    self.read(16)
        return length


# --- compact encodings (whole blobs in memory) ---------------------------------

def lzf_decompress(src: bytes, ulen: int, at: int) -> bytes:
    out = bytearray()
    i = 0
    n = len(src)
    while i < n:
        ctrl = src[i]
        i += 1
        if ctrl < 32:
            ln = ctrl + 1
            if i + ln > n or len(out) + ln > ulen:
                raise RdbError(at, "corrupt LZF data (literal run past the end)")
            out += src[i:i + ln]
            i += ln
        else:
            ln = ctrl >> 5
            if ln == 7:
                if i >= n:
                    raise RdbError(at, "corrupt LZF data (truncated)")
                ln += src[i]
                i += 1
            if i >= n:
                raise RdbError(at, "corrupt LZF data (truncated)")
            ref = len(out) - ((ctrl & 0x1F) << 8) - src[i] - 1
            i += 1
            ln += 2
            if ref < 0 or len(out) + ln > ulen:
                raise RdbError(at, "corrupt LZF data (back reference out of range)")
            if ref + ln <= len(out):
                out += out[ref:ref + ln]
            else:
                for k in range(ln):
                    out.append(out[ref + k])
    if len(out) != ulen:
        raise RdbError(at, f"LZF data decompressed to {len(out)} bytes, header says {ulen}")
    return bytes(out)


def _need(blob: bytes, i: int, n: int, what: str, at: int) -> None:
    if i + n > len(blob):
        raise RdbError(at, f"corrupt {what} (entry past its end)")


def ziplist(blob: bytes, at: int) -> list[bytes]:
    if len(blob) < 11 or struct.unpack_from("<I", blob, 0)[0] != len(blob):
        raise RdbError(at, "corrupt ziplist header")
    out = []
    i = 10
    while True:
        _need(blob, i, 1, "ziplist", at)
        b = blob[i]
        if b == 0xFF:
            break
        i += 5 if b == 0xFE else 1  # prevlen
        _need(blob, i, 1, "ziplist", at)
        enc = blob[i]
        kind = enc >> 6
        if kind < 3:
            if kind == 0:
                ln = enc & 0x3F
                i += 1
            elif kind == 1:
                _need(blob, i, 2, "ziplist", at)
                ln = ((enc & 0x3F) << 8) | blob[i + 1]
                i += 2
            elif enc == 0x80:
                _need(blob, i, 5, "ziplist", at)
                ln = struct.unpack_from(">I", blob, i + 1)[0]
                i += 5
            else:
                raise RdbError(at, f"corrupt ziplist (encoding 0x{enc:02x})")
            _need(blob, i, ln, "ziplist", at)
            out.append(blob[i:i + ln])
            i += ln
            continue
        i += 1
        if enc == 0xC0:
            fmt, w = "<h", 2
        elif enc == 0xD0:
            fmt, w = "<i", 4
        elif enc == 0xE0:
            fmt, w = "<q", 8
        elif enc == 0xF0:
            _need(blob, i, 3, "ziplist", at)
            v = int.from_bytes(blob[i:i + 3], "little", signed=True)
            out.append(b"%d" % v)
            i += 3
            continue
        elif enc == 0xFE:
            fmt, w = "<b", 1
        elif 0xF1 <= enc <= 0xFD:
            out.append(b"%d" % ((enc & 0x0F) - 1))
            continue
        else:
            raise RdbError(at, f"corrupt ziplist (encoding 0x{enc:02x})")
        _need(blob, i, w, "ziplist", at)
        out.append(b"%d" % struct.unpack_from(fmt, blob, i)[0])
        i += w
    if i != len(blob) - 1:
        raise RdbError(at, "corrupt ziplist (bytes after its end marker)")
    return out


def _backlen_size(n: int) -> int:
    if n <= 127:
        return 1
    if n < 16383:
        return 2
    if n < 2097151:
        return 3
    if n < 268435455:
        return 4
    return 5


_LP_INTS = {0xF1: ("<h", 2), 0xF3: ("<i", 4), 0xF4: ("<q", 8)}


def listpack(blob: bytes, at: int) -> list[bytes]:
    if len(blob) < 7 or struct.unpack_from("<I", blob, 0)[0] != len(blob):
        raise RdbError(at, "corrupt listpack header")
    out = []
    i = 6
    while True:
        _need(blob, i, 1, "listpack", at)
        b = blob[i]
        if b == 0xFF:
            break
        if b < 0x80:
            out.append(b"%d" % b)
            elen = 1
        elif b < 0xC0:
            ln = b & 0x3F
            _need(blob, i, 1 + ln, "listpack", at)
            out.append(blob[i + 1:i + 1 + ln])
            elen = 1 + ln
        elif b < 0xE0:
            _need(blob, i, 2, "listpack", at)
            v = ((b & 0x1F) << 8) | blob[i + 1]
            out.append(b"%d" % (v - 8192 if v >= 4096 else v))
            elen = 2
        elif b < 0xF0:
            _need(blob, i, 2, "listpack", at)
            ln = ((b & 0x0F) << 8) | blob[i + 1]
            _need(blob, i, 2 + ln, "listpack", at)
            out.append(blob[i + 2:i + 2 + ln])
            elen = 2 + ln
        elif b == 0xF0:
            _need(blob, i, 5, "listpack", at)
            ln = struct.unpack_from("<I", blob, i + 1)[0]
            _need(blob, i, 5 + ln, "listpack", at)
            out.append(blob[i + 5:i + 5 + ln])
            elen = 5 + ln
        elif b == 0xF2:
            _need(blob, i, 4, "listpack", at)
            out.append(b"%d" % int.from_bytes(blob[i + 1:i + 4], "little", signed=True))
            elen = 4
        elif b in _LP_INTS:
            fmt, w = _LP_INTS[b]
            _need(blob, i, 1 + w, "listpack", at)
            out.append(b"%d" % struct.unpack_from(fmt, blob, i + 1)[0])
            elen = 1 + w
        else:
            raise RdbError(at, f"corrupt listpack (encoding 0x{b:02x})")
        i += elen + _backlen_size(elen)
    if i != len(blob) - 1:
        raise RdbError(at, "corrupt listpack (bytes after its end marker)")
    return out


def zipmap(blob: bytes, at: int) -> list[bytes]:
    out = []
    i = 1  # zmlen
    while True:
        _need(blob, i, 1, "zipmap", at)
        if blob[i] == 0xFF:
            break
        for part in (0, 1):
            _need(blob, i, 1, "zipmap", at)
            b = blob[i]
            if b < 254:
                ln = b
                i += 1
            elif b == 254:
                _need(blob, i, 5, "zipmap", at)
                ln = struct.unpack_from("<I", blob, i + 1)[0]
                i += 5
            else:
                raise RdbError(at, "corrupt zipmap (unexpected end marker)")
            free = 0
            if part == 1:
                _need(blob, i, 1, "zipmap", at)
                free = blob[i]
                i += 1
            _need(blob, i, ln + free, "zipmap", at)
            out.append(blob[i:i + ln])
            i += ln + free
    if i != len(blob) - 1:
        raise RdbError(at, "corrupt zipmap (bytes after its end marker)")
    return out


def intset(blob: bytes, at: int) -> list[bytes]:
    if len(blob) < 8:
        raise RdbError(at, "corrupt intset header")
    enc, n = struct.unpack_from("<II", blob, 0)
    fmt = {2: "h", 4: "i", 8: "q"}.get(enc)
    if fmt is None or len(blob) != 8 + n * enc:
        raise RdbError(at, f"corrupt intset (encoding {enc}, {n} entries, {len(blob)} bytes)")
    return [b"%d" % v for v in struct.unpack_from(f"<{n}{fmt}", blob, 8)]


def _zset_pairs(vals: list[bytes], at: int) -> list[bytes]:
    if len(vals) % 2:
        raise RdbError(at, "zset with an odd number of entries")
    out = []
    for k in range(0, len(vals), 2):
        out.append(vals[k])
        # integer entries arrive as decimal text; parsing it is the same correctly rounded conversion
        out.append(_fmt_score(_parse_score(vals[k + 1], at)).encode())
    return out


def parse_file(path) -> dict:
    with open(path, "rb") as f:
        return Parser(f, os.fstat(f.fileno()).st_size).parse()


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: rdb_parse.py FILE", file=sys.stderr)
        return 2
    t0 = time.perf_counter_ns()
    try:
        answer = parse_file(argv[1])
    except RdbError as e:
        print(f"rdb: {argv[1]}: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"rdb: {argv[1]}: {e.strerror}", file=sys.stderr)
        return 1
    ns = time.perf_counter_ns() - t0
    print("iorace-result " + json.dumps({"answer": answer, "inner_ns": ns}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
