"""Exports of a stored session into formats users already use. A format is one entry of EXPORTERS: the
`--export-NAME FILE` options of `run` and `show` and the writing after a session all come from this list."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from iorace.core import gzfile
from iorace.core.errors import EXIT_CONTENDED, UsageError
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


def check_export_path(option: str, path: Path) -> None:
    """An export's file can be written: checked before a session measures, so that a long session never ends
    in a refused export (one line, exit 2, before anything is built)."""
    folder = path.resolve().parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: folder {folder} does not exist")
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a folder; give a file name")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"{option} {path}: not writable here")


def check_exports(paths: dict[str, Path | None]) -> None:
    """Every --export-NAME FILE asked for can be written (check_export_path)."""
    for e in EXPORTERS:
        if (path := paths.get(e.dest)) is not None:
            check_export_path(e.option, path)


def contended_warning(report: Report) -> str:
    """What a contended export says on stderr: the exports are written and marked, and what to do."""
    return (
        f"session {report.session.id} was measured on a busy machine: {report.contention.line}; exported all the same, "
        f"marked contended (exit {EXIT_CONTENDED}); measure again with nothing else running to publish it, "
        "or pass --allow-contended to accept it (exit as usual)"
    )


def write_export(e: Exporter, report: Report, path: Path) -> None:
    """One export into `path`; a name ending in `.gz` (`--export-json session.json.gz`) gets the same text
    gzipped (core/gzfile.py), which every reader of exports in the repository takes as it is."""
    if not gzfile.is_gz(path):
        e.write(report, path)
        return
    with tempfile.TemporaryDirectory(dir=path.resolve().parent) as tmp:
        plain = Path(tmp) / path.name.removesuffix(".gz")  # the format's own name, for a writer that looks at it
        e.write(report, plain)
        path.write_bytes(gzfile.compress(plain.read_bytes()))


def export_all(report: Report, paths: dict[str, Path | None], say: Callable[[str], None], allow_contended: bool = False) -> bool:
    """Write every export that has a path (`paths` maps Exporter.dest -> path or None), all from the one
    analysed report document. A contended session (analyse.contention) is exported all the same, each format
    saying so at its top: the measured results are never lost. Returns whether it exported a contended session
    the user did not accept (`allow_contended`), for the command's exit code (EXIT_CONTENDED)."""
    wrote = False
    for e in EXPORTERS:
        if (path := paths.get(e.dest)) is not None:
            write_export(e, report, path)
            say(f"wrote {path}")
            wrote = True
    return wrote and report.contention.contended and not allow_contended


__all__ = [
    "EXPORTERS",
    "Exporter",
    "check_export_path",
    "check_exports",
    "contended_warning",
    "export_all",
    "write_benchfmt",
    "write_bmf",
    "write_export",
    "write_html",
    "write_hyperfine2",
    "write_json",
    "write_markdown",
    "write_tsv",
]
