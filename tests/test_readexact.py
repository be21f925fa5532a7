"""readexact suite: the seed's LEN-byte read_exact loop, every strategy and profile, through the harness."""
from __future__ import annotations

import pytest

# End-to-end: builds toolchains and runs the real CLI (`pytest -m "not slow"` is the quick loop).
pytestmark = pytest.mark.slow


def test_readexact_tiny_every_cell_ok(iorace):
    res = iorace(["run", "readexact", "--size", "tiny", "--check-only"])
    rows = res.cells(suite="readexact")
    assert len(rows) == 6 * 2, (res.stdout[-2000:], res.stderr[-2000:])
    bad = [(r["label"], r["status"], r["detail"]) for r in rows if r["status"] != "ok"]
    assert not bad, bad
    # the answer is the file size rounded down to a multiple of LEN (the partial last chunk is EOF)
    assert all(r["answer"] == r["expected"] and r["answer"] % 10 == 0 for r in rows)
    assert res.returncode == 0
