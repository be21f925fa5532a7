# Strategy: fastavro 1.13.1 (its Cython reader and writer): schemaless_writer of the plain dicts and lists against
# avro/catalogue.avsc (parsed once, untimed) into a new BytesIO; schemaless_reader back to them (writer schema ==
# reader schema), the datum's bytes wholly used (trailing bytes refused).
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import common
import fastavro

SCHEMA = fastavro.parse_schema(json.loads((Path(__file__).resolve().parent.parent / "avro" / "catalogue.avsc").read_text()))


def encode(data: Any) -> bytes:
    out = io.BytesIO()
    fastavro.schemaless_writer(out, SCHEMA, data)
    return out.getvalue()


def decode(raw: bytes) -> Any:
    # fastavro's errors on bad bytes are of several kinds (EOFError, IndexError for a union branch past the end,
    # UnicodeDecodeError, OverflowError, MemoryError...): each made a ValueError here, so common.main refuses
    # it in one line (a try costs nothing on 3.11's clock unless it raises)
    source = io.BytesIO(raw)
    try:
        out = fastavro.schemaless_reader(source, SCHEMA, SCHEMA)
    except (EOFError, IndexError, ValueError, OverflowError, MemoryError, StopIteration) as e:
        raise ValueError(f"{type(e).__name__}: {e}") from None
    if source.tell() != len(raw):
        raise ValueError(f"{len(raw) - source.tell()} bytes after the datum")
    return out


common.main(encode, decode)
