"""readexact: the seed's chunk program over Redis dumps made by the rdb suite's generator.

`prog FILE LEN` reads LEN-byte chunks with read_exact until it fails at the
end of the file and answers the bytes read: the file size rounded down to a
multiple of LEN (the last, partial chunk is a "premature EOF" and not counted,
as in the seed's programs).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

_RDB = Path(__file__).resolve().parent.parent / "rdb" / "suite.py"


def _rdb_suite():
    spec = importlib.util.spec_from_file_location("iorace_readexact_rdb_generator", _RDB)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# The seed's own file: its README reports 6,789,100 bytes read at LEN 10 (a file of 6.8 MB,
# whatever its name "40mb.rdb" says). `seed-size` is the rdb suite's seed-like dump cut there.
SEED_SIZE = 6_789_100


def generate(dataset: str, path: Path) -> None:
    rdb = _rdb_suite()
    if dataset == "seed-size":
        rdb.TARGET = {**rdb.TARGET, "seed": SEED_SIZE}  # this private copy of the module only
        rdb.generate("seed", path)
        return
    rdb.generate(dataset, path)


def expected(path: Path, params: dict) -> int:
    size = Path(path).stat().st_size
    n = int(params["len"])
    return size // n * n


def units(path: Path, params: dict) -> dict[str, int]:
    return {"bytes": Path(path).stat().st_size}
