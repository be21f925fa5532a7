# Peer: PyPI rdbtools' RdbParser (its own f.read per field), its callbacks folded into the canonical summary.
"""rdbtools reads RDB versions 1-9 and does not check the CRC. Where it fails,
the wrapper prints the library's error as one line and exits 1, so the cell
shows the reason (see ../README.md). Module values (type 7) and MODULE_AUX
records are answered as the other parsers answer them: rdbtools walks their
annotated items itself. Usage: python3 peer_rdbtools.py FILE"""

from __future__ import annotations

import datetime
import json
import os
import sys
import time

from rdbtools import RdbCallback, RdbParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rdb_parse import FLUSH, RDB_MODULE_OPCODE_UINT, _fmt_score, crc64  # the canonical form's digest helpers

EPOCH = datetime.datetime(1970, 1, 1)


def _b(v) -> bytes:
    if isinstance(v, bytes):
        return v
    if isinstance(v, int):
        return b"%d" % v
    return str(v).encode()


class Summary(RdbCallback):
    def __init__(self):
        super().__init__(string_escape=None)
        self.db = 0
        self.keys = self.expires = 0
        self.dbs: dict[int, int] = {}
        self.types = dict.fromkeys(("string", "list", "set", "zset", "hash", "stream", "module"), 0)
        self.digest = 0
        self.ser = bytearray()
        self.n = 0
        self.module_aux = 0
        self.module: tuple = ()  # the module record being read: (key, module type id, expiry)
        self.module_items = 0  # its annotated items so far
        self.module_first_op: int | None = None

    def field(self, b: bytes) -> None:
        self.ser += len(b).to_bytes(4, "little") + b

    def begin(self, t: str, key, expiry) -> None:
        self.field(b"%d" % self.db)
        self.field(t.encode())
        self.field(_b(key))
        if expiry is None:
            self.field(b"")
        else:
            self.field(b"%d" % ((expiry - EPOCH) // datetime.timedelta(milliseconds=1)))
            self.expires += 1
        self.keys += 1
        self.types[t] += 1
        self.dbs[self.db] = self.dbs.get(self.db, 0) + 1
        self.n = 0

    def end(self, n=None) -> None:
        self.field(b"%d" % (self.n if n is None else n))
        if len(self.ser) >= FLUSH:
            self.digest = crc64(self.digest, self.ser)
            self.ser = bytearray()

    def elem(self, v) -> None:
        self.field(_b(v))
        self.n += 1

    # rdbtools callbacks
    def start_database(self, db_number):
        self.db = db_number

    def set(self, key, value, expiry, info):
        self.begin("string", key, expiry)
        self.field(_b(value))
        self.end(1)

    def start_hash(self, key, length, expiry, info):
        self.begin("hash", key, expiry)

    def hset(self, key, field, value):
        self.field(_b(field))
        self.field(_b(value))
        self.n += 1

    def end_hash(self, key):
        self.end()

    def start_set(self, key, cardinality, expiry, info):
        self.begin("set", key, expiry)

    def sadd(self, key, member):
        self.elem(member)

    def end_set(self, key):
        self.end()

    def start_list(self, key, expiry, info):
        self.begin("list", key, expiry)

    def rpush(self, key, value):
        self.elem(value)

    def end_list(self, key, info):
        self.end()

    def start_sorted_set(self, key, length, expiry, info):
        self.begin("zset", key, expiry)

    def zadd(self, key, score, member):
        self.field(_b(member))
        # v1 (ASCII) scores arrive as the raw bytes on Python 3; ziplist ones as int or float
        self.field(_fmt_score(float(score)).encode())
        self.n += 1

    def end_sorted_set(self, key):
        self.end()

    def start_stream(self, key, listpacks_count, expiry, info):
        self.begin("stream", key, expiry)

    def end_stream(self, key, items, last_entry_id, cgroups):
        self.end(items)

    def start_module(self, key, module_name, expiry, info):
        # key None: a MODULE_AUX record (RDB 9 on: Redis 5.0 added the opcode, Redis 6's dumps carry it).
        # module_name is the whole 64-bit module type id here (Parser below).
        self.module = (key, module_name, expiry)
        self.module_items = 0
        self.module_first_op = None
        return False  # no copy of the record's bytes

    def handle_module_data(self, key, opcode, data):
        if self.module_items == 0:
            self.module_first_op = opcode
        self.module_items += 1  # only the count enters the summary, as in every parser

    def end_module(self, key, buffer_size, buffer=None):
        key, module_id, expiry = self.module
        if key is None:
            # rdbtools reads MODULE_AUX's `when` opcode and `when` as the record's first item, whatever the
            # opcode; Redis's loader, redis-check-rdb and every parser here require UINT there.
            if self.module_first_op != RDB_MODULE_OPCODE_UINT:
                got = "EOF (0)" if self.module_first_op is None else self.module_first_op
                raise ValueError(f"MODULE_AUX: bad when opcode {got}, Redis requires UINT ({RDB_MODULE_OPCODE_UINT})")
            self.module_aux += 1
            return
        self.begin("module", key, expiry)
        self.field(b"%d" % module_id)
        self.end(self.module_items)

    def answer(self) -> dict:
        self.digest = crc64(self.digest, self.ser)
        return {
            "keys": self.keys,
            "expires": self.expires,
            "dbs": {str(d): self.dbs[d] for d in sorted(self.dbs)},
            "types": self.types,
            "field_expires": 0,  # hash field TTLs exist from RDB 12 on (types 22-25): rdbtools stops at RDB 9
            "module_aux": self.module_aux,
            "digest": f"{self.digest:016x}",
        }


class Parser(RdbParser):
    """RdbParser handing start_module the whole module type id. rdbtools passes only the 9-character name it
    decodes from the id (this private helper), dropping the 10-bit encoding version, which the summary's
    module id field holds. (Asking rdbtools for the record's bytes instead, start_module returning True,
    would copy them with `bytes +=` per read: quadratic in a large module value.)"""

    def _decode_module_id(self, module_id):
        return module_id


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: peer_rdbtools.py FILE", file=sys.stderr)
        return 2
    t0 = time.perf_counter_ns()
    cb = Summary()
    try:
        Parser(cb).parse(argv[1])
        answer = cb.answer()
    except Exception as e:  # whatever rdbtools raises is the peer's failure
        msg = f"rdbtools: {type(e).__name__}: {e}".replace("\n", " ")
        print(msg, file=sys.stderr)
        return 1
    ns = time.perf_counter_ns() - t0
    print("iorace-result " + json.dumps({"answer": answer, "inner_ns": ns}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
