"""Go's benchmark format (golang.org/design/14313-benchmark-format), so that `benchstat` reads iorace's results:
`benchstat session.txt` summarises each cell (median and its interval), `benchstat old.txt new.txt` compares
two sessions cell by cell, `benchstat -col /toolchain session.txt` compares compilers strategy by strategy.

- Configuration lines (`key: value`) say what the results after them share: `cpu` for the whole file, `suite`
  and `dataset` for each of the report's groups, so benchstat makes one table per suite and dataset as the
  report does. What differs between two sessions of the same cells (the session, its date, the revision) is
  in `#` comment lines, which the format ignores: as configuration it would split every comparison of two
  sessions into tables of their own.
- One benchmark line per timed run (a round), so benchstat sees the sample: one iteration, the run being the
  operation. The name is the cell, stable between sessions: `Benchmark<variant>/lang=<language>/toolchain=
  <toolchain>/profile=<profile>/<param>=<value>...`, whatever in a value the format reserves (white space,
  `/`, `=`, `%`) percent-encoded, and a name ending in `-<digits>` (read as GOMAXPROCS) has its `-` encoded.
- Values: `ns/op`, the metric iorace compares (the program's own timing of its work where it has one, else
  the wall time, as the report's primary column), `wall-ns/op`, the whole process; and where the suite counts
  the work of a run, that work over ns/op: `MB/s` for bytes (as `go test` reports SetBytes), `<unit>/s` for
  any other unit (lines, keys), declared `better=higher` in a `Unit` line.

Only verified cells timed to the end are written (status ok): a failed, wrong or timed-out cell is no sample.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path

from iorace.analyse.analysis import Row
from iorace.export.json_export import measured
from iorace.report.document import Report

RESERVED = re.compile(r"[\s/=%]")
GOMAXPROCS = re.compile(r"-(\d+)$")


def _encode(text: str) -> str:
    return RESERVED.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), str(text))


def benchmark_name(row: Row) -> str:
    c = row.cell
    parts = [_encode(c.variant)]
    parts += [f"{key}={_encode(value)}" for key, value in (("lang", c.language), ("toolchain", c.toolchain), ("profile", c.profile))]
    parts += [f"{_encode(k)}={_encode(v)}" for k, v in c.params.items()]
    return "Benchmark" + GOMAXPROCS.sub(r"%2D\1", "/".join(parts))


def _number(x: float) -> str:
    """Six significant digits, never an exponent."""
    if x == 0 or not math.isfinite(x):
        return "0"
    return f"{x:.{max(0, 5 - math.floor(math.log10(abs(x))))}f}"


def _rate_unit(unit: str) -> str:
    return "MB/s" if unit == "bytes" else f"{_encode(unit)}/s"


def lines(report: Report) -> Iterator[str]:
    s = report.session
    yield f"# iorace session {s.id}, started {s.started}, revision {s.git_revision or '-'}, iorace {s.iorace_version}"
    yield "# " + " ".join(s.command_line.split())
    yield "# ns/op: the metric iorace compares (the program's own timing, else wall); wall-ns/op: the whole process"
    if report.contention.timed_runs:
        yield f"# machine: {report.contention.line}"
    rows = [r for g in report.groups for r in g.rows if measured(r)]
    if s.machine.get("cpu_model"):
        yield f"cpu: {s.machine['cpu_model']}"
    yield "Unit wall-ns/op better=lower"
    for unit in dict.fromkeys(u for r in rows for u in r.cell.units if u != "bytes"):
        yield f"Unit {_rate_unit(unit)} better=higher"
    config: dict[str, str] = {}
    for g in report.groups:
        mine = [r for r in g.rows if measured(r)]
        if not mine:
            continue
        for key, value in (("suite", g.suite), ("dataset", g.dataset)):
            if config.get(key) != value:
                config[key] = value
                yield f"{key}: {value}"
        for row in mine:
            yield from _runs(row)


def _runs(row: Row) -> Iterator[str]:
    name = benchmark_name(row)
    for r in row.cell.measured():
        ns = r.metric_ns(row.metric) or r.wall_ns
        values = [f"{ns} ns/op", f"{r.wall_ns} wall-ns/op"]
        for unit, amount in row.cell.units.items():
            if ns > 0:
                rate = amount / (ns / 1e9) / (1e6 if unit == "bytes" else 1)
                values.append(f"{_number(rate)} {_rate_unit(unit)}")
        yield "\t".join([name, "1", *values])


def write_benchfmt(report: Report, path: Path) -> None:
    path.write_text("".join(line + "\n" for line in lines(report)))
