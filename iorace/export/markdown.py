"""Markdown tables of a session: the same rows and columns as the terminal report."""
from __future__ import annotations

from pathlib import Path

from iorace.analysis import analyse, params_text
from iorace.report import best_columns, best_rows, columns, group_cells
from iorace.store import SessionData

def _table(header: list[str], rows: list[list[str]]) -> str:
    esc = [[cell.replace("|", "\\|") for cell in row] for row in rows]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in esc]
    return "\n".join(lines)


def render(session: SessionData) -> str:
    m = session.machine
    out = [f"# iorace session {session.id}", "",
           f"{session.started} · {m.get('cpu_model', '?')} · {m.get('cores', '?')} cores · "
           f"kernel {m.get('kernel', '?')} · `{session.command_line}`", ""]
    for g in analyse(session):
        metric = "inner time" if g.metric == "inner" else "wall time"
        out += [f"## {g.suite} · {g.dataset} · {params_text(g.params)}", "",
                f"{g.title}. Ratios compare the median {metric} with the fastest cell's (95% bootstrap CI); "
                "inner = the program's own timing of the work, wall = the whole process.", "",
                _table(columns(g), [group_cells(g, r) for r in g.rows]), ""]
        best = best_rows(g)
        if len(best) > 1:
            out += ["Best strategy per language and toolchain:", "", _table(best_columns(g), best), ""]
    return "\n".join(out)


def write_markdown(session: SessionData, path: Path) -> None:
    path.write_text(render(session))
