"""rdb's dataset writer: deterministic RDB dumps built byte by byte from the RDB format (see
../../../docs and ../README.md): length encodings of every width, int-encoded and LZF-compressed strings
(a real LZF compressor, below), every value type a Redis 2.x-8.x writes, expiries in seconds and
milliseconds, FREQ/IDLE, AUX, RESIZEDB, FUNCTION2, SLOT_INFO, module values and MODULE_AUX, several
databases and a valid CRC-64 trailer. Real dumps made by redis-server itself are exercised by
../tests/test_rdb.py.

../suite.py's generate() writes each dataset with write(); the fuzz driver (../fuzz/rdbfuzz.py) cuts
its seeds from Writer and all_encodings. The format's constants are the reference parser's
(rdb_parse.py beside this file, Redis's rdb.h names).
"""

from __future__ import annotations

import random
import struct
from pathlib import Path

import rdb_parse  # the reference parser: the format's constants and CRC-64
from rdb_parse import (  # Redis's rdb.h names
    QUICKLIST_NODE_CONTAINER_PACKED,
    QUICKLIST_NODE_CONTAINER_PLAIN,
    RDB_MODULE_OPCODE_DOUBLE,
    RDB_MODULE_OPCODE_EOF,
    RDB_MODULE_OPCODE_FLOAT,
    RDB_MODULE_OPCODE_SINT,
    RDB_MODULE_OPCODE_STRING,
    RDB_MODULE_OPCODE_UINT,
    RDB_OPCODE_AUX,
    RDB_OPCODE_EOF,
    RDB_OPCODE_EXPIRETIME,
    RDB_OPCODE_EXPIRETIME_MS,
    RDB_OPCODE_FREQ,
    RDB_OPCODE_FUNCTION2,
    RDB_OPCODE_IDLE,
    RDB_OPCODE_MODULE_AUX,
    RDB_OPCODE_RESIZEDB,
    RDB_OPCODE_SELECTDB,
    RDB_OPCODE_SLOT_INFO,
    RDB_TYPE_HASH,
    RDB_TYPE_HASH_LISTPACK,
    RDB_TYPE_HASH_LISTPACK_EX,
    RDB_TYPE_HASH_LISTPACK_EX_PRE_GA,
    RDB_TYPE_HASH_METADATA,
    RDB_TYPE_HASH_METADATA_PRE_GA,
    RDB_TYPE_HASH_ZIPLIST,
    RDB_TYPE_HASH_ZIPMAP,
    RDB_TYPE_LIST,
    RDB_TYPE_LIST_QUICKLIST,
    RDB_TYPE_LIST_QUICKLIST_2,
    RDB_TYPE_LIST_ZIPLIST,
    RDB_TYPE_MODULE_2,
    RDB_TYPE_SET,
    RDB_TYPE_SET_INTSET,
    RDB_TYPE_SET_LISTPACK,
    RDB_TYPE_STREAM_LISTPACKS,
    RDB_TYPE_STREAM_LISTPACKS_2,
    RDB_TYPE_STREAM_LISTPACKS_3,
    RDB_TYPE_STRING,
    RDB_TYPE_ZSET,
    RDB_TYPE_ZSET_2,
    RDB_TYPE_ZSET_LISTPACK,
    RDB_TYPE_ZSET_ZIPLIST,
)

# --- primitives -----------------------------------------------------------------


def enc_len(n: int, width: int | None = None) -> bytes:
    """RDB length; `width` forces a (valid, non-minimal) 14/32/64-bit form."""
    if width is None:
        width = 6 if n < 64 else 14 if n < 16384 else 32 if n < 1 << 32 else 64
    if width == 6:
        return bytes([n])
    if width == 14:
        return bytes([0x40 | (n >> 8), n & 0xFF])
    if width == 32:
        return b"\x80" + n.to_bytes(4, "big")
    return b"\x81" + n.to_bytes(8, "big")


def lzf_compress(data: bytes) -> bytes:
    """LZF (liblzf's format): literal runs of 1..32 bytes, back references of 3..264
    bytes up to 8 KiB back, found through a hash of the next three bytes."""
    n = len(data)
    out = bytearray()
    table: dict[bytes, int] = {}
    lit = 0
    i = 0

    def literals(end: int) -> None:
        s = lit
        while s < end:
            run = min(32, end - s)
            out.append(run - 1)
            out.extend(data[s : s + run])
            s += run

    while i + 2 < n:
        key = data[i : i + 3]
        ref = table.get(key)
        table[key] = i
        if ref is not None and i - ref - 1 < 8192:
            maxlen = min(264, n - i)
            ln = 3
            while ln < maxlen and data[ref + ln] == data[i + ln]:
                ln += 1
            literals(i)
            off = i - ref - 1
            code = ln - 2
            if code < 7:
                out.append((code << 5) | (off >> 8))
            else:
                out.append((7 << 5) | (off >> 8))
                out.append(code - 7)
            out.append(off & 0xFF)
            i += ln
            lit = i
        else:
            i += 1
    literals(n)
    return bytes(out)


