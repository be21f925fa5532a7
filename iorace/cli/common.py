"""What the commands share: the consoles, the options (--db, --export-NAME, --wide, --suite-dir), and the one
path by which `run`, `seeds` and `show` print and export a stored session."""

from __future__ import annotations

import os
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any, TextIO

import click
from rich.console import Console
from rich.markup import escape

from iorace.core.errors import EXIT_CONTENDED, EXIT_OK, UsageError
from iorace.core.options import CommandFunc, RunOptions
from iorace.core.paths import default_db
from iorace.export import EXPORTERS, check_exports, contended_warning, export_all
from iorace.report import document
from iorace.report.terminal import print_session, print_suite
from iorace.run.session import plan, run_session
from iorace.store import dialect
from iorace.store.db import SessionData, Store


def _width(stream: TextIO) -> int | None:
    """Full-width tables when output goes to a file or CI log (rich would wrap at 80 columns)."""
    return None if stream.isatty() else int(os.environ.get("COLUMNS", "260"))


console = Console(highlight=False, width=_width(sys.stdout))

err_console = Console(stderr=True, highlight=False, width=_width(sys.stderr))

SUITE_DIR_OPTION = click.option(
    "--suite-dir",
    "suite_dirs",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Another folder of suites (or one suite folder). Repeatable.",
)


def export_options(command: CommandFunc) -> CommandFunc:
    """One --export-NAME FILE option per registered exporter (iorace.export.EXPORTERS), and --allow-contended."""
    command = ALLOW_CONTENDED_OPTION(command)
    for e in reversed(EXPORTERS):
        help_text = f"{e.help} FILE.gz: gzipped."  # export.write_export
        command = click.option(e.option, e.dest, type=click.Path(path_type=Path), metavar="FILE", help=help_text)(command)
    return command


ALLOW_CONTENDED_OPTION = click.option(
    "--allow-contended",
    is_flag=True,
    help="Accept a session measured on a busy machine (other processes held the CPU, runs were displaced): its "
    "exports are marked contended either way, and without this flag the command then exits 4.",
)


WIDE_OPTION = click.option(
    "--wide",
    is_flag=True,
    help="Every column (user, sys, CPU, RSS, answer, spreads, ...). Default on a terminal: "
    "the compact view; piped output always has every column.",
)


def wide_view(wide: bool) -> bool:
    return wide or not sys.stdout.isatty()


class Database(click.ParamType):
    """--db, --to: a SQLite file, or a PostgreSQL server's postgresql:// URL."""

    name = "FILE|URL"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path | str:
        if isinstance(value, Path):
            return value
        try:
            return dialect.parse_location(str(value))
        except UsageError as e:
            self.fail(str(e), param, ctx)


def _default_db_text() -> str:
    db = default_db()
    return dialect.redact(db) if isinstance(db, str) else str(db)


DB_OPTION = click.option(
    "--db",
    type=Database(),
    default=None,
    help=f"The sessions' database: a SQLite file, or a postgresql:// URL (`run` measures into a file) [default: {_default_db_text()}]",
)


def local_db(db: Path | str, what: str) -> Path:
    """A command that measures writes to a local SQLite file: a URL is refused, with what to do instead."""
    if isinstance(db, str):
        raise UsageError(
            f"{what} measures into a local SQLite file (no network between rounds), not {dialect.redact(db)}: "
            "pass --db FILE (or unset IORACE_DB), then `iorace push --to URL`"
        )
    return db


def show_session(
    session: SessionData, exports: dict[str, Path | None], wide: bool, allow_contended: bool = False, shown: Collection[str] = ()
) -> bool:
    """The one way a stored session reaches the user, after `run` and `seeds` as in `show`: analysed once,
    printed (less the tables of the suites in `shown`, printed as each was measured), then written whole to
    each export asked for. Returns whether a contended session was exported without --allow-contended (said
    on stderr in one line; the command then exits EXIT_CONTENDED)."""
    report = document.build(session)
    print_session(report, console, wide=wide, shown=shown)
    contended = export_all(report, exports, lambda line: console.print(escape(line), highlight=False), allow_contended)
    if contended:
        warn(contended_warning(report))
    return contended


def warn(line: str) -> None:
    """One warning line on stderr, in the form of the entry point's errors."""
    print(f"iorace: warning: {line}", file=sys.stderr)


def exit_code(code: int, contended: bool) -> int:
    """The command's exit code: a bad cell (1) or an interruption (130) says more than a busy machine, which
    says more than all is well (core.errors)."""
    return EXIT_CONTENDED if code == EXIT_OK and contended else code


def show_suite(store: Store, session_id: int, suite: str, wide: bool) -> None:
    """One suite's tables of a session being measured, as `iorace show` prints them, analysed from the store
    with that suite's cells only (a table's numbers do not depend on the other suites')."""
    session = store.load(session_id)
    session.cells = [c for c in session.cells if c.suite == suite]
    print_suite(document.build(session), console, suite, wide=wide)


def measure_and_show(opts: RunOptions, allow_contended: bool = False) -> int:
    """`run` and `seeds`: plan (every usage error before anything is built or stored), measure into the
    store, printing each suite's tables as soon as it is measured, then the rest of the stored session
    (what is session-wide: overview, counters, problems, the session line) and its exports; returns the
    exit code."""
    check_exports(opts.exports)  # before anything is built or measured: never a refused export after a long session
    cells = plan(opts)
    shown: list[str] = []

    def suite_done(store: Store, session_id: int, suite: str) -> None:
        show_suite(store, session_id, suite, opts.wide)
        shown.append(suite)

    done = run_session(opts, cells, console, err_console, on_suite_done=suite_done)
    try:
        contended = show_session(done.store.load(done.session_id), opts.exports, opts.wide, allow_contended, shown)
    finally:  # where it is stored, also when an export failed
        console.print(f"stored in {done.store.where} (iorace show {done.session_id})", highlight=False)
    return exit_code(done.exit_code, contended)
