"""Markdown tables of a session: the report's own tables (iorace.tables), every column."""
from __future__ import annotations

from pathlib import Path

from iorace import tables
from iorace.analysis import analyse, grids, seed_tables
from iorace.store import SessionData


def _table(table: tables.Table) -> str:
    header = [c.header for c in table.columns]
    align = ["---" if c.align == "left" else "--:" for c in table.columns]
    rows = [[cell.replace("|", "\\|") for cell in row] for row in table.rows]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def render(session: SessionData) -> str:
    m = session.machine
    out = [f"# iorace session {session.id}", "",
           f"{session.started} · {m.get('cpu_model', '?')} · {m.get('cores', '?')} cores · "
           f"kernel {m.get('kernel', '?')} · `{session.command_line}`", ""]
    groups = analyse(session)
    for g in groups:
        table = tables.group_table(g).view(wide=True)
        out += [f"## {table.title}", "", table.caption, "", _table(table), ""]
        if (best := tables.best_table(g)) is not None:
            out += ["Best strategy per language and toolchain:", "", _table(best.view(wide=True)), ""]
    for grid in grids(session, groups):
        table = tables.grid_table(grid)
        out += [f"## {table.title}", "", table.caption, "", _table(table), ""]
    for seed in seed_tables(session, groups):
        table = tables.seed_table(seed)
        out += [f"## {table.title}", "", table.caption, "", _table(table), ""]
    if (counters := tables.counters_table(session)) is not None:
        out += [f"## {counters.title}", "", _table(counters), ""]
    return "\n".join(out)


def write_markdown(session: SessionData, path: Path) -> None:
    path.write_text(render(session))