def _canon_int(s: bytes) -> int | None:
    """The int Redis would store for `s` (canonical decimal in int32 range), else None."""
    if not s or len(s) > 11:
        return None
    try:
        v = int(s)
    except ValueError:
        return None
    if b"%d" % v != s or not -(1 << 31) <= v < (1 << 31):
        return None
    return v


def enc_str(s: bytes, lzf: bool = False, width: int | None = None) -> bytes:
    """An RDB string: int-encoded when Redis would, LZF when asked and smaller, else raw."""
    v = _canon_int(s) if width is None else None
    if v is not None:
        if -128 <= v < 128:
            return b"\xc0" + struct.pack("<b", v)
        if -32768 <= v < 32768:
            return b"\xc1" + struct.pack("<h", v)
        return b"\xc2" + struct.pack("<i", v)
    if lzf and len(s) > 20:
        c = lzf_compress(s)
        if len(c) < len(s) - 4:
            return b"\xc3" + enc_len(len(c)) + enc_len(len(s)) + c
    return enc_len(len(s), width) + s


# --- compact encodings ---------------------------------------------------------------


def ziplist(entries: list) -> bytes:
    body = bytearray()
    prev = 0
    for e in entries:
        head = bytes([prev]) if prev < 254 else b"\xfe" + struct.pack("<I", prev)
        if isinstance(e, int):
            if 0 <= e <= 12:
                enc = bytes([0xF1 + e])
            elif -128 <= e < 128:
                enc = b"\xfe" + struct.pack("<b", e)
            elif -32768 <= e < 32768:
                enc = b"\xc0" + struct.pack("<h", e)
            elif -(1 << 23) <= e < (1 << 23):
                enc = b"\xf0" + (e & 0xFFFFFF).to_bytes(3, "little")
            elif -(1 << 31) <= e < (1 << 31):
                enc = b"\xd0" + struct.pack("<i", e)
            else:
                enc = b"\xe0" + struct.pack("<q", e)
        else:
            n = len(e)
            if n < 64:
                enc = bytes([n]) + e
            elif n < 16384:
                enc = bytes([0x40 | (n >> 8), n & 0xFF]) + e
            else:
                enc = b"\x80" + n.to_bytes(4, "big") + e
        entry = head + enc
        body += entry
        prev = len(entry)
    tail = 10 + len(body) - prev if entries else 10
    return struct.pack("<IIH", 10 + len(body) + 1, tail, min(len(entries), 65535)) + bytes(body) + b"\xff"


def _backlen(n: int) -> bytes:
    if n <= 127:
        return bytes([n])
    if n < 16383:
        return bytes([n >> 7, (n & 127) | 128])
    if n < 2097151:
        return bytes([n >> 14, ((n >> 7) & 127) | 128, (n & 127) | 128])
    if n < 268435455:
        return bytes([n >> 21, ((n >> 14) & 127) | 128, ((n >> 7) & 127) | 128, (n & 127) | 128])
    return bytes([n >> 28, ((n >> 21) & 127) | 128, ((n >> 14) & 127) | 128, ((n >> 7) & 127) | 128, (n & 127) | 128])


def listpack(entries: list) -> bytes:
    body = bytearray()
    for e in entries:
        if isinstance(e, int):
            if 0 <= e <= 127:
                enc = bytes([e])
            elif -4096 <= e < 4096:
                u = e & 0x1FFF
                enc = bytes([0xC0 | (u >> 8), u & 0xFF])
            elif -32768 <= e < 32768:
                enc = b"\xf1" + struct.pack("<h", e)
            elif -(1 << 23) <= e < (1 << 23):
                enc = b"\xf2" + (e & 0xFFFFFF).to_bytes(3, "little")
            elif -(1 << 31) <= e < (1 << 31):
                enc = b"\xf3" + struct.pack("<i", e)
            else:
                enc = b"\xf4" + struct.pack("<q", e)
        else:
            n = len(e)
            if n < 64:
                enc = bytes([0x80 | n]) + e
            elif n < 4096:
                enc = bytes([0xE0 | (n >> 8), n & 0xFF]) + e
            else:
                enc = b"\xf0" + struct.pack("<I", n) + e
        body += enc + _backlen(len(enc))
    return struct.pack("<IH", 6 + len(body) + 1, min(len(entries), 65535)) + bytes(body) + b"\xff"


