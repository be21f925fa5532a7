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
import re
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
        op = [1 << n for n in range(64)]  # identity
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
    return _crc64_bytewise(crc, memoryview(data)[lane * _LANES :])


# --- errors -------------------------------------------------------------------


def quoted(b: bytes) -> str:
    """Raw file bytes in a message, as every parser quotes them (C's and Java's `esc`): the first 32 bytes
    in double quotes, printable ASCII as is, `"` and a backslash escaped, every other byte as \\xNN."""
    out = []
    for c in b[:32]:
        if c in (0x22, 0x5C):
            out.append("\\" + chr(c))
        elif 0x20 <= c < 0x7F:
            out.append(chr(c))
        else:
            out.append(f"\\x{c:02x}")
    return '"' + "".join(out) + '"'


class RdbError(Exception):
    def __init__(self, offset: int, msg: str):
        super().__init__(f"offset {offset}: {msg}")
        self.offset = offset
        self.msg = msg


TYPE_NAMES = ("string", "list", "set", "zset", "hash", "stream", "module")
MAX_VERSION = 12
# Newer versions whose format is not public in the Redis source this parser follows (7.4 / 8.0's rdb.h).
NEWER_VERSIONS = {13: "Redis 8.6", 14: "Redis 8.8"}

# --- RDB type codes and opcodes: Redis's own names (src/rdb.h) -----------------
RDB_TYPE_STRING = 0
RDB_TYPE_LIST = 1
RDB_TYPE_SET = 2
RDB_TYPE_ZSET = 3
RDB_TYPE_HASH = 4
RDB_TYPE_ZSET_2 = 5  # zset with binary double scores
RDB_TYPE_MODULE_PRE_GA = 6  # 4.0 release candidates: cannot be skipped without the module
RDB_TYPE_MODULE_2 = 7  # module value with annotations: skippable
RDB_TYPE_HASH_ZIPMAP = 9
RDB_TYPE_LIST_ZIPLIST = 10
RDB_TYPE_SET_INTSET = 11
RDB_TYPE_ZSET_ZIPLIST = 12
RDB_TYPE_HASH_ZIPLIST = 13
RDB_TYPE_LIST_QUICKLIST = 14
RDB_TYPE_STREAM_LISTPACKS = 15
RDB_TYPE_HASH_LISTPACK = 16
RDB_TYPE_ZSET_LISTPACK = 17
RDB_TYPE_LIST_QUICKLIST_2 = 18
RDB_TYPE_STREAM_LISTPACKS_2 = 19
RDB_TYPE_SET_LISTPACK = 20
RDB_TYPE_STREAM_LISTPACKS_3 = 21
RDB_TYPE_HASH_METADATA_PRE_GA = 22  # hash with field TTLs, absolute (7.4 release candidates)
RDB_TYPE_HASH_LISTPACK_EX_PRE_GA = 23  # listpack hash with field TTLs (7.4 release candidates)
RDB_TYPE_HASH_METADATA = 24  # hash with field TTLs relative to a min expire
RDB_TYPE_HASH_LISTPACK_EX = 25  # listpack hash with field TTLs, after a min expire

RDB_OPCODE_SLOT_INFO = 244  # cluster mode: slot id, slot size, expires slot size
RDB_OPCODE_FUNCTION2 = 245
RDB_OPCODE_FUNCTION_PRE_GA = 246
RDB_OPCODE_MODULE_AUX = 247
RDB_OPCODE_IDLE = 248
RDB_OPCODE_FREQ = 249
RDB_OPCODE_AUX = 250
RDB_OPCODE_RESIZEDB = 251
RDB_OPCODE_EXPIRETIME_MS = 252
RDB_OPCODE_EXPIRETIME = 253
RDB_OPCODE_SELECTDB = 254
RDB_OPCODE_EOF = 255

RDB_MODULE_OPCODE_EOF = 0
RDB_MODULE_OPCODE_SINT = 1
RDB_MODULE_OPCODE_UINT = 2
RDB_MODULE_OPCODE_FLOAT = 3
RDB_MODULE_OPCODE_DOUBLE = 4
RDB_MODULE_OPCODE_STRING = 5

