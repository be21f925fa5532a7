"""Markdown tables of a session: the report's own tables (iorace.tables), every column."""
from __future__ import annotations

from pathlib import Path

from iorace import tables
from iorace.document import Report


def _table(table: tables.Table) -> str:
    header = [c.header for c in table.columns]
    align = ["---" if c.align == "left" else "--:" for c in table.columns]
    rows = [[cell.replace("|", "\\|") for cell in row] for row in table.rows]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def render(report: Report) -> str:
    session = report.session
    m = session.machine
    out = [f"# iorace session {session.id}", "",
           f"{session.started} · {m.get('cpu_model', '?')} · {m.get('cores', '?')} cores · "
           f"kernel {m.get('kernel', '?')} · `{session.command_line}`", ""]
    for section in report.sections:
        table = section.table.view(wide=True)
        out += [f"## {table.title}", ""]
        if section.kind != "counters":
            out += [table.caption, ""]
        out += [_table(table), ""]
        if section.best is not None:
            out += ["Best strategy per language and toolchain:", "", _table(section.best.view(wide=True)), ""]
    return "\n".join(out)


def write_markdown(report: Report, path: Path) -> None:
    path.write_text(render(report))
