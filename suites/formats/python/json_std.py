# Strategy: the standard library's json: dumps (compact, UTF-8) of the plain dicts and lists, loads back to them.
from __future__ import annotations

import json
from typing import Any

import common


def encode(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def decode(raw: bytes) -> Any:
    return json.loads(raw)


common.main(encode, decode)
