"""readexact suite: the seed's LEN-byte read_exact loop, every strategy and profile, through the harness."""

from __future__ import annotations


def test_readexact_tiny_every_cell_ok(iorace):
    res = iorace(["run", "readexact", "--size", "tiny", "--check-only"])
    rows = res.cells(suite="readexact")
    # 8 strategies (the seed's three Vec-per-chunk programs and five reusing rows) x release, debug, and the
    # seed's three also built as its plain rustc (seed-noopt)
    assert len(rows) == 8 * 2 + 3, (res.stdout[-2000:], res.stderr[-2000:])
    assert {r["variant"] for r in rows if r["profile"] == "seed-noopt"} == {"bytewise", "readloop-vec", "old-io-vec"}
    assert {r["variant"] for r in rows} >= {"bytewise", "readloop-vec", "old-io-vec", "readloop"}
    bad = [(r["label"], r["status"], r["detail"]) for r in rows if r["status"] != "ok"]
    assert not bad, bad
    # the answer is the file size rounded down to a multiple of LEN (the partial last chunk is EOF)
    assert all(r["answer"] == r["expected"] and r["answer"] % 10 == 0 for r in rows)
    assert res.returncode == 0


def test_seed_size_dataset_is_the_seeds_size(iorace):
    """The seed's README reads 6,789,100 bytes at LEN 10: `seed-size` is a seed-like dump of about that size."""
    res = iorace(["run", "readexact", "--size", "seed-size", "--check-only", "--variant", "rust/readloop-vec", "--profile", "release"])
    (row,) = res.cells(suite="readexact")
    assert row["status"] == "ok" and row["answer"] == row["expected"], row
    assert 6_700_000 <= row["answer"] <= 6_900_000
    assert res.returncode == 0