def intset(values: list[int]) -> bytes:
    vals = sorted(set(values))
    w = 2
    for v in vals:
        if not -32768 <= v < 32768:
            w = max(w, 4)
        if not -(1 << 31) <= v < (1 << 31):
            w = 8
    fmt = {2: "h", 4: "i", 8: "q"}[w]
    return struct.pack("<II", w, len(vals)) + struct.pack(f"<{len(vals)}{fmt}", *vals)


def _zm_len(n: int) -> bytes:
    return bytes([n]) if n < 254 else b"\xfe" + struct.pack("<I", n)


def zipmap(pairs: list[tuple[bytes, bytes]], free: int = 0) -> bytes:
    out = bytearray([min(len(pairs), 254)])
    for k, v in pairs:
        out += _zm_len(len(k)) + k + _zm_len(len(v)) + bytes([free]) + v + b"\x00" * free
    return bytes(out) + b"\xff"


# --- values (type byte, encoded value) ----------------------------------------------------


def as_entry(s: bytes):
    """Ziplists/listpacks store integer-looking strings as integers, as Redis does."""
    try:
        v = int(s)
    except ValueError:
        return s
    return v if b"%d" % v == s and -(1 << 63) <= v < (1 << 63) else s


def _score_ascii(x: float) -> bytes:
    if x != x:
        return b"\xfd"
    if x == float("inf"):
        return b"\xfe"
    if x == float("-inf"):
        return b"\xff"
    s = b"%.17g" % x
    return bytes([len(s)]) + s


def _score_text(x: float) -> bytes:
    """A score as ziplist/listpack text (Redis' d2string: integers without a fraction)."""
    if x == int(x) and abs(x) < 1e17:
        return b"%d" % int(x)
    return b"%.17g" % x


def v_string(s: bytes, lzf=False, width=None):
    return RDB_TYPE_STRING, enc_str(s, lzf, width)


def v_list(items, width=None):
    return RDB_TYPE_LIST, enc_len(len(items), width) + b"".join(enc_str(i) for i in items)


def v_set(items):
    return RDB_TYPE_SET, enc_len(len(items)) + b"".join(enc_str(i) for i in items)


def v_zset1(pairs):
    return RDB_TYPE_ZSET, enc_len(len(pairs)) + b"".join(enc_str(m) + _score_ascii(s) for m, s in pairs)


def v_zset2(pairs):
    return RDB_TYPE_ZSET_2, enc_len(len(pairs)) + b"".join(enc_str(m) + struct.pack("<d", s) for m, s in pairs)


def v_hash(pairs, lzf=False):
    return RDB_TYPE_HASH, enc_len(len(pairs)) + b"".join(enc_str(k) + enc_str(v, lzf) for k, v in pairs)


def v_zipmap(pairs, free=0):
    return RDB_TYPE_HASH_ZIPMAP, enc_str(zipmap(pairs, free))


def v_ziplist(items):
    return RDB_TYPE_LIST_ZIPLIST, enc_str(ziplist([as_entry(i) for i in items]))


def v_intset(values):
    return RDB_TYPE_SET_INTSET, enc_str(intset(values))


def v_zset_ziplist(pairs):
    return RDB_TYPE_ZSET_ZIPLIST, enc_str(ziplist([e for m, s in pairs for e in (as_entry(m), as_entry(_score_text(s)))]))


def v_hash_ziplist(pairs):
    return RDB_TYPE_HASH_ZIPLIST, enc_str(ziplist([e for k, v in pairs for e in (as_entry(k), as_entry(v))]))


def v_quicklist(nodes):
    return RDB_TYPE_LIST_QUICKLIST, enc_len(len(nodes)) + b"".join(enc_str(ziplist([as_entry(i) for i in n]), lzf=True) for n in nodes)


def v_hash_listpack(pairs):
    return RDB_TYPE_HASH_LISTPACK, enc_str(listpack([e for k, v in pairs for e in (as_entry(k), as_entry(v))]))


def v_zset_listpack(pairs):
    return RDB_TYPE_ZSET_LISTPACK, enc_str(listpack([e for m, s in pairs for e in (as_entry(m), as_entry(_score_text(s)))]))


def v_quicklist2(nodes):
    """nodes: lists of items (PACKED listpack) or a single bytes item (PLAIN node)."""
    out = enc_len(len(nodes))
    for n in nodes:
        if isinstance(n, bytes):
            out += enc_len(QUICKLIST_NODE_CONTAINER_PLAIN) + enc_str(n, lzf=True)
        else:
            out += enc_len(QUICKLIST_NODE_CONTAINER_PACKED) + enc_str(listpack([as_entry(i) for i in n]), lzf=True)
    return RDB_TYPE_LIST_QUICKLIST_2, out


