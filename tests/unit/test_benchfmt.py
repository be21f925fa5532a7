"""The benchfmt export is Go's benchmark format as benchstat reads it: benchstat (golang.org/x/perf) parses every
line without a syntax error, finds every verified cell with all its runs as its sample, and the cell's
configuration (toolchain, parameters) as keys of its name; failed cells are not samples.

Where benchstat is not installed, those tests skip (scripts/setup installs it with `go install`); the lines are
checked against the format's rules (golang.org/design/14313-benchmark-format) on every machine.
"""

from __future__ import annotations

import csv
import io
import re
import statistics
import subprocess

import pytest
import sessions
from consumers import BENCHSTAT_MISSING, benchstat
from sessions import session

from iorace.export.benchfmt import benchmark_name, lines, write_benchfmt
from iorace.report.document import build

needs_benchstat = pytest.mark.skipif(benchstat() is None, reason=BENCHSTAT_MISSING)

# the format's rules: a key starts with a lower-case letter and holds no space and no upper-case letter
CONFIG = re.compile(r"(?P<key>[^\W\dA-Z_][^\sA-Z:]*):(?:[ \t]+(?P<value>.*))?")
BENCHMARK = re.compile(r"Benchmark(?P<name>\S+)[ \t]+(?P<iters>\d+)(?P<values>([ \t]+[-+.\deE]+[ \t]+\S+)+)[ \t]*")


def cell(variant: str, inner: list[float], **kw):
    return sessions.cell(variant, inner=inner, **kw)


def demo_session():
    """Two suites and three datasets; cells with 6 to 12 runs; a lines unit; parameters whose values hold what the
    format reserves; a value ending in -digits (GOMAXPROCS to the format); cells that failed, answered wrong or
    were skipped."""
    crash = cell("crash", [10, 11, 12, 13, 14, 15])
    crash.status, crash.detail = "failed", "exit code 2 in round 7"  # runs stored before it failed
    return session(
        [
            cell("fast", [10, 10.5, 11, 10, 10.2, 10.1, 10.4, 10.3]),
            cell("fast", [20, 21, 20.5, 20.2, 20.1, 20.6, 20.3, 20.4], toolchain="clang"),
            cell("slow", [30, 31, 30.5, 29, 30.2, 30.1], units={"bytes": 1000, "lines": 40}),
            crash,
            cell("broken", [], status="wrong", detail="answered 1001, expected 1000"),
            cell("nodmd", [], language="d", toolchain="dmd", status="skipped", detail="dmd is not installed"),
            cell("fast", [5, 5.1, 5.2, 5.3, 5.4, 5.5, 5.6], params={"mode": "count", "path": "a b/c=d%"}),
            cell("read-64", [7, 7.1, 7.2, 7.3, 7.4, 7.5], params={"mode": "sum", "buf": "size-4096"}),
            cell("rows", [40] * 12, wall=[41] * 12, suite="other", dataset="quick", params={}, units={"keys": 3}),
            cell("script", [], wall=[60, 61, 62, 60, 61, 62], language="python", toolchain="python", dataset="seed"),
        ],
        suites={"toy": {"throughput": "bytes"}},
    )


def exported(s) -> dict[str, object]:
    """Exported cell name (without "Benchmark") -> its row of the report."""
    return {benchmark_name(r)[len("Benchmark") :]: r for g in build(s).groups for r in g.rows if r.ok}


def test_every_line_follows_the_format_and_each_run_is_one_line():
    text = "\n".join(lines(build(demo_session())))
    runs: dict[str, int] = {}
    for line in text.splitlines():
        if line.startswith("#") or line.startswith("Unit "):
            continue
        if m := BENCHMARK.fullmatch(line):
            assert m["iters"] == "1"
            fields = m["values"].split()
            assert [u for u in fields[1::2]][:2] == ["ns/op", "wall-ns/op"]
            assert all(float(v) >= 0 for v in fields[0::2])
            runs[m["name"]] = runs.get(m["name"], 0) + 1
            continue
        assert CONFIG.fullmatch(line), f"neither a benchmark, a configuration, a unit nor a comment line: {line!r}"
    cells = exported(demo_session())
    assert runs == {name: len(r.cell.measured()) for name, r in cells.items()}
    assert "crash/lang=c/toolchain=gcc/profile=release/mode=count" not in runs  # it failed: no sample


def test_names_are_the_cells_configuration_with_reserved_characters_encoded():
    names = set(exported(demo_session()))
    assert "fast/lang=c/toolchain=gcc/profile=release/mode=count" in names
    assert "fast/lang=c/toolchain=gcc/profile=release/mode=count/path=a%20b%2Fc%3Dd%25" in names
    assert "read-64/lang=c/toolchain=gcc/profile=release/mode=sum/buf=size%2D4096" in names  # not GOMAXPROCS 4096
    a, b = (sessions.cell("x", inner=[1, 1], params={"p": v}) for v in ("a b", "a_b"))
    assert len({name for name in exported(session([a, b]))}) == 2  # the encoding keeps distinct cells distinct


