"""The commands of a shared store: push, machines, compare-machines."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from iorace.cli.common import DB_OPTION, Database, console, err_console
from iorace.core.errors import UsageError
from iorace.core.paths import default_db
from iorace.report.terminal import rich_table
from iorace.store.db import StillRunning, Store, open_existing


@click.command("machines")
@DB_OPTION
@click.option("--markdown", "as_markdown", is_flag=True, help="A Markdown table.")
def machines_cmd(db: Path | str | None, as_markdown: bool) -> None:
    """The machines a store has seen: name, fingerprint, CPU model, cores, how many sessions, the first and
    the last. One name with two fingerprints is two rows: the machine changed under its name."""
    from iorace.compare.fleet import machines_table
    from iorace.report.markdown import draw_table

    table = machines_table(open_existing(db or default_db()))
    if as_markdown:
        click.echo(draw_table(table))
    else:
        console.print(rich_table(table))


@click.command("compare-machines")
@click.argument("suite")
@DB_OPTION
@click.option("--markdown", "markdown_path", type=click.Path(path_type=Path), metavar="FILE", help="Also write it as Markdown to FILE.")
def compare_machines_cmd(suite: str, db: Path | str | None, markdown_path: Path | None) -> None:
    """Which rankings hold across machines: the latest session of each machine that has SUITE; per pair of
    cells of each table, whether their order HOLDS on every machine, FLIPS (significant both ways on
    different machines; what differs between them is named) or is UNRESOLVED; and the rank correlation
    between each two machines."""
    from iorace.compare import fleet

    if markdown_path is not None and not markdown_path.resolve().parent.is_dir():
        raise UsageError(f"--markdown {markdown_path}: folder {markdown_path.resolve().parent} does not exist")
    cmp = fleet.compare_machines(open_existing(db or default_db()), suite)
    console.print(rich_table(fleet.pairs_table(cmp)))
    if cmp.correlations:
        corr = fleet.correlation_table(cmp)
        console.print(rich_table(corr))
        if corr.caption:
            console.print(escape(corr.caption), highlight=False)
    for line in fleet.summary_lines(cmp):
        console.print(escape(line), highlight=False, soft_wrap=True)
    if markdown_path is not None:
        markdown_path.write_text(fleet.markdown(cmp))
        console.print(escape(f"wrote {markdown_path}"), highlight=False)


@click.command("push")
@click.argument("sessions", type=int, nargs=-1)
@click.option("--to", "target", type=Database(), required=True, help="The shared store: a postgresql:// URL (or a SQLite file).")
@click.option("--all", "every", is_flag=True, help="Every finished session of --db (those already there are skipped).")
@DB_OPTION
def push_cmd(sessions: tuple[int, ...], target: Path | str, every: bool, db: Path | str | None) -> None:
    """Copy stored sessions (the latest by default) with their cells, runs and counters to a shared store,
    each in one transaction there: all of it or nothing. A session is known by its uuid: one already there
    is skipped, so pushing again changes nothing. A session is measured into a local file (no network
    between rounds) and pushed once finished; show, report, compare and history read the store with --db."""
    if every and sessions:
        raise UsageError("push: session ids or --all, not both")
    source = open_existing(db or default_db())
    ids = source.session_ids() if every else list(sessions) or [source.latest()]
    to = Store(target)
    for sid in ids:
        try:
            done = source.push(sid, to)
        except StillRunning as e:
            if not every:
                raise
            err_console.print(f"[yellow]warning:[/] {escape(str(e))}: not pushed", highlight=False, soft_wrap=True)
            continue
        runs = sum(len(c.runs) for c in done.session.cells)
        what = (
            f"pushed as session {done.there} ({len(done.session.cells)} cells, {runs} runs)"
            if done.copied
            else f"already there as session {done.there} (uuid {done.session.uuid}): skipped"
        )
        console.print(escape(f"session {sid} -> {to.where}: {what}"), highlight=False, soft_wrap=True)


COMMANDS = [machines_cmd, compare_machines_cmd, push_cmd]
