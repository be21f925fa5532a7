"""rdb: the suite's protocol. generate() writes each dataset with python/rdb_write.py, the RDB writer (every
encoding, from the format); expected() and units() answer with python/rdb_parse.py, the reference parser.
Real dumps made by redis-server itself are exercised by tests/test_rdb.py (in this folder).

datasets
  tiny    every encoding once, small and large (RDB 11, ~0.3 MB)
  legacy  old encodings only (RDB 9: zipmap, ziplist, quicklist v1, zset v1), small
  modern  RDB 12 (Redis 7.4 / 8.x): hashes with field TTLs (types 22-25), SLOT_INFO, module values and
          MODULE_AUX (skipped as redis-check-rdb does), small
  quick   every encoding, repeated with variations to ~40 MB (RDB 11)
  seed    seed-like: a 2015-era cache dump (RDB 6) of ~40 MB: many small
          strings, ziplist hashes/lists/zsets, intsets, some hashtable-encoded
          collections, expiries
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "python"))
import rdb_parse  # noqa: E402  (the reference parser, also the python3 variant)
import rdb_write  # noqa: E402  (the writer of every dataset)

sys.path.remove(str(HERE / "python"))

# The bytes quick and seed grow to (readexact's seed-size sets seed's lower in its own copy of this module).
TARGET = {"quick": 40_000_000, "seed": 40_000_000}


def generate(dataset: str, path: Path) -> None:
    rdb_write.write(dataset, Path(path), TARGET.get(dataset))


def expected(path: Path, params: dict) -> dict:
    if params.get("job") == "crc64":  # the limit row: only the CRC-64 of all but the last 8 bytes (the trailer)
        data = Path(path).read_bytes()
        return {"crc64": f"{rdb_parse.crc64(0, data[: max(len(data) - 8, 0)]):016x}", "bytes": len(data)}
    return _parsed(path)


def _parsed(path: Path) -> dict:
    """The reference's summary, parsed once per file and session (expected() and units() both need it)."""
    st = Path(path).stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _PARSED:
        _PARSED.clear()
        _PARSED[key] = rdb_parse.parse_file(path)
    return _PARSED[key]


_PARSED: dict[tuple, dict] = {}


def units(path: Path, params: dict) -> dict[str, int]:
    """Bytes and keys read: the report shows MB/s and keys/s (the limit row reads bytes only)."""
    size = Path(path).stat().st_size
    if params.get("job") == "crc64":
        return {"bytes": size}
    return {"bytes": size, "keys": _parsed(path)["keys"]}
