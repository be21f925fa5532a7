"""The slowbuild test suite: no input to speak of; the answer is the parameter n."""

from pathlib import Path


def generate(dataset: str, path: Path) -> None:
    path.write_bytes(b"")


def expected(path: Path, params: dict) -> int:
    return int(params["n"])
