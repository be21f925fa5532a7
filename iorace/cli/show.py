"""The commands that show stored sessions: show (the terminal and the exports), report (one HTML file)."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape

from iorace.analyse.pool import by_host, pool
from iorace.cli.common import (
    ALLOW_CONTENDED_OPTION,
    DB_OPTION,
    WIDE_OPTION,
    console,
    exit_code,
    export_options,
    show_session,
    warn,
    wide_view,
)
from iorace.core.errors import EXIT_OK, UsageError
from iorace.core.paths import default_db
from iorace.export import check_export_path, check_exports, contended_warning, export_all
from iorace.report import document
from iorace.store.db import open_existing


@click.command()
@click.argument("sessions", type=int, nargs=-1)
@DB_OPTION
@export_options
@WIDE_OPTION
def show(sessions: tuple[int, ...], db: Path | str | None, wide: bool, allow_contended: bool, **exports: Path | None) -> None:
    """Print a stored session again (the latest by default), and export it. Given several sessions of the
    same cells, one result pooled from all of them (each ratio's interval resamples the sessions, then
    their rounds); sessions of different hosts are shown as one result per host, never pooled together."""
    check_exports(exports)
    store = open_existing(db or default_db())
    groups = by_host([store.load(s) for s in sessions] if sessions else [store.load(None)])
    if len(groups) > 1 and any(exports.values()):
        hosts = "; ".join(f"{_ids(g)} on {g[0].host.label}" for g in groups)
        raise UsageError(f"sessions of {len(groups)} hosts ({hosts}): export one host's sessions at a time")
    code = EXIT_OK
    for group in groups:
        if len(groups) > 1:  # which host the result below is, before its tables
            console.print(escape(f"host {group[0].host.label}: {_ids(group)}"), style="bold", highlight=False)
        code = max(code, exit_code(EXIT_OK, show_session(pool(group), exports, wide_view(wide), allow_contended)))
    sys.exit(code)


def _ids(group: list) -> str:
    return ("session " if len(group) == 1 else "sessions ") + ", ".join(str(s.id) for s in group)


@click.command("report")
@click.argument("sessions", type=int, nargs=-1)
@click.option(
    "--html",
    "html_path",
    type=click.Path(path_type=Path),
    required=True,
    metavar="FILE",
    help="Write one self-contained HTML file (charts as SVG; opens offline).",
)
@DB_OPTION
@ALLOW_CONTENDED_OPTION
def report_cmd(sessions: tuple[int, ...], html_path: Path, db: Path | str | None, allow_contended: bool) -> None:
    """An HTML report of a stored session (the latest by default). Given several sessions, the report is
    their pooled result (as `show` pools them), with a history chart of each cell across all of them."""
    from iorace.compare.history import history_section

    check_export_path("--html", html_path)
    store = open_existing(db or default_db())
    loaded = [store.load(s) for s in sessions] if sessions else [store.load(None)]
    report = document.build(pool(loaded))  # the last session's host only: its problems name any left out
    report.history = history_section([s for s in loaded if s.host == loaded[-1].host])

    # the HTML exporter, as `show --export-html` (a contended session too, marked at its top)
    def say(line: str) -> None:  # "wrote FILE (N KB)"
        console.print(escape(f"{line} ({html_path.stat().st_size / 1024:.0f} KB)"), highlight=False)

    contended = export_all(report, {"export_html": html_path}, say, allow_contended)
    if contended:
        warn(contended_warning(report))
    sys.exit(exit_code(EXIT_OK, contended))


COMMANDS = [show, report_cmd]
