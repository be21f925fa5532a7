"""`iorace site`: a store's results as a static site."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from iorace.cli.common import DB_OPTION, console
from iorace.core.errors import UsageError
from iorace.core.paths import default_db
from iorace.store.db import open_existing


@click.command("site")
@DB_OPTION
@click.option("--out", type=click.Path(path_type=Path), required=True, metavar="DIR", help="The folder of the pages (made if missing).")
@click.option(
    "--window",
    type=click.IntRange(1),
    default=30,
    show_default=True,
    help="Find each cell's change points over the last N sessions of its suite (as `history --window`).",
)
def site_cmd(db: Path | str | None, out: Path, window: int) -> None:
    """The store's results as a static site in DIR (opens offline, from index.html): the suites, the machines
    and their latest sessions with what changed since the one before, open change points; per data set each
    table as a chart and its ratios to the fastest, filterable; per cell its history with change points; per
    suite the machines' verdicts and the seeds' then-and-now tables."""
    from iorace.export.site import build_site

    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: not a folder")
    if not out.resolve().parent.is_dir():
        raise UsageError(f"--out {out}: folder {out.resolve().parent} does not exist")
    written = build_site(open_existing(db or default_db()), out, window)
    console.print(escape(f"wrote {len(written)} files to {out} (open {out / 'index.html'})"), highlight=False)


COMMANDS = [site_cmd]