RDB_ENC_INT8 = 0
RDB_ENC_INT16 = 1
RDB_ENC_INT32 = 2
RDB_ENC_LZF = 3

# quicklist 2 node containers
QUICKLIST_NODE_CONTAINER_PLAIN = 1
QUICKLIST_NODE_CONTAINER_PACKED = 2

EB_EXPIRE_TIME_MAX = (1 << 48) - 1  # the largest field expiry Redis accepts (ms)

# type code -> logical type (index into TYPE_NAMES)
LOGICAL = {
    RDB_TYPE_STRING: 0,
    RDB_TYPE_LIST: 1,
    RDB_TYPE_LIST_ZIPLIST: 1,
    RDB_TYPE_LIST_QUICKLIST: 1,
    RDB_TYPE_LIST_QUICKLIST_2: 1,
    RDB_TYPE_SET: 2,
    RDB_TYPE_SET_INTSET: 2,
    RDB_TYPE_SET_LISTPACK: 2,
    RDB_TYPE_ZSET: 3,
    RDB_TYPE_ZSET_2: 3,
    RDB_TYPE_ZSET_ZIPLIST: 3,
    RDB_TYPE_ZSET_LISTPACK: 3,
    RDB_TYPE_HASH: 4,
    RDB_TYPE_HASH_ZIPMAP: 4,
    RDB_TYPE_HASH_ZIPLIST: 4,
    RDB_TYPE_HASH_LISTPACK: 4,
    RDB_TYPE_HASH_METADATA_PRE_GA: 4,
    RDB_TYPE_HASH_LISTPACK_EX_PRE_GA: 4,
    RDB_TYPE_HASH_METADATA: 4,
    RDB_TYPE_HASH_LISTPACK_EX: 4,
    RDB_TYPE_STREAM_LISTPACKS: 5,
    RDB_TYPE_STREAM_LISTPACKS_2: 5,
    RDB_TYPE_STREAM_LISTPACKS_3: 5,
    RDB_TYPE_MODULE_2: 6,
}
FLUSH = 8 << 20  # digest buffer folded into the CRC every 8 MiB


def _fmt_score(x: float) -> str:
    if math.isnan(x):
        return "7ff8000000000000"
    return f"{struct.unpack('<Q', struct.pack('<d', x))[0]:016x}"


# A score stored as text: the whole field must be what C's strtod reads (Redis loads these with
# strtod/sscanf): optional sign, then a decimal float, a hex float (0x, optional p exponent), inf,
# infinity or nan / nan(chars), letters in any case; no leading space, nothing after it. Out of range
# values become +-inf or 0 as strtod makes them; every value is correctly rounded.
_SCORE = re.compile(
    rb"([+-]?)(?:(inf(?:inity)?)|(nan(?:\([0-9a-z_]*\))?)"
    rb"|0x([0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p([+-]?[0-9]+))?"
    rb"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)",
    re.IGNORECASE,
)
EXP_CLAMP = 1 << 30  # a binary exponent beyond this gives inf or 0 whatever the mantissa


def _clamped_exp(digits: bytes) -> int:
    neg = digits[:1] == b"-"
    d = digits.lstrip(b"+-").lstrip(b"0") or b"0"
    v = EXP_CLAMP if len(d) > 10 else min(int(d), EXP_CLAMP)
    return -v if neg else v