def v_set_listpack(items):
    return RDB_TYPE_SET_LISTPACK, enc_str(listpack([as_entry(i) for i in items]))


def v_stream(rng: random.Random, t: int, entries: int, groups: int):
    """A stream of `entries` entries in listpack nodes of up to 100, with consumer groups.
    Node listpacks follow Redis' layout (master entry, then entries as deltas)."""
    base_ms = 1_700_000_000_000
    nodes = []
    for start in range(0, entries, 100):
        cnt = min(100, entries - start)
        lp = [cnt, 0, 2, b"field", b"n", 0]
        for k in range(cnt):
            lp += [
                0x2,
                k,
                0,
                b"v%d" % rng.randrange(10**6),
                start + k,
                3 + 2,
            ]  # flags (SAMEFIELDS), ms delta, seq delta, 2 values, lp-count
        key = struct.pack(">QQ", base_ms + start, 0)
        nodes.append(enc_str(key) + enc_str(listpack(lp)))
    out = enc_len(len(nodes)) + b"".join(nodes)
    last = base_ms + max(entries - 1, 0)
    out += enc_len(entries) + enc_len(last) + enc_len(0)
    if t >= RDB_TYPE_STREAM_LISTPACKS_2:
        out += enc_len(base_ms) + enc_len(0) + enc_len(0) + enc_len(0) + enc_len(entries)
    out += enc_len(groups)
    for g in range(groups):
        out += enc_str(b"group%d" % g) + enc_len(last) + enc_len(0)
        if t >= RDB_TYPE_STREAM_LISTPACKS_2:
            out += enc_len(entries)
        pel = [struct.pack(">QQ", base_ms + k, 0) for k in range(min(3, entries))]
        out += enc_len(len(pel))
        for rid in pel:
            out += rid + struct.pack("<q", base_ms + 5000) + enc_len(1)
        out += enc_len(2)
        for c in range(2):
            out += enc_str(b"consumer%d" % c) + struct.pack("<q", base_ms + 6000)
            if t >= RDB_TYPE_STREAM_LISTPACKS_3:
                out += struct.pack("<q", base_ms + 7000)
            mine = pel[c::2]
            out += enc_len(len(mine)) + b"".join(mine)
    return t, out


def v_hash_metadata(fields, pre_ga=False):
    """Hash with field TTLs (RDB 12): fields are (field, value, expire_at_ms or 0). Type 24 stores the min expire,
    then each TTL relative to it (+1, 0 = none); the release candidates' type 22 stores them absolute."""
    ttls = [e for _, _, e in fields if e]
    min_expire = min(ttls) if ttls else (1 << 48)  # Redis's EB_EXPIRE_TIME_INVALID when no field expires
    out = b"" if pre_ga else struct.pack("<Q", min_expire)
    out += enc_len(len(fields))
    for f, v, e in fields:
        ttl = e if pre_ga or not e else e - min_expire + 1
        out += enc_len(ttl) + enc_str(f) + enc_str(v)
    return (RDB_TYPE_HASH_METADATA_PRE_GA if pre_ga else RDB_TYPE_HASH_METADATA), out


def v_hash_listpack_ex(fields, pre_ga=False):
    """Listpack hash with field TTLs: triples field, value, absolute expiry (0 = none); type 25 first stores
    the min expire, the release candidates' type 23 does not."""
    ttls = [e for _, _, e in fields if e]
    out = b"" if pre_ga else struct.pack("<Q", min(ttls) if ttls else (1 << 48))
    out += enc_str(listpack([x for f, v, e in fields for x in (as_entry(f), as_entry(v), e)]))
    return (RDB_TYPE_HASH_LISTPACK_EX_PRE_GA if pre_ga else RDB_TYPE_HASH_LISTPACK_EX), out


MODULE_CHARSET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def module_id(name: bytes, encver: int) -> int:
    """Redis's 64-bit module type id: 9 name characters of 6 bits each, then a 10-bit encoding version."""
    v = 0
    for c in name:
        v = (v << 6) | MODULE_CHARSET.index(c)
    return (v << 10) | encver


def module_items(items) -> bytes:
    """A module's annotated serialization: (opcode, value) items, then the EOF opcode."""
    out = b""
    for op, v in items:
        out += enc_len(op)
        if op in (RDB_MODULE_OPCODE_SINT, RDB_MODULE_OPCODE_UINT):
            out += enc_len(v & ((1 << 64) - 1))
        elif op == RDB_MODULE_OPCODE_FLOAT:
            out += struct.pack("<f", v)
        elif op == RDB_MODULE_OPCODE_DOUBLE:
            out += struct.pack("<d", v)
        else:
            out += enc_str(v)
    return out + enc_len(RDB_MODULE_OPCODE_EOF)


