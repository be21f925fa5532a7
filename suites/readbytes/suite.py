"""readbytes: datasets (written through the real protobuf library) and the reference answer.

The seed file is the original's `Shop` message with ids 0..2,999,999 written
by protobuf. We compile `shop.proto` with protoc at generation time and write
the message through the Python protobuf runtime, so the bytes come from a
real protobuf implementation, not from a hand-written varint encoder.
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

# ids per dataset; `big` is the seed message repeated (see _write_big).
IDS = {"tiny": 10_000, "quick": 3_000_000, "seed": 3_000_000}
BIG_REPEATS = 100


def _shop_module():
    """Compile shop.proto with protoc into a temp dir and import the generated module."""
    protoc = shutil.which("protoc")
    if protoc is None:
        raise RuntimeError("protoc not found (apt-get install protobuf-compiler)")
    out = Path(tempfile.mkdtemp(prefix="iorace-proto-"))
    subprocess.run([protoc, f"--proto_path={HERE}", f"--python_out={out}", str(HERE / "shop.proto")], check=True)
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module("shop_pb2")
    finally:
        sys.path.remove(str(out))


def _shop_bytes(n_ids: int) -> bytes:
    shop = _shop_module().Shop()
    shop.id.extend(range(n_ids))
    return shop.SerializeToString()


def generate(dataset: str, path: Path) -> None:
    if dataset == "big":
        # Concatenated protobuf messages of one type parse as one merged message,
        # so 100 copies of the seed file are still a valid Shop (1.29 GB), big
        # enough to leave every CPU cache.
        chunk = _shop_bytes(IDS["seed"])
        with open(path, "wb") as f:
            for _ in range(BIG_REPEATS):
                f.write(chunk)
        return
    path.write_bytes(_shop_bytes(IDS[dataset]))


def _byte_stats(path: Path) -> tuple[int, int]:
    """(size, sum of byte values) of a file, read in blocks with numpy."""
    size = 0
    total = 0
    with open(path, "rb") as f:
        while block := f.read(1 << 24):
            size += len(block)
            total += int(np.frombuffer(block, dtype=np.uint8).sum(dtype=np.uint64))
    return size, total


def expected(path: Path, params: dict) -> int:
    """count = bytes delivered over all passes; sum = every byte value plus the count (as the original)."""
    size, total = _byte_stats(path)
    passes = int(params["passes"])
    if params["mode"] == "count":
        return size * passes
    return (total + size) * passes


def units(path: Path, params: dict) -> dict[str, int]:
    return {"bytes": path.stat().st_size * int(params["passes"])}
