"""The spin test suite: no input to speak of; the answer is the number of steps taken."""

from pathlib import Path


def generate(dataset: str, path: Path) -> None:
    path.write_bytes(b"")


def expected(path: Path, params: dict) -> int:
    return int(params["steps"])


def units(path: Path, params: dict) -> dict[str, int]:
    return {"steps": int(params["steps"])}