def v_module(mid: int, items):
    return RDB_TYPE_MODULE_2, enc_len(mid) + module_items(items)


# --- the file --------------------------------------------------------------------------


class Writer:
    def __init__(self, version: int):
        self.version = version
        self.buf = bytearray(b"REDIS%04d" % version)

    def aux(self, k: bytes, v: bytes) -> None:
        self.buf += bytes([RDB_OPCODE_AUX]) + enc_str(k) + enc_str(v)

    def select(self, db: int, size: int | None = None, expires: int = 0) -> None:
        self.buf += bytes([RDB_OPCODE_SELECTDB]) + enc_len(db)
        if size is not None and self.version >= 7:
            self.buf += bytes([RDB_OPCODE_RESIZEDB]) + enc_len(size) + enc_len(expires)

    def key(
        self, key: bytes, value, expire_ms: int | None = None, expire_s: int | None = None, idle: int | None = None, freq: int | None = None
    ) -> None:
        t, body = value
        if expire_ms is not None:
            self.buf += bytes([RDB_OPCODE_EXPIRETIME_MS]) + struct.pack("<q", expire_ms)
        if expire_s is not None:
            self.buf += bytes([RDB_OPCODE_EXPIRETIME]) + struct.pack("<i", expire_s)  # signed 32-bit
        if idle is not None:
            self.buf += bytes([RDB_OPCODE_IDLE]) + enc_len(idle)
        if freq is not None:
            self.buf += bytes([RDB_OPCODE_FREQ, freq])
        self.buf += bytes([t]) + enc_str(key) + body

    def slot_info(self, slot: int, size: int, expires: int) -> None:
        self.buf += bytes([RDB_OPCODE_SLOT_INFO]) + enc_len(slot) + enc_len(size) + enc_len(expires)

    def module_aux(self, mid: int, when: int, items) -> None:
        self.buf += bytes([RDB_OPCODE_MODULE_AUX]) + enc_len(mid) + enc_len(RDB_MODULE_OPCODE_UINT) + enc_len(when)
        self.buf += module_items(items)

    def finish(self, path: Path) -> None:
        self.buf += bytes([RDB_OPCODE_EOF])
        if self.version >= 5:
            self.buf += struct.pack("<Q", rdb_parse.crc64(0, self.buf))
        path.write_bytes(self.buf)


WORDS = [
    b"alpha",
    b"bravo",
    b"charlie",
    b"delta",
    b"echo",
    b"foxtrot",
    b"golf",
    b"hotel",
    b"india",
    b"juliet",
    b"kilo",
    b"lima",
    b"mike",
    b"november",
    b"oscar",
    b"papa",
]


def _text(rng: random.Random, words: int) -> bytes:
    return b" ".join(rng.choice(WORDS) for _ in range(words))


def _rand_bytes(rng: random.Random, n: int) -> bytes:
    return rng.getrandbits(8 * n).to_bytes(n, "little") if n else b""


def _item(rng: random.Random, k: int) -> bytes:
    """A collection element: small ints of every width, words, or binary."""
    r = k % 7
    if r == 0:
        return b"%d" % rng.choice(
            [
                rng.randrange(13),
                rng.randrange(-128, 128),
                rng.randrange(-32768, 32768),
                rng.randrange(-(1 << 23), 1 << 23),
                rng.randrange(-(1 << 31), 1 << 31),
                rng.randrange(-(1 << 63), 1 << 63),
            ]
        )
    if r == 1:
        return _rand_bytes(rng, rng.randrange(1, 24))
    return b"%s:%d" % (rng.choice(WORDS), rng.randrange(100000))


