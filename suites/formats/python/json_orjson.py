# Strategy: orjson (Rust, SIMD-assisted, the fast JSON library of Python): dumps to compact UTF-8 bytes of the plain
# dicts and lists, loads back to them: the same plain objects as the json cell, so the two differ by library only.
from __future__ import annotations

from typing import Any

import common
import orjson


def encode(data: Any) -> bytes:
    # orjson's defaults are the canon's: compact, UTF-8 unescaped, dict order kept (no OPT_SORT_KEYS: the dicts
    # come from the canonical file in its order); an int past 64 bits is a JSONEncodeError (a TypeError).
    return orjson.dumps(data)


def decode(raw: bytes) -> Any:
    # Integers within i64/u64 come back exact (as Python ints, not doubles); past u64 orjson raises
    # JSONDecodeError (a ValueError): common.main refuses either in one line.
    return orjson.loads(raw)


common.main(encode, decode)
