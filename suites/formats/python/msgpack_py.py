# Strategy: msgpack (the C extension): packb of the plain dicts and lists, unpackb back to them (str keys and values).
from __future__ import annotations

from typing import Any

import common
import msgpack


def encode(data: Any) -> bytes:
    return msgpack.packb(data, use_bin_type=True)


def decode(raw: bytes) -> Any:
    return msgpack.unpackb(raw, raw=False, strict_map_key=True)


common.main(encode, decode)