def all_encodings(w: Writer, rng: random.Random, u: int, big: bool) -> None:
    """One key of every type and encoding (u numbers the round; `big` adds large values)."""
    items = lambda n: [_item(rng, k) for k in range(n)]
    pairs = lambda n: [(b"f%d" % k, _item(rng, k + 3)) for k in range(n)]
    scores = lambda n: [
        (b"m%d:%d" % (u, k), rng.choice([k * 1.0, k + 0.5, -k * 0.25, rng.random() * 1e6, rng.uniform(-1e-300, 1e-300), 1e22 + k]))
        for k in range(n)
    ]
    p = b"u%d:" % u
    now = 1_800_000_000
    w.key(p + b"str:raw", v_string(b"plain value %d" % u))
    w.key(p + b"str:i8", v_string(b"%d" % rng.randrange(-128, 128)), expire_ms=(now + u) * 1000 + 123)
    w.key(p + b"str:i16", v_string(b"%d" % rng.randrange(-32768, 32768)), expire_s=now + u)
    w.key(p + b"str:i32", v_string(b"%d" % rng.randrange(-(1 << 31), 1 << 31)), idle=u)
    w.key(p + b"str:i64text", v_string(b"%d" % rng.randrange(1 << 40, 1 << 62)), freq=u % 256)
    w.key(p + b"str:lzf", v_string(_text(rng, 40 + u % 200), lzf=True))
    w.key(p + b"str:w14", v_string(b"forced 14-bit length", width=14))
    w.key(p + b"str:w32", v_string(b"forced 32-bit length", width=32))
    w.key(p + b"str:w64", v_string(b"forced 64-bit length", width=64))
    w.key(p + b"str:bin", v_string(_rand_bytes(rng, 50 + u % 100)))
    w.key(p + b"str:empty", v_string(b""))
    w.key(p + b"list", v_list(items(5 + u % 20)), expire_ms=(now + 7) * 1000)
    w.key(p + b"list:w64", v_list(items(3), width=64))
    w.key(p + b"set", v_set(list(dict.fromkeys(items(5 + u % 20)))))
    w.key(p + b"zset1", v_zset1([*scores(6), (b"inf", float("inf")), (b"-inf", float("-inf"))]))
    w.key(p + b"zset2", v_zset2([*scores(8), (b"negzero", -0.0), (b"inf", float("inf"))]))
    w.key(p + b"hash", v_hash(pairs(6 + u % 10)))
    w.key(p + b"zipmap", v_zipmap(pairs(5), free=u % 3))
    w.key(p + b"ziplist", v_ziplist(items(12)))
    w.key(p + b"intset16", v_intset([rng.randrange(-30000, 30000) for _ in range(10)]))
    w.key(p + b"intset32", v_intset([rng.randrange(-(1 << 31), 1 << 31) for _ in range(10)]))
    w.key(p + b"intset64", v_intset([rng.randrange(-(1 << 63), 1 << 63) for _ in range(10)]))
    w.key(p + b"zset:zl", v_zset_ziplist(scores(8)))
    w.key(p + b"hash:zl", v_hash_ziplist(pairs(8)))
    w.key(p + b"quicklist", v_quicklist([items(10), items(3)]))
    w.key(p + b"hash:lp", v_hash_listpack(pairs(8)), expire_ms=(now + 9) * 1000)
    w.key(p + b"zset:lp", v_zset_listpack(scores(8)))
    w.key(p + b"quicklist2", v_quicklist2([items(10), _text(rng, 30), items(4)]))
    w.key(p + b"set:lp", v_set_listpack(list(dict.fromkeys(items(10)))))
    for t in (RDB_TYPE_STREAM_LISTPACKS, RDB_TYPE_STREAM_LISTPACKS_2, RDB_TYPE_STREAM_LISTPACKS_3):
        w.key(p + b"stream%d" % t, v_stream(rng, t, 3 + u % 5, u % 3))
    if big:
        n = 300
        w.key(p + b"big:str32", v_string(_rand_bytes(rng, 20000)))  # natural 32-bit length
        w.key(p + b"big:lzf", v_string(_text(rng, 4000), lzf=True))  # 14/32-bit LZF lengths
        w.key(p + b"big:list", v_list(items(n)))
        w.key(p + b"big:set", v_set([b"member:%d" % k for k in range(n)]))
        w.key(p + b"big:zset2", v_zset2(scores(n)))
        w.key(p + b"big:hash", v_hash(pairs(n), lzf=True))
        w.key(p + b"big:ziplist", v_ziplist([*items(n), b"x" * 300, b"y" * 20000, b"z"]))  # 5-byte prevlen, 14/32-bit
        w.key(p + b"big:listpack", v_hash_listpack([*pairs(50), (b"big12", b"q" * 3000), (b"big32", b"r" * 5000)]))
        w.key(p + b"big:zipmap", v_zipmap([(b"k", b"v" * 300), (b"k2", b"w")]))
        w.key(p + b"big:quicklist2", v_quicklist2([items(128) for _ in range(5)] + [b"p" * 10000]))
        w.key(p + b"big:stream", v_stream(rng, RDB_TYPE_STREAM_LISTPACKS_3, 450, 2))


def _gen_tiny(path: Path) -> None:
    rng = random.Random(1)
    w = Writer(11)
    for k, v in (
        (b"redis-ver", b"7.2.4"),
        (b"redis-bits", b"64"),
        (b"ctime", b"1700000000"),
        (b"used-mem", b"1048576"),
        (b"aof-base", b"0"),
    ):
        w.aux(k, v)
    w.buf += bytes([RDB_OPCODE_FUNCTION2]) + enc_str(b"#!lua name=mylib\nredis.register_function('f', function() return 1 end)")
    for db, units in ((0, range(0, 3)), (1, range(3, 5)), (9, range(5, 6)), (300, range(6, 7))):
        w.select(db, 40 * len(units), 3 * len(units))
        for u in units:
            all_encodings(w, rng, u, big=(u in (0, 6)))
    w.finish(path)