def _parse_score(s: bytes, at: int) -> float:
    m = _SCORE.fullmatch(s)
    if m is None:
        raise RdbError(at, f"bad zset score {quoted(s)}")
    sign, inf, nan, hexm, hexp = m.groups()
    neg = sign == b"-"
    if inf:
        return -math.inf if neg else math.inf
    if nan:
        return math.nan
    if hexm is not None:
        e = _clamped_exp(hexp) if hexp else 0
        try:
            x = float.fromhex(f"0x{hexm.decode()}p{e}")
        except OverflowError:
            x = math.inf
        return -x if neg else x
    return float(s)


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
        self.field_expires = 0
        self.module_aux = 0

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
            raise RdbError(0, f"bad magic {quoted(magic[:5])} (not an RDB file)")
        ver = magic[5:]
        if ver.isdigit() and int(ver) in NEWER_VERSIONS:
            v = int(ver)
            raise RdbError(
                5,
                f"RDB version {v} ({NEWER_VERSIONS[v]}) is not supported: its format is newer than "
                f"the Redis source this parser follows (RDB {MAX_VERSION})",
            )
        if not ver.isdigit() or not 1 <= int(ver) <= MAX_VERSION:
            raise RdbError(5, f"unsupported RDB version {quoted(ver)}")
        version = int(ver)
        db = 0
        expiry = None
        while True:
            at = self.pos
            op = self.u8()
            if op == RDB_OPCODE_EOF:
                break
            if op == RDB_OPCODE_SELECTDB:
                db = self.length()
            elif op == RDB_OPCODE_EXPIRETIME:  # seconds, a signed 32-bit value
                expiry = struct.unpack("<i", self.read(4))[0] * 1000
            elif op == RDB_OPCODE_EXPIRETIME_MS:
                expiry = struct.unpack("<q", self.read(8))[0]
            elif op == RDB_OPCODE_RESIZEDB:
                self.length()
                self.length()
            elif op == RDB_OPCODE_SLOT_INFO:  # slot id, slot size, expires slot size: a hint, ignored
                self.length()
                self.length()
                self.length()
            elif op == RDB_OPCODE_AUX:
                self.string()
                self.string()
            elif op == RDB_OPCODE_FREQ:
                self.u8()
            elif op == RDB_OPCODE_IDLE:
                self.length()
            elif op == RDB_OPCODE_FUNCTION2:  # one string, the library source
                self.string()
            elif op == RDB_OPCODE_MODULE_AUX:
                self.length()  # module id
                wat = self.pos
                if self.length() != RDB_MODULE_OPCODE_UINT:
                    raise RdbError(wat, "MODULE_AUX: bad when opcode")
                self.length()  # when
                self.module_value(at)
                self.module_aux += 1
            elif op == RDB_OPCODE_FUNCTION_PRE_GA:
                raise RdbError(at, "pre-release FUNCTION opcode is unsupported")
            elif op == RDB_TYPE_MODULE_PRE_GA:
                raise RdbError(at, "pre-release module value type 6 cannot be skipped without its module")
            elif op in LOGICAL:
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
        # Bytes after the checksum (after EOF before v5) are ignored, as Redis does: an AOF file with an RDB
        # preamble continues with AOF commands there.
        self.digest = crc64(self.digest, self.ser)
        return {
            "keys": self.keys,
            "expires": self.expires,
            "dbs": {str(d): self.dbs[d] for d in sorted(self.dbs)},
            "types": dict(self.counts),
            "field_expires": self.field_expires,
            "module_aux": self.module_aux,
            "digest": f"{self.digest:016x}",
        }

    def module_value(self, at: int) -> int:
        """Skip a module's annotated value (as redis-check-rdb does): [opcode][value] until EOF; return the count."""
        n = 0
        while True:
            oat = self.pos
            op = self.length()
            if op == RDB_MODULE_OPCODE_EOF:
                return n
            if op in (RDB_MODULE_OPCODE_SINT, RDB_MODULE_OPCODE_UINT):
                self.length()
            elif op == RDB_MODULE_OPCODE_FLOAT:
                self.read(4)
            elif op == RDB_MODULE_OPCODE_DOUBLE:
                self.read(8)
            elif op == RDB_MODULE_OPCODE_STRING:
                self.string()
            else:
                raise RdbError(oat, f"unknown module value opcode {op}")
            n += 1

    def _field_ttl(self, expire_at: int, at: int) -> bytes:
        if expire_at == 0:
            return b""
        if not 0 < expire_at <= EB_EXPIRE_TIME_MAX:
            raise RdbError(at, f"hash field expiry {expire_at} out of range")
        self.field_expires += 1
        return b"%d" % expire_at

    def value(self, t: int, at: int) -> tuple[str, list[bytes], int]:
        if t == RDB_TYPE_STRING:
            return "string", [self.string()], 1
        if t in (RDB_TYPE_LIST, RDB_TYPE_SET):
            n = self.count("list" if t == RDB_TYPE_LIST else "set")
            return ("list" if t == RDB_TYPE_LIST else "set"), [self.string() for _ in range(n)], n
        if t in (RDB_TYPE_ZSET, RDB_TYPE_ZSET_2):
            n = self.count("zset")
            vals = []
            for _ in range(n):
                vals.append(self.string())
                sat = self.pos
                if t == RDB_TYPE_ZSET_2:
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
        if t == RDB_TYPE_HASH:
            n = self.count("hash")
            return "hash", [self.string() for _ in range(2 * n)], n
        if t in (RDB_TYPE_HASH_METADATA, RDB_TYPE_HASH_METADATA_PRE_GA):
            min_expire = 0
            if t == RDB_TYPE_HASH_METADATA:
                min_expire = struct.unpack("<Q", self.read(8))[0]
                if min_expire > EB_EXPIRE_TIME_MAX + 1:
                    raise RdbError(at, f"hash min expire {min_expire} out of range")
            n = self.count("hash")
            vals = []
            for _ in range(n):
                tat = self.pos
                ttl = self.length()
                if t == RDB_TYPE_HASH_METADATA and ttl:
                    ttl = ttl + min_expire - 1  # stored relative to the min expire, + 1
                vals.append(self.string())
                vals.append(self.string())
                vals.append(self._field_ttl(ttl, tat))
            return "hash", vals, n
        if t in (RDB_TYPE_HASH_LISTPACK_EX, RDB_TYPE_HASH_LISTPACK_EX_PRE_GA):
            if t == RDB_TYPE_HASH_LISTPACK_EX:
                self.read(8)  # min expire: a hint, unused when loading (as in Redis)
            ents = listpack(self.string(), at, raw=True)
            if len(ents) % 3:
                raise RdbError(at, "hash listpack with field TTLs: entries are not triples")
            vals = []
            for k in range(0, len(ents), 3):
                ttl = ents[k + 2]
                if not isinstance(ttl, int):
                    raise RdbError(at, "hash listpack with field TTLs: a TTL is not an integer")
                vals += [_entry_text(ents[k]), _entry_text(ents[k + 1]), self._field_ttl(ttl, at)]
            return "hash", vals, len(ents) // 3
        if t == RDB_TYPE_MODULE_2:
            module_id = self.length()
            n = self.module_value(at)
            return "module", [b"%d" % module_id], n
        if t == RDB_TYPE_HASH_ZIPMAP:
            vals = zipmap(self.string(), at)
            return "hash", vals, len(vals) // 2
        if t == RDB_TYPE_LIST_ZIPLIST:
            vals = ziplist(self.string(), at)
            return "list", vals, len(vals)
        if t == RDB_TYPE_SET_INTSET:
            vals = intset(self.string(), at)
            return "set", vals, len(vals)
        if t in (RDB_TYPE_ZSET_ZIPLIST, RDB_TYPE_ZSET_LISTPACK):
            vals = (ziplist if t == RDB_TYPE_ZSET_ZIPLIST else listpack)(self.string(), at)
            return "zset", _zset_pairs(vals, at), len(vals) // 2
        if t in (RDB_TYPE_HASH_ZIPLIST, RDB_TYPE_HASH_LISTPACK):
            vals = (ziplist if t == RDB_TYPE_HASH_ZIPLIST else listpack)(self.string(), at)
            if len(vals) % 2:
                raise RdbError(at, "hash with an odd number of entries")
            return "hash", vals, len(vals) // 2
        if t == RDB_TYPE_LIST_QUICKLIST:
            vals = []
            for _ in range(self.count("quicklist node")):
                vals += ziplist(self.string(), at)
            return "list", vals, len(vals)
        if t == RDB_TYPE_LIST_QUICKLIST_2:
            vals = []
            for _ in range(self.count("quicklist node")):
                cat = self.pos
                container = self.length()
                blob = self.string()
                if container == QUICKLIST_NODE_CONTAINER_PLAIN:
                    vals.append(blob)
                elif container == QUICKLIST_NODE_CONTAINER_PACKED:
                    vals += listpack(blob, at)
                else:
                    raise RdbError(cat, f"bad quicklist container {container}")
            return "list", vals, len(vals)
        if t == RDB_TYPE_SET_LISTPACK:
            vals = listpack(self.string(), at)
            return "set", vals, len(vals)
        if t in (RDB_TYPE_STREAM_LISTPACKS, RDB_TYPE_STREAM_LISTPACKS_2, RDB_TYPE_STREAM_LISTPACKS_3):
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
        if t >= RDB_TYPE_STREAM_LISTPACKS_2:
            for _ in range(5):  # first id, max deleted id, entries added
                self.length()
        for _ in range(self.count("stream consumer group")):
            self.string()
            self.length(), self.length()
            if t >= RDB_TYPE_STREAM_LISTPACKS_2:
                self.length()  # entries read
            for _ in range(self.count("stream PEL")):
                self.read(16 + 8)  # raw id, delivery time
                self.length()  # delivery count
            for _ in range(self.count("stream consumer")):
                self.string()
                self.read(8)  # seen time
                if t >= RDB_TYPE_STREAM_LISTPACKS_3:
                    self.read(8)  # active time
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
            out += src[i : i + ln]
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
                out += out[ref : ref + ln]
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
    """A ziplist's entries; its header (zlbytes, zltail, zllen) and every prevlen are checked against the walk."""
    if len(blob) < 11 or struct.unpack_from("<I", blob, 0)[0] != len(blob):
        raise RdbError(at, "corrupt ziplist header")
    zltail, zllen = struct.unpack_from("<IH", blob, 4)
    out = []
    i = 10
    last = 10  # offset of the last entry (10 when empty)
    prev = 0  # the previous entry's size, which the next entry's prevlen must state
    while True:
        _need(blob, i, 1, "ziplist", at)
        b = blob[i]
        if b == 0xFF:
            break
        start = i
        if b == 0xFE:
            _need(blob, i, 5, "ziplist", at)
            plen = struct.unpack_from("<I", blob, i + 1)[0]
            i += 5
        else:
            plen = b
            i += 1
        if plen != prev:
            raise RdbError(at, f"corrupt ziplist (prevlen {plen}, previous entry has {prev} bytes)")
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
            out.append(blob[i : i + ln])
            i += ln
        else:
            i += 1
            w = 0
            if enc == 0xC0:
                fmt, w = "<h", 2
            elif enc == 0xD0:
                fmt, w = "<i", 4
            elif enc == 0xE0:
                fmt, w = "<q", 8
            elif enc == 0xF0:
                _need(blob, i, 3, "ziplist", at)
                out.append(b"%d" % int.from_bytes(blob[i : i + 3], "little", signed=True))
                i += 3
            elif enc == 0xFE:
                fmt, w = "<b", 1
            elif 0xF1 <= enc <= 0xFD:
                out.append(b"%d" % ((enc & 0x0F) - 1))
            else:
                raise RdbError(at, f"corrupt ziplist (encoding 0x{enc:02x})")
            if w:
                _need(blob, i, w, "ziplist", at)
                out.append(b"%d" % struct.unpack_from(fmt, blob, i)[0])
                i += w
        last = start
        prev = i - start
    if i != len(blob) - 1:
        raise RdbError(at, "corrupt ziplist (bytes after its end marker)")
    if zltail != last:
        raise RdbError(at, f"corrupt ziplist (zltail {zltail}, last entry at {last})")
    if zllen != 0xFFFF and zllen != len(out):
        raise RdbError(at, f"corrupt ziplist (zllen {zllen}, {len(out)} entries)")
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


