"""timerbench: the answer is 0 whatever the input (the programs time the harness, not a job)."""

from pathlib import Path


def generate(dataset: str, path: Path) -> None:
    path.write_bytes(b"\n")


def expected(path: Path, params: dict) -> int:
    return 0
