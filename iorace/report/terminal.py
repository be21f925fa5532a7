"""The terminal: draws the report document (iorace.report.document) with rich, fitted to the terminal's width."""

from __future__ import annotations

from collections.abc import Collection

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from iorace.analyse.leaders import EXPLAINED
from iorace.core.status import Status
from iorace.core.verdict import Verdict
from iorace.report import tables
from iorace.report.document import Report, Section

WRAP_MIN = 12  # the narrowest a label or notes column becomes before the table drops a column


def _min_width(table: tables.Table, i: int) -> int:
    col = table.columns[i]
    if col.wrap:
        return WRAP_MIN
    return max([len(row[i]) for row in table.rows] + [len(w) for w in col.header.split()])


def fit(table: tables.Table, width: int | None) -> tables.Table:
    """Drop the compact view's least needed columns (rate, then instructions per unit) until every number
    fits whole in `width` columns: a cut ratio is worse than a missing rate."""
    while width is not None:
        need = sum(_min_width(table, i) + 3 for i in range(len(table.columns)))
        droppable = [i for i, c in enumerate(table.columns) if c.header == "rate" or c.header.startswith("instr/")]
        if need <= width or not droppable:
            break
        table = table.without(droppable[0])
    return table


def _natural_width(table: tables.Table) -> int:
    """The width rich gives the table when nothing wraps: each column's longest text or whole header, its
    padding and the space between columns."""
    return sum(max([len(row[i]) for row in table.rows] + [len(c.header)]) + 2 for i, c in enumerate(table.columns))


def rich_table(table: tables.Table, width: int | None = None) -> Table:
    """Draw a format-neutral table with rich. Program and manifest text is plain text, never markup
    ("#[inline]", "[mode=sum]"); only the status gets a colour. Long labels and notes wrap; numbers never do.
    Given a `width` the table is wider than, every column but the label and notes ones is fixed at its
    narrowest (its headers break between words): rich would otherwise narrow a number's column too, widen it
    again to its min_width and leave the table wider than the terminal, which crops the notes."""
    tight = width is not None and _natural_width(table) > width
    t = Table(
        title=f"[bold]{escape(table.title)}[/]" if table.title else None,
        title_justify="left",
        header_style="bold",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=(0, 1, 0, 0),
    )
    for i, col in enumerate(table.columns):
        # A number is never cut or wrapped (its column is at least as wide as its longest text); when the
        # terminal is narrow, the label and notes columns wrap and headers break between words instead.
        t.add_column(
            col.header,
            justify="left" if col.align == "left" else "right",
            overflow="fold" if col.wrap else "ellipsis",
            min_width=_min_width(table, i),
            width=_min_width(table, i) if tight and not col.wrap else None,
        )
    for i, row in enumerate(table.rows):
        cells = [escape(c) for c in row]
        if table.status_column is not None and i < len(table.statuses):
            status = table.statuses[i]
            known = Status.of(status) or Verdict.of(status)
            if known is not None and known.style:
                cells[table.status_column] = f"[{known.style}]{escape(status)}[/]"
        t.add_row(*cells)
    return t


def _print_table(console: Console, table: tables.Table, wide: bool) -> None:
    """A table in the wide view, or the compact one fitted to the terminal's width."""
    view = table.view(wide)
    console.print(rich_table(view) if wide else rich_table(fit(view, console.width), console.width))


def _print_sections(report: Report, sections: list[Section], console: Console, wide: bool) -> None:
    """Sections of `report`, each table with its caption (and a group's best-per-toolchain table)."""
    for section in sections:
        if section is next(iter(report.of_kind("leaders")), None):  # what their ratios are, once
            console.print(escape(EXPLAINED), style="dim", highlight=False)
            console.print()
        if section.kind == "grid":  # the seed's own view: every column, whatever the width
            console.print(rich_table(section.table))
        elif section.kind == "counters":
            console.print(rich_table(section.table))
            console.print()
            continue
        else:
            _print_table(console, section.table, wide)
        console.print(escape(section.table.caption), style="dim", highlight=False)
        if section.best is not None:
            _print_table(console, section.best, wide)
        console.print()


def section_suite(section: Section) -> str | None:
    """The suite a section belongs to (a group's table, a grid, a seed table), None for what is
    session-wide (the overview, the counters, the A/A check)."""
    if section.kind in ("group", "grid", "seed") and section.source is not None:
        return section.source.suite
    return None


def print_suite(report: Report, console: Console, suite: str, wide: bool = True) -> None:
    """A suite's part of the report's detail (its tables, grids and seed tables), as print_session prints
    it: `run` shows each suite's as soon as it is measured, then print_session(..., shown=) the rest."""
    _print_sections(report, [s for s in report.detail if section_suite(s) == suite], console, wide)


def print_session(report: Report, console: Console, wide: bool = True, shown: Collection[str] = ()) -> None:
    """The report document's detail (a group's table, compact unless `wide`: the terminal's default, with its
    best-per-toolchain table; the grids; the seed tables; the counters; the A/A check), then its overview
    (each seed's then-and-now table, each suite's best cell per language and toolchain), the problems and the
    session line: a terminal shows the end of a run, so the answer is printed last, where the reader is.
    The suites in `shown` had their tables printed already (print_suite), and are not printed again."""
    detail = [s for s in report.detail if section_suite(s) not in shown]
    _print_sections(report, detail + report.overview, console, wide)
    for line in report.problem_lines:  # whole lines when piped or wide, wrapped to a terminal
        console.print(f"[yellow]•[/] {escape(line)}", highlight=False, soft_wrap=wide)
    if report.contention.timed_runs:  # the machine while it measured, next to the session line
        style = "bold yellow" if report.contention.contended else "dim"
        console.print(escape(report.contention.line), style=style, highlight=False, soft_wrap=wide)
    if report.spread_line:
        console.print(escape(report.spread_line), style="dim", highlight=False, soft_wrap=wide)
    session = report.session
    sink = session.options.get("sink")
    extra = f"; timed stdout went to {'a pipe drained by iorace' if sink == 'pipe' else '/dev/null'}" if sink else ""
    pooled = session.options.get("pooled")
    name = f"sessions {', '.join(map(str, pooled))} pooled" if pooled else f"session {session.id}"
    name += f" on {session.machine_name}" if session.machine_name and not pooled else ""
    name += f", host {session.host.label}" if session.machine.get("cpu_model") else ""  # hosts of one name differ
    console.print(
        escape(f"{name} ({session.status}, {session.started}): {report.summary}; runs per cell {session.options.get('runs', '-')}{extra}"),
        highlight=False,
    )
    if session.status == "interrupted":
        console.print("[bold yellow]interrupted: the table shows the runs measured before Ctrl-C[/]")