def _backlen_ok(blob: bytes, i: int, elen: int, size: int) -> bool:
    """The `size` bytes at i encode `elen` as a listpack back length (7 bits a byte, most significant first,
    every byte but the first with its high bit set)."""
    for k in range(size):
        want = (elen >> (7 * (size - 1 - k))) & 127
        if k:
            want |= 128
        if blob[i + k] != want:
            return False
    return True


_LP_INTS = {0xF1: ("<h", 2), 0xF3: ("<i", 4), 0xF4: ("<q", 8)}


def _entry_text(e) -> bytes:
    return e if isinstance(e, bytes) else b"%d" % e


def listpack(blob: bytes, at: int, raw: bool = False) -> list:
    """A listpack's entries (integers as decimal text, or as ints when `raw`); its header (total bytes,
    element count) and every back length are checked against the walk."""
    if len(blob) < 7 or struct.unpack_from("<I", blob, 0)[0] != len(blob):
        raise RdbError(at, "corrupt listpack header")
    numele = struct.unpack_from("<H", blob, 4)[0]
    out: list = []
    i = 6
    while True:
        _need(blob, i, 1, "listpack", at)
        b = blob[i]
        if b == 0xFF:
            break
        if b < 0x80:
            out.append(b)
            elen = 1
        elif b < 0xC0:
            ln = b & 0x3F
            _need(blob, i, 1 + ln, "listpack", at)
            out.append(blob[i + 1 : i + 1 + ln])
            elen = 1 + ln
        elif b < 0xE0:
            _need(blob, i, 2, "listpack", at)
            v = ((b & 0x1F) << 8) | blob[i + 1]
            out.append(v - 8192 if v >= 4096 else v)
            elen = 2
        elif b < 0xF0:
            _need(blob, i, 2, "listpack", at)
            ln = ((b & 0x0F) << 8) | blob[i + 1]
            _need(blob, i, 2 + ln, "listpack", at)
            out.append(blob[i + 2 : i + 2 + ln])
            elen = 2 + ln
        elif b == 0xF0:
            _need(blob, i, 5, "listpack", at)
            ln = struct.unpack_from("<I", blob, i + 1)[0]
            _need(blob, i, 5 + ln, "listpack", at)
            out.append(blob[i + 5 : i + 5 + ln])
            elen = 5 + ln
        elif b == 0xF2:
            _need(blob, i, 4, "listpack", at)
            out.append(int.from_bytes(blob[i + 1 : i + 4], "little", signed=True))
            elen = 4
        elif b in _LP_INTS:
            fmt, w = _LP_INTS[b]
            _need(blob, i, 1 + w, "listpack", at)
            out.append(struct.unpack_from(fmt, blob, i + 1)[0])
            elen = 1 + w
        else:
            raise RdbError(at, f"corrupt listpack (encoding 0x{b:02x})")
        bl = _backlen_size(elen)
        _need(blob, i + elen, bl, "listpack", at)
        if not _backlen_ok(blob, i + elen, elen, bl):
            raise RdbError(at, f"corrupt listpack (back length does not match an entry of {elen} bytes)")
        i += elen + bl
    if i != len(blob) - 1:
        raise RdbError(at, "corrupt listpack (bytes after its end marker)")
    if numele != 0xFFFF and numele != len(out):
        raise RdbError(at, f"corrupt listpack (header says {numele} entries, {len(out)} found)")
    return out if raw else [_entry_text(e) for e in out]


def zipmap(blob: bytes, at: int) -> list[bytes]:
    """A zipmap's keys and values; its count byte (when below 254) is checked against the walk."""
    _need(blob, 0, 1, "zipmap", at)
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
            out.append(blob[i : i + ln])
            i += ln + free
    if i != len(blob) - 1:
        raise RdbError(at, "corrupt zipmap (bytes after its end marker)")
    if blob[0] < 254 and blob[0] != len(out) // 2:
        raise RdbError(at, f"corrupt zipmap (header says {blob[0]} pairs, {len(out) // 2} found)")
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