def test_config_lines_name_the_suite_and_dataset_of_the_lines_after_them():
    text = list(lines(build(demo_session())))
    config: dict[str, str] = {}
    where: dict[str, tuple[str, str]] = {}
    for line in text:
        if (m := CONFIG.fullmatch(line)) and not line.startswith("Benchmark"):
            config[m["key"]] = m["value"]
        elif m := BENCHMARK.fullmatch(line):
            where[m["name"]] = (config["suite"], config["dataset"])
    assert config["cpu"] == "Toy CPU"
    assert where["rows/lang=c/toolchain=gcc/profile=release/mode=count"] == ("other", "quick")
    assert where["script/lang=python/toolchain=python/profile=release/mode=count"] == ("toy", "seed")
    assert where["slow/lang=c/toolchain=gcc/profile=release/mode=count"] == ("toy", "tiny")
    assert not any(line.startswith(("session", "started", "revision")) for line in text)  # they would split comparisons


def test_values_are_the_runs_in_ns_and_the_rates_of_their_work():
    text = list(lines(build(demo_session())))
    slow = [line.split("\t") for line in text if line.startswith("Benchmarkslow/")]
    # 1000 bytes and 40 lines in 30 ms
    assert slow[0][1:] == ["1", "30000000 ns/op", "31000000 wall-ns/op", "0.0333333 MB/s", "1333.33 lines/s"]
    script = [line.split("\t") for line in text if line.startswith("Benchmarkscript/")]
    assert script[0][2:4] == ["60000000 ns/op", "60000000 wall-ns/op"]  # no inner time: ns/op is the wall time
    assert "Unit lines/s better=higher" in text and "Unit keys/s better=higher" in text


def test_a_check_only_session_has_no_benchmark_lines(tmp_path):
    path = tmp_path / "check-only.txt"
    write_benchfmt(build(session([sessions.cell("a", status="ok"), sessions.cell("b", status="failed", detail="exit 1")])), path)
    assert not any(line.startswith("Benchmark") for line in path.read_text().splitlines())


def run_benchstat(tmp_path, *args: str) -> tuple[list[list[str]], str]:
    path = tmp_path / "session.txt"
    write_benchfmt(build(demo_session()), path)
    proc = subprocess.run([benchstat(), "-format", "csv", *args, f"A={path}", f"B={path}"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    # benchstat prints a line it cannot parse as FILE:LINE: message on stderr and goes on (its exit code stays 0)
    assert not re.search(rf"{re.escape(str(path))}:\d+:", proc.stderr), proc.stderr
    return list(csv.reader(io.StringIO(proc.stdout))), proc.stderr


def tables(rows: list[list[str]]) -> dict[tuple[str, str, str], dict[str, list[str]]]:
    """benchstat's CSV as (suite, dataset, unit) -> row name -> its cells."""
    out: dict[tuple[str, str, str], dict[str, list[str]]] = {}
    config: dict[str, str] = {}
    unit = ""
    for row in rows:
        if len(row) == 1 and ": " in row[0]:
            key, value = row[0].split(": ", 1)
            config[key] = value
        elif len(row) > 2 and row[0] == "" and row[1] not in ("", "A"):
            unit = row[1]
        elif len(row) > 2 and row[0] not in ("", "geomean"):
            out.setdefault((config["suite"], config["dataset"], unit), {})[row[0]] = row
    return out


@needs_benchstat
def test_benchstat_reads_every_verified_cell_with_all_its_runs(tmp_path):
    rows, _ = run_benchstat(tmp_path)
    got = tables(rows)
    cells = exported(demo_session())
    seen = set()
    for name, row in cells.items():
        c = row.cell
        table = got[(c.suite, c.dataset, "sec/op")]
        assert name in table, f"benchstat did not read {name}"
        line = table[name]
        assert float(line[1]) == pytest.approx(row.primary.median, rel=1e-9)  # its median, in seconds
        assert f"n={len(c.measured())}" in line[-1]  # the sample: every run
        seen.add(name)
        assert name in got[(c.suite, c.dataset, "wall-sec/op")]
    assert seen == set(cells)
    every = {name for t in got.values() for name in t}
    assert every == set(cells)  # nothing else: not the failed, wrong or skipped cells
    slow = got[("toy", "tiny", "B/s")]["slow/lang=c/toolchain=gcc/profile=release/mode=count"]
    assert float(slow[1]) == pytest.approx(1000 / statistics.median([0.030, 0.031, 0.0305, 0.029, 0.0302, 0.0301]), rel=1e-4)
    assert "slow/lang=c/toolchain=gcc/profile=release/mode=count" in got[("toy", "tiny", "lines/s")]


@needs_benchstat
def test_benchstat_compares_toolchains_by_the_keys_of_the_names(tmp_path):
    """-col /toolchain: the gcc and clang cells of one strategy are one row, compared; /toolchain is a key of the name."""
    path = tmp_path / "session.txt"
    write_benchfmt(build(demo_session()), path)
    only = "suite:toy dataset:tiny .unit:sec/op"
    proc = subprocess.run([benchstat(), "-format", "csv", "-col", "/toolchain", "-filter", only, path], capture_output=True, text=True)
    assert proc.returncode == 0 and "syntax" not in proc.stderr, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    header = next(r for r in rows if len(r) > 2 and r[0] == "" and "gcc" in r)
    assert [h for h in header if h] == ["gcc", "clang"]
    fast = next(r for r in rows if r and r[0] == "fast/lang=c/profile=release/mode=count")
    assert float(fast[1]) == pytest.approx(0.01025) and float(fast[3]) == pytest.approx(0.02035)
    assert fast[5].startswith("+") and "p=" in fast[6]  # clang slower, with its p-value
