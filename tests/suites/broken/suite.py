"""The broken test suite: 1,000 deterministic bytes; the answer is the file size."""

from pathlib import Path


def generate(dataset: str, path: Path) -> None:
    path.write_bytes(bytes(i % 251 for i in range(1000)))


def expected(path: Path, params: dict) -> int:
    return path.stat().st_size
