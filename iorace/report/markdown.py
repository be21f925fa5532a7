"""Markdown tables of a session: the report's own tables (iorace.report.tables), every column."""

from __future__ import annotations

from pathlib import Path

from iorace.analyse.leaders import EXPLAINED
from iorace.core.verdict import Verdict
from iorace.report import tables
from iorace.report.document import Report, Section


def escape(text: str) -> str:
    """Text inside a Markdown table cell or list item: a pipe would end the cell."""
    return text.replace("|", "\\|")


def draw_table(table: tables.Table) -> str:
    """A format-neutral table (iorace.report.tables) as a Markdown table."""
    header = [c.header for c in table.columns]
    align = ["---" if c.align == "left" else "--:" for c in table.columns]
    rows = [[escape(cell) for cell in row] for row in table.rows]
    for i, row in enumerate(rows):  # a regression stands out in a pull-request comment (Verdict.emphasis)
        if table.status_column is not None and (v := Verdict.of(table.statuses[i])) is not None and v.emphasis:
            row[table.status_column] = f"**{row[table.status_column]}**"
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def render(report: Report) -> str:
    session = report.session
    m = session.machine
    out = [
        f"# iorace session {session.id}",
        "",
        f"{session.started} · {session.machine_label or '?'} · {m.get('cpu_model', '?')} · {m.get('cores', '?')} cores · "
        f"kernel {m.get('kernel', '?')} · `{session.command_line}`",
        "",
    ]
    if report.contention.timed_runs:
        line = escape(report.contention.line)
        out += [f"> **{line}**" if report.contention.contended else f"Machine: {line}", ""]
    if report.spread_line:
        out += [escape(report.spread_line[0].upper() + report.spread_line[1:]) + ".", ""]
    for section in report.of_kind("overview"):
        out += _section(section)
    if leaders := report.of_kind("leaders"):
        out += ["## The best cell per language and toolchain, per suite", "", EXPLAINED, ""]
        for section in leaders:
            out += _section(section, level="###")
    out += ["## Problems", ""] + ([f"- {escape(line)}" for line in report.problem_lines] or ["None: every cell answered right."]) + [""]
    if report.detail:
        out += ["## The tables", "", "Every table of the session, with each cell's interval, answer and notes.", ""]
    for section in report.detail:
        out += _section(section, level="###")
    return "\n".join(out)


def _section(section: Section, level: str = "##") -> list[str]:
    table = section.table.view(wide=True)
    out = [f"{level} {table.title}", ""]
    if section.kind != "counters":
        out += [table.caption, ""]
    out += [draw_table(table), ""]
    if section.best is not None:
        out += ["Best strategy per language and toolchain:", "", draw_table(section.best.view(wide=True)), ""]
    return out


def write_markdown(report: Report, path: Path) -> None:
    path.write_text(render(report))
