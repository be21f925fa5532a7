"""Text files that may be stored gzipped: an export named `X.json.gz` (or `.tsv.gz`, any `.gz`) is the same
text as `X.json`, compressed, so that docs/results/ stays light. Readers take either, by the file's first bytes;
writers compress when the name ends in `.gz` (reproducibly: no name, no time in the gzip header)."""

from __future__ import annotations

import gzip
from pathlib import Path

GZIP_MAGIC = b"\x1f\x8b"


def is_gz(path: Path | str) -> bool:
    return str(path).endswith(".gz")


def read_bytes(path: Path | str) -> bytes:
    """The file's content, gunzipped when it is gzip (whatever its name)."""
    data = Path(path).read_bytes()
    return gzip.decompress(data) if data[:2] == GZIP_MAGIC else data


def read_text(path: Path | str) -> str:
    """The file's text (UTF-8), gunzipped when it is gzip."""
    return read_bytes(path).decode("utf-8")


def compress(data: bytes) -> bytes:
    """gzip of `data`, the same bytes for the same data (mtime 0, no file name)."""
    return gzip.compress(data, compresslevel=9, mtime=0)