def _gen_legacy(path: Path) -> None:
    """RDB 9: only the encodings Redis 2.x-4.x wrote (what rdbtools can read)."""
    rng = random.Random(2)
    w = Writer(9)
    w.aux(b"redis-ver", b"4.0.14")
    for db in (0, 2):
        w.select(db, 20, 2)
        for u in range(4):
            p = b"db%d:%d:" % (db, u)
            w.key(p + b"str", v_string(b"value %d" % u), expire_ms=1_800_000_000_123 + u)
            w.key(p + b"int", v_string(b"%d" % rng.randrange(-(1 << 31), 1 << 31)))
            w.key(p + b"lzf", v_string(_text(rng, 60), lzf=True), expire_s=1_800_000_000 + u, idle=5)
            w.key(p + b"list", v_list([_item(rng, k) for k in range(7)]))
            w.key(p + b"set", v_set([b"s%d" % k for k in range(6)]))
            w.key(p + b"zset1", v_zset1([(b"m%d" % k, k * 1.5 - 2) for k in range(5)]))
            w.key(p + b"zset2", v_zset2([(b"m%d" % k, k / 3) for k in range(5)]))
            w.key(p + b"hash", v_hash([(b"f%d" % k, b"v%d" % k) for k in range(5)]), freq=7)
            w.key(p + b"zipmap", v_zipmap([(b"f%d" % k, _item(rng, k)) for k in range(5)], free=1))
            w.key(p + b"ziplist", v_ziplist([_item(rng, k) for k in range(14)]))
            w.key(p + b"intset", v_intset([rng.randrange(-99999, 99999) for _ in range(8)]))
            w.key(p + b"zset:zl", v_zset_ziplist([(b"m%d" % k, k * 0.75) for k in range(6)]))
            w.key(p + b"hash:zl", v_hash_ziplist([(b"f%d" % k, _item(rng, k)) for k in range(6)]))
            w.key(p + b"quicklist", v_quicklist([[_item(rng, k) for k in range(9)], [b"tail"]]))
    w.finish(path)


def _gen_quick(path: Path, size: int) -> None:
    rng = random.Random(3)
    w = Writer(11)
    w.aux(b"redis-ver", b"7.2.4")
    w.aux(b"redis-bits", b"64")
    u = 0
    db = 0
    while len(w.buf) < size:
        if u % 200 == 0:
            w.select(db)
            db = (db + 1) % 4
        all_encodings(w, rng, u, big=(u % 4 == 0))
        u += 1
    w.finish(path)


def _gen_seed(path: Path, size: int) -> None:
    """A 2015-style cache (RDB 6, Redis 3.0): sessions, counters, small hashes, zsets, lists, sets."""
    rng = random.Random(4)
    w = Writer(6)
    n = 0
    w.select(0)
    now_ms = 1_430_000_000_000
    while len(w.buf) < size:
        n += 1
        r = rng.random()
        exp = now_ms + rng.randrange(86_400_000) if rng.random() < 0.3 else None
        if r < 0.30:
            w.key(b"session:%08x" % rng.getrandbits(32), v_string(_rand_bytes(rng, rng.randrange(16, 160))), expire_ms=exp)
        elif r < 0.45:
            w.key(b"counter:%d" % n, v_string(b"%d" % rng.randrange(-(1 << 31), 1 << 31)), expire_ms=exp)
        elif r < 0.50:
            w.key(b"page:%d" % n, v_string(_text(rng, rng.randrange(30, 300)), lzf=True), expire_ms=exp)
        elif r < 0.70:
            w.key(
                b"user:%d" % n,
                v_hash_ziplist(
                    [
                        (b"name", b"user%d" % n),
                        (b"age", b"%d" % rng.randrange(99)),
                        (b"email", b"u%d@example.com" % n),
                        (b"visits", b"%d" % rng.randrange(10**6)),
                        (b"score", b"%d" % rng.randrange(-5000, 5000)),
                    ]
                ),
                expire_ms=exp,
            )
        elif r < 0.78:
            w.key(b"rank:%d" % n, v_zset_ziplist([(b"p%d" % k, rng.randrange(10**6) / 8) for k in range(rng.randrange(2, 30))]))
        elif r < 0.86:
            w.key(b"recent:%d" % n, v_ziplist([b"event:%d" % rng.randrange(10**7) for _ in range(rng.randrange(2, 40))]))
        elif r < 0.93:
            w.key(b"tags:%d" % n, v_intset([rng.randrange(10**5) for _ in range(rng.randrange(2, 60))]))
        elif r < 0.96:
            w.key(b"old:%d" % n, v_zipmap([(b"f%d" % k, b"%d" % rng.randrange(1000)) for k in range(4)]))
        elif r < 0.97:
            w.key(b"biglist:%d" % n, v_list([b"item:%d" % rng.randrange(10**6) for _ in range(rng.randrange(200, 600))]))
        elif r < 0.98:
            w.key(b"bigset:%d" % n, v_set([b"m:%d" % k for k in range(rng.randrange(200, 600))]))
        elif r < 0.99:
            w.key(b"bighash:%d" % n, v_hash([(b"field:%d" % k, _text(rng, 3)) for k in range(rng.randrange(100, 300))]))
        else:
            w.key(b"bigzset:%d" % n, v_zset1([(b"p:%d" % k, rng.random() * 1000) for k in range(rng.randrange(150, 300))]))
        if n == 100_000:
            w.select(1)
    w.finish(path)


