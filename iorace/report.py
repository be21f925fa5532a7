"""The terminal report: one table per suite x dataset x parameter set, then problems, then the session line."""
from __future__ import annotations

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from iorace import tables
from iorace.analysis import analyse, grids, seed_tables
from iorace.status import Status
from iorace.store import SessionData

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


def rich_table(table: tables.Table) -> Table:
    """Draw a format-neutral table with rich. Program and manifest text is plain text, never markup
    ("#[inline]", "[mode=sum]"); only the status gets a colour. Long labels and notes wrap; numbers never do."""
    t = Table(title=f"[bold]{escape(table.title)}[/]", title_justify="left", header_style="bold",
              box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
    for i, col in enumerate(table.columns):
        # A number is never cut or wrapped (its column is at least as wide as its longest text); when the
        # terminal is narrow, the label and notes columns wrap and headers break between words instead.
        t.add_column(col.header, justify="left" if col.align == "left" else "right",
                     overflow="fold" if col.wrap else "ellipsis", min_width=_min_width(table, i))
    for i, row in enumerate(table.rows):
        cells = [escape(c) for c in row]
        if table.status_column is not None and i < len(table.statuses):
            status = table.statuses[i]
            known = Status.of(status)
            cells[table.status_column] = f"[{known.style if known else ''}]{escape(status)}[/]"
        t.add_row(*cells)
    return t


def problems(session: SessionData) -> list[str]:
    """One line per failed, wrong or timed-out cell; cells with the same status and the same evidence are
    folded into one line (14 skipped dmd cells, 30 cells of one program failing alike: 1 line each)."""
    out: list[str] = []
    alike: dict[tuple[str, str], list] = {}
    for c in session.cells:
        if c.status != Status.OK and c.detail:
            alike.setdefault((c.status, c.detail), []).append(c)
    for (status, detail), cells in alike.items():
        if len(cells) == 1:
            out.append(f"{cells[0].suite} {cells[0].dataset} {cells[0].label}: {status}: {detail}")
        else:
            names = sorted({f"{c.key}@{c.toolchain}:{c.profile}" for c in cells})
            shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            out.append(f"{len(cells)} cells {status} ({shown}): {detail}")
    notes = {c.instructions_note for c in session.cells if c.instructions_note}
    return out + [f"instructions not counted: {n}" for n in sorted(notes)]


# Counters of one extra run per cell (run --counters: perf stat; --instructions: cachegrind), the rdb seed's
# `perf stat` table. A separate block for now; the columns are named by counters.py's keys.
def counter_notes(session: SessionData) -> list[str]:
    """One line per reason some counter has no value (no PMU on this VM, perf not installed, ...)."""
    reasons: dict[str, set[str]] = {}
    for c in session.cells:
        for key, why in c.counter_notes.items():
            reasons.setdefault(why, set()).add(key)
    return [f"counters not recorded: {', '.join(sorted(keys))}: {why}" for why, keys in reasons.items()]


def print_session(session: SessionData, console: Console, wide: bool = True) -> None:
    """Every group's table (compact unless `wide`: the terminal's default), its best-per-toolchain table,
    the problems, and the session line."""
    groups = analyse(session)
    for g in groups:
        table = tables.group_table(g)
        console.print(rich_table(table.view(wide) if wide else fit(table.view(wide), console.width)))
        console.print(escape(table.caption), style="dim", highlight=False)
        if (b := tables.best_table(g)) is not None:
            console.print(rich_table(b.view(wide) if wide else fit(b.view(wide), console.width)))
        console.print()
    for grid in grids(session, groups):  # the seed's own view, where the manifest declares one
        table = tables.grid_table(grid)
        console.print(rich_table(table))
        console.print(escape(table.caption), style="dim", highlight=False)
        console.print()
    for seed in seed_tables(session, groups):  # the seed's tests in its order (dcat)
        table = tables.seed_table(seed)
        console.print(rich_table(table.view(wide) if wide else fit(table.view(wide), console.width)))
        console.print(escape(table.caption), style="dim", highlight=False)
        console.print()
    if (counters := tables.counters_table(session)) is not None:
        console.print(rich_table(counters))
        console.print()
    for line in problems(session) + counter_notes(session):
        console.print(f"[yellow]•[/] {escape(line)}", highlight=False, soft_wrap=True)
    counts: dict[str, int] = {}
    for c in session.cells:
        counts[c.status] = counts.get(c.status, 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), key=lambda kv: -kv[1]))
    sink = session.options.get("sink")
    extra = f"; timed stdout went to {'a pipe drained by iorace' if sink == 'pipe' else '/dev/null'}" if sink else ""
    console.print(escape(f"session {session.id} ({session.status}, {session.started}): {summary or 'no cells'}"
                         f"; runs per cell {session.options.get('runs', '-')}{extra}"), highlight=False)
    if session.status == "interrupted":
        console.print("[bold yellow]interrupted: the table shows the runs measured before Ctrl-C[/]")
