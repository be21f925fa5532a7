"""Exports of a stored session into formats users already use. A format is one entry of EXPORTERS: the
`--export-NAME FILE` options of `run` and `show` and the writing after a session all come from this list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from iorace.core.errors import UsageError
from iorace.export.benchfmt import write_benchfmt
from iorace.export.bmf import write_bmf
from iorace.export.html import write_html
from iorace.export.hyperfine2 import write_hyperfine2
from iorace.export.json_export import write_json
from iorace.export.tsv import write_tsv
from iorace.report.document import Report
from iorace.report.markdown import write_markdown


@dataclass(frozen=True)
class Exporter:
    name: str  # the option is --export-NAME
    help: str
    write: Callable[[Report, Path], None]  # draws the report document (iorace.report.document) into a file

    @property
    def option(self) -> str:
        return f"--export-{self.name}"

    @property
    def dest(self) -> str:
        return f"export_{self.name}"


EXPORTERS = [
    Exporter("json", "hyperfine-style JSON (+ iorace fields).", write_json),
    Exporter("hyperfine2", "hyperfine 2.0's JSON (schema version 2: runs and a summary per metric), for its scripts.", write_hyperfine2),
    Exporter("bmf", "Bencher Metric Format JSON: each verified cell's median as latency (ns), its 95% interval as lower/upper.", write_bmf),
    Exporter("benchfmt", "Go's benchmark format, one line per timed run, for benchstat.", write_benchfmt),
    Exporter("tsv", "One row per timed run: test elapsed user system cpu_pct mem (the dcat seed's layout).", write_tsv),
    Exporter("markdown", "The report's tables as Markdown.", write_markdown),
    Exporter("html", "One self-contained HTML page: charts (SVG), sortable tables, problems, machine; opens offline.", write_html),
]


def refuse_contended(report: Report, allow_contended: bool) -> None:
    """A session measured on a busy machine is not published (one line, exit 2) unless the user says so."""
    if report.contention.contended and not allow_contended:
        raise UsageError(
            f"session {report.session.id} was measured on a busy machine, not exported: {report.contention.line}; "
            "measure again with nothing else running, or pass --allow-contended to export it marked as contended"
        )


def export_all(report: Report, paths: dict[str, Path | None], say: Callable[[str], None], allow_contended: bool = False) -> None:
    """Write every export that has a path (`paths` maps Exporter.dest -> path or None), all from the one
    analysed report document. Exports are what gets published: a contended session (analyse.contention) is
    refused, nothing written, unless `allow_contended` (then each format that has room says so at its top)."""
    if any(p is not None for p in paths.values()):
        refuse_contended(report, allow_contended)
    for e in EXPORTERS:
        if (path := paths.get(e.dest)) is not None:
            e.write(report, path)
            say(f"wrote {path}")


__all__ = [
    "EXPORTERS",
    "Exporter",
    "export_all",
    "refuse_contended",
    "write_benchfmt",
    "write_bmf",
    "write_html",
    "write_hyperfine2",
    "write_json",
    "write_markdown",
    "write_tsv",
]
