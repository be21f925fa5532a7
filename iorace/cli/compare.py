"""The commands that judge change: compare (two sides), history (a suite's cells over sessions)."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape

from iorace.analyse.rules import DEFAULT_RULE, PERSIST_SESSIONS, Rule
from iorace.cli.common import DB_OPTION, console, err_console
from iorace.core.paths import default_db
from iorace.report.terminal import rich_table
from iorace.store.db import open_existing


@click.command("compare")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@DB_OPTION
@click.option(
    "--threshold", default="5%", show_default=True, metavar="PERCENT", help="A significant change smaller than this is not a regression."
)
@click.option(
    "--rule",
    type=click.Choice([r.value for r in Rule]),
    default=DEFAULT_RULE.value,
    show_default=True,
    help="z: p < 0.05 (Holm), the interval excluding 1, the change beyond the threshold; interval: the whole 95% interval "
    f"beyond the threshold; persist: rule z in B and in the {PERSIST_SESSIONS - 1} sessions before it on its machine (--sessions).",
)
@click.option(
    "--sessions", type=click.IntRange(2), default=PERSIST_SESSIONS, show_default=True, help="--rule persist: sessions that must agree."
)
@click.option("--markdown", "as_markdown", is_flag=True, help="Markdown for a pull-request comment.")
def compare_cmd(a: str, b: str, db: Path | str | None, threshold: str, rule: str, sessions: int, as_markdown: bool) -> None:
    """Per cell of both A and B, the change of its ratio to its table's reference (the typical mover; the
    reference's own to the next typical mover), with its 95% interval and a z test, and of its own times
    (Mann-Whitney); a table whose every cell moved alike is named as such ("every cell moved +x%"). A and
    B: session ids (several joined by commas: their pooled result), JSON exports, or git:REV (the latest
    stored session at that revision). Exit code 1 when some cell regressed beyond the threshold by the rule,
    broke, or every cell of a table got slower on an unchanged machine."""
    from iorace.compare import draw, judge, sides

    path = db or default_db()
    limit = judge.parse_threshold(threshold)
    side_a = sides.load_side(a, path) if not a.startswith("git:") else None
    side_b = sides.load_side(b, path, side_a)
    side_a = side_a or sides.load_side(a, path, side_b)
    chosen = Rule(rule)
    earlier = sides.sessions_before(b, path, side_a, sessions - 1) if chosen is Rule.PERSIST else []
    cmp = judge.compare(side_a, side_b, limit, rule=chosen)
    if chosen is Rule.PERSIST:
        cmp = judge.persist(cmp, earlier)
    if as_markdown:
        click.echo(draw.markdown(cmp), nl=False)
    else:
        console.print(escape(draw.sides_text(cmp)), highlight=False)
        console.print(rich_table(draw.table(cmp)))
        console.print(escape(draw.summary(cmp)), highlight=False)
        if power := draw.power_line(cmp):
            console.print(escape(power), highlight=False)
        for line in draw.level_lines(cmp) + draw.move_lines(cmp) + draw.what_else_changed(cmp) + draw.other_lines(cmp):
            console.print(f"[yellow]•[/] {escape(line)}", highlight=False, soft_wrap=True)
    for line in cmp.regressions:
        err_console.print(f"regressed: {escape(line)}", highlight=False, soft_wrap=True)
    sys.exit(1 if cmp.regressions else 0)


@click.command("history")
@click.argument("suite")
@click.option("--variant", "variants", multiple=True, metavar="GLOB", help="Only these variants. Repeatable.")
@click.option("--dataset", "datasets", multiple=True, metavar="NAME", help="Only this dataset. Repeatable.")
@click.option("--last", type=click.IntRange(1), default=8, show_default=True, help="Show the last N sessions.")
@click.option(
    "--window",
    type=click.IntRange(1),
    default=30,
    show_default=True,
    help="Find change points over the last N sessions (at least --last; each machine's session before them too).",
)
@click.option("--threshold", default="5%", show_default=True, metavar="PERCENT", help="Report a change point beyond this.")
@DB_OPTION
def history_cmd(
    suite: str, variants: tuple[str, ...], datasets: tuple[str, ...], last: int, window: int, threshold: str, db: Path | str | None
) -> None:
    """Each cell's primary metric (median) across the stored sessions of SUITE, by date and git revision, and
    the change points of each cell's series (PELT over the whole series, each session weighted by its rounds,
    each change checked by a t-test across it and a persistence of 4 sessions a side): the sessions, dates and
    commits on either side, the size with its 95% interval, whether every cell of the table moved, and on how
    many machines. Exact counts (instructions, estimated cycles) are listed where they changed beyond the
    threshold."""
    from iorace.analyse.changepoints import DEFAULT
    from iorace.compare import judge
    from iorace.compare.history import change_lines, history, history_table

    store = open_existing(db or default_db())
    limit = judge.parse_threshold(threshold)
    sessions, series, breaks = history(store, suite, list(variants), list(datasets), limit, max(last, window))
    console.print(rich_table(history_table(suite, sessions[-last:], series)))
    for line in breaks:  # a changed machine or context under one name: its points are not compared across it
        console.print(f"[yellow]•[/] {escape(line)}", highlight=False, soft_wrap=True)
    lines = change_lines(series)
    for line in lines:
        console.print(f"[bold]•[/] {escape(line)}", highlight=False, soft_wrap=True)
    found = sum(len(ser.changes) for ser in series)
    console.print(
        f"{len(series)} cells, {len(sessions)} sessions; {found} change points beyond {threshold}"
        f" ({DEFAULT.describe()}), {sum(len(ser.exact) for ser in series)} changes of exact counts",
        highlight=False,
        soft_wrap=True,
    )


COMMANDS = [compare_cmd, history_cmd]
