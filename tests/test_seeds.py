"""`iorace seeds` end to end: every seed's own configuration at tiny size, each seed's table printed first with
the seed's figures beside today's; and one seed timed, its ratios beside the seed's."""

from __future__ import annotations

import re

import pytest

from conftest import require_toolchains

# (seed, its suite, one row of its table with the seed's figure as printed, and that figure over its baseline's)
SEEDS = [
    ("readbytes", "readbytes", "g++-3(count)", "953.0 ms", "8.29x"),
    ("lines", "lines", "iopipeByLineInBufOut", "2.96 s", "0.13x"),
    ("serialize", "serialize", "ser-classes (gdc)", "16.1 s", "3.58x"),
    ("readexact", "readexact", "new-io", "195.6 ms", "2.93x"),
    ("capnp", "capnp", "eval pipe Rust", "2.45 s", "1.02x"),
]


def table_of(stdout: str, seed: str, suite: str) -> list[str]:
    """The lines of one seed's then-and-now table, from its title to its caption."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{seed}: then and now · {suite} · tiny"))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("The seed's rows"))
    return lines[start:end]


def row_text(table: list[str], label: str) -> str:
    """One row of a table with its wrapped lines (those that follow it, starting blank), whitespace collapsed: the
    words of a wrapped cell stay in order whatever width the table's other rows leave it."""
    start = next(i for i, line in enumerate(table) if line.startswith(label + " "))
    end = next((i for i in range(start + 1, len(table)) if not table[i].startswith(" ")), len(table))
    return " ".join(" ".join(table[start:end]).split())


def test_every_seed_at_tiny_size_prints_its_table_with_the_seeds_figures(iorace):
    require_toolchains("g++", "clang++", "gdc", "ldc2", "cargo", "javac")
    res = iorace(["seeds", "--size", "tiny", "--check-only"])
    assert res.returncode == 0, (res.stdout[-3000:], res.stderr[-3000:])
    # the terminal ends with the overview, where a run ends: the five seed tables, in the seeds' order, after
    # every per-dataset table (Markdown and HTML open with them: tests/unit/test_golden.py)
    titles = [line.split(" ·")[0] for line in res.stdout.splitlines() if ": then and now · " in line]
    assert titles == [f"{s}: then and now" for s, *_ in SEEDS]
    last_group = res.stdout.rindex("readbytes · tiny · mode=")
    assert all(res.stdout.index(f"{s}: then and now") > last_group for s, *_ in SEEDS)
    for seed, suite, row, figure, ratio in SEEDS:
        table = table_of(res.stdout, seed, suite)
        assert "then (seed)" in table[1], table[:2]
        # the label, then the column's padding; lines' label wraps ("iopipeByLineInBufOut" over "(ldc2:dcat-lto-pgo)")
        # and its row at dcat's own build comes first, before ours (ldc2:lto-pgo)
        line = next(x for x in table if x.startswith(row + "  "))
        assert re.search(rf"\s{re.escape(figure)}\s+{re.escape(ratio)}\s", line), line
    # rows that cannot run here say why: dmd's (not packaged) and libgreen's (gone from Rust)
    readbytes = row_text(table_of(res.stdout, "readbytes", "readbytes"), "d2-Digital Mars D-1(count)")
    assert re.search(r"d2-Digital Mars D-1\(count\) .* skipped: dmd not found \(not packaged", readbytes)
    capnp = "\n".join(table_of(res.stdout, "capnp", "capnp"))
    assert re.search(r"eval pipe Rust on libgreen .* not run .* libgreen, Rust's M:N runtime", capnp)
    # exactly the cells the seed rows name: 107 + 20 + 18 + 4 + 36 rows, some sharing no cell (readbytes: 65 and
    # the seed's programs as written in 42, C++ 20, D 20, Java 2; lines: dcat's tests in dcat's own build and in
    # ours; serialize: 12 and Cerealed's designs as the seed's program wrote them in 6)
    assert len(res.cells()) == 107 + 20 + 18 + 4 + 36
    assert {c["suite"] for c in res.cells()} == {s for _, s, *_ in SEEDS}
    assert {(c["toolchain"], c["profile"]) for c in res.cells(suite="lines")} == {("ldc2", "lto-pgo"), ("ldc2", "dcat-lto-pgo")}


def test_one_seed_timed_shows_todays_ratio_beside_the_seeds(iorace):
    require_toolchains("cargo")
    res = iorace(["seeds", "readexact", "--size", "tiny", "--runs", "3", "--precision", "none", "--no-aa"])
    assert res.returncode == 0, (res.stdout[-3000:], res.stderr[-3000:])
    table = table_of(res.stdout, "readexact", "readexact")
    [new_io] = [x for x in table if x.startswith("new-io  ")]
    # today's median, its ratio to old-io with a 95% interval, then the seed's 195.6 ms and 2.93x
    ratio = r"\d+\.\d\dx \[\d+\.\d\d-\d+\.\d\d\]"
    assert re.search(rf"rust/bytewise cargo release\s+ok\s+\S+ (µs|ms)\s+{ratio}\s+195\.6 ms\s+2\.93x", new_io), new_io
    assert [c["suite"] for c in res.cells()] == ["readexact"] * 4
    # exported like any session: the table in the JSON, with the command line and the seeds it ran
    [seed] = res.export["iorace_seeds"] if res.export else [None]
    rows = {r["label"]: r for r in seed["rows"]}
    assert rows["new-io"]["then_ratio"] == pytest.approx(0.195592509 / 0.066669576)
    low, high = rows["new-io"]["now_ratio_ci95"]
    assert low <= rows["new-io"]["now_ratio"] <= high and rows["old-io"]["now_ratio"] == pytest.approx(1.0)
    assert res.export is not None and res.export["iorace"]["options"]["seeds"] == ["readexact"]
    assert res.export["iorace"]["command_line"].startswith("iorace seeds readexact --size tiny")