def _gen_modern(path: Path) -> None:
    """RDB 12 as Redis 7.4 / 8.x write it: hashes with field TTLs (types 24, 25 and the release candidates'
    22, 23), cluster SLOT_INFO, module values (type 7) and MODULE_AUX, next to ordinary keys."""
    rng = random.Random(5)
    w = Writer(12)
    w.aux(b"redis-ver", b"8.0.0")
    w.aux(b"redis-bits", b"64")
    json_id, bf_id = module_id(b"ReJSON-RL", 3), module_id(b"MBbloom--", 1)
    w.module_aux(bf_id, 1, [(RDB_MODULE_OPCODE_UINT, 7), (RDB_MODULE_OPCODE_STRING, b"before keys")])
    now = 1_800_000_000_000
    for db in (0, 5):
        w.select(db, 40, 10)
        for slot in range(3):
            w.slot_info(slot * 5000 + db, 12, 4)
            p = b"{s%d}db%d:" % (slot, db)
            w.key(p + b"str", v_string(b"value %d" % slot), expire_ms=now + slot)
            w.key(p + b"hash", v_hash([(b"f%d" % k, b"v%d" % k) for k in range(3)]))
            fields = [(b"f%d" % k, _item(rng, k), (now + 1000 * k + slot) if k % 3 else 0) for k in range(8)]
            w.key(p + b"hfe:meta", v_hash_metadata(fields), expire_ms=now + 99)
            w.key(p + b"hfe:meta:rc", v_hash_metadata(fields[:5], pre_ga=True))
            w.key(p + b"hfe:lpex", v_hash_listpack_ex(fields))
            w.key(p + b"hfe:lpex:rc", v_hash_listpack_ex(fields[2:], pre_ga=True))
            w.key(p + b"hfe:lpex:none", v_hash_listpack_ex([(b"a", b"1", 0), (b"b", b"2", 0)]))  # all TTLs removed
            big = [(b"field:%d" % k, _text(rng, 3), now + 7 * k if k % 2 else 0) for k in range(300)]
            w.key(p + b"hfe:meta:big", v_hash_metadata(big))
            w.key(
                p + b"json",
                v_module(
                    json_id,
                    [
                        (RDB_MODULE_OPCODE_STRING, b'{"a":[1,2,3],"s":"x"}'),
                        (RDB_MODULE_OPCODE_UINT, 1 << 40),
                        (RDB_MODULE_OPCODE_SINT, -5),
                        (RDB_MODULE_OPCODE_FLOAT, 1.5),
                        (RDB_MODULE_OPCODE_DOUBLE, -2.25),
                    ],
                ),
                expire_s=1_800_000_000,
            )
            w.key(
                p + b"bloom",
                v_module(
                    bf_id, [(RDB_MODULE_OPCODE_UINT, k) for k in range(slot + 1)] + [(RDB_MODULE_OPCODE_STRING, _rand_bytes(rng, 40))]
                ),
            )
            w.key(p + b"zset:lp", v_zset_listpack([(b"m%d" % k, k * 0.5) for k in range(5)]))
    w.module_aux(json_id, 2, [(RDB_MODULE_OPCODE_DOUBLE, 3.0)])
    w.finish(path)


FIXED = {"tiny": _gen_tiny, "legacy": _gen_legacy, "modern": _gen_modern}  # the same keys whatever the size
GROWN = {"quick": _gen_quick, "seed": _gen_seed}  # keys added until the file reaches a size


def write(dataset: str, path: Path, size: int | None = None) -> None:
    """Write one dataset's dump to path: tiny, legacy and modern are fixed; quick and seed grow to `size` bytes
    (and a little past it: the last key and the trailer)."""
    if dataset in GROWN:
        GROWN[dataset](path, size)
    else:
        FIXED[dataset](path)
