"""The terminal report: one table per suite x dataset x parameter set, then problems, then the session line."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from iorace import fmt
from iorace.analysis import Group, Row, analyse, answer_text, params_text
from iorace.store import SessionData

STATUS_STYLE = {"ok": "green", "wrong": "bold red", "failed": "bold red", "timeout": "bold red",
                "build-failed": "bold red", "skipped": "yellow"}


def _metric_title(g: Group) -> str:
    return "inner time" if g.metric == "inner" else "wall time"


def group_table(g: Group) -> Table:
    t = Table(title=f"[bold]{escape(g.suite)}[/] · {escape(g.dataset)} · {escape(params_text(g.params))}",
              title_justify="left",
              caption=f"{escape(g.title)}. Ratios compare the median {_metric_title(g)} with the fastest cell's "
                      "(95% bootstrap CI); inner = the program's own timing of the work, wall = the whole process."
                      + (f" Cells run with other {', '.join(g.scale_params)} are compared per {g.scale_unit[:-1] or 'unit'}"
                         " of work." if g.scaled else ""),
              caption_justify="left", header_style="bold")
    for col in columns(g):
        t.add_column(col, justify="left" if col in LEFT else "right",
                     no_wrap=col not in {"notes", "description"})
    for r in g.rows:
        t.add_row(*group_cells(g, r, rich=True))
    return t


def _plain(cells: list[str]) -> list[str]:
    """Program and manifest text must not be read as rich markup ("#[inline]", "[mode=sum]")."""
    return [escape(c) for c in cells]


BASE_COLUMNS = ["variant", "toolchain", "profile", "status", "answer", "inner median (min..max)",
                "wall median (min..max)", "user", "sys", "cpu", "max RSS", "rate", "x fastest [95% CI]"]
LEFT = {"variant", "toolchain", "profile", "status", "notes"}


def _x(value: float | None) -> str:
    return f"{value:.2f}x" if value is not None else "-"


def _optional(g: Group) -> list[tuple[str, object]]:
    """(column, row -> text) for the comparisons this group has something to compare with."""
    cols: list[tuple[str, object]] = []
    if g.limit is not None:
        cols.append(("x limit", lambda r: _x(r.vs_limit)))
    if g.language_ref:
        cols.append((f"x {g.language_ref['label']}", lambda r: _x(r.vs_language_ref)))
    if g.fastest_peer is not None:
        cols.append(("x best peer", lambda r: _x(r.vs_peer)))
    if g.has_instructions:
        cols.append(("instructions", lambda r: fmt.count(r.cell.instructions)))
        cols.append(("x fewest", lambda r: _x(r.instructions_ratio)))
    return cols


def columns(g: Group) -> list[str]:
    return BASE_COLUMNS + [name for name, _ in _optional(g)] + ["notes"]


def group_cells(g: Group, r: Row, rich: bool = False) -> list[str]:
    """One row of the per-group table (terminal and Markdown), with exactly the columns of columns(g);
    times are medians of the timed runs."""
    c = r.cell
    cells = [c.key, c.toolchain, c.profile, c.status, answer_text(c.answer), fmt.spread(r.inner), fmt.spread(r.wall),
             fmt.seconds(r.user.median if r.user else None), fmt.seconds(r.system.median if r.system else None),
             f"{r.cpu_pct.median:.0f}%" if r.cpu_pct else "-", fmt.rss(r.max_rss_kb), fmt.rates(r) if r.ok else "-", fmt.ratio(r.ratio),
             *(text(r) for _, text in _optional(g)), fmt.notes(r)]
    if rich:  # program and manifest text is plain text, never markup; only the status gets a colour
        cells = _plain(cells)
        cells[3] = f"[{STATUS_STYLE.get(c.status, '')}]{c.status}[/]"
    return cells


def best_columns(g: Group) -> list[str]:
    cols = ["language", "toolchain", "profile", "best variant", _metric_title(g), "x fastest"]
    if g.baseline is not None:
        cols.append(f"x best {'/'.join(g.baseline_languages)}")
    return cols + (["x limit"] if g.limit is not None else [])


def best_rows(g: Group) -> list[list[str]]:
    """The seed's question, "which implementation for which compiler": the fastest strategy of each
    language x toolchain x profile, with its distance to the best baseline cell and to the limit."""
    rows = []
    for r in g.best_per_toolchain():
        vs_base = [f"{g.vs_baseline(r):.2f}x"] if g.baseline is not None else []
        vs_limit = [_x(r.vs_limit)] if g.limit is not None else []
        variant = r.cell.variant
        if r.scale != 1.0:  # say which work it did; its time is scaled to the group's work
            variant += " (" + ", ".join(f"{k}={r.cell.params[k]}" for k in g.scale_params if k in r.cell.params) + ", scaled)"
        rows.append([r.cell.language, r.cell.toolchain, r.cell.profile, variant, fmt.seconds(r.cost),
                     fmt.ratio(r.ratio), *vs_base, *vs_limit])
    return rows


def best_table(g: Group) -> Table | None:
    rows = best_rows(g)
    if len(rows) < 2:
        return None
    t = Table(title=escape(f"best strategy per language and toolchain · {g.suite} · {g.dataset} · "
                           f"{params_text(g.params)}"), title_justify="left", header_style="bold")
    for col in best_columns(g):
        t.add_column(col, justify="left" if col in {"language", "toolchain", "profile", "best variant"} else "right")
    for row in rows:
        t.add_row(*_plain(row))
    return t


def problems(session: SessionData) -> list[str]:
    """One line per failed, wrong or timed-out cell; skipped cells folded by reason (14 dmd cells: 1 line)."""
    out, skipped = [], {}
    for c in session.cells:
        if c.status == "skipped":
            skipped.setdefault(c.detail, []).append(c)
        elif c.status != "ok" and c.detail:
            out.append(f"{c.suite} {c.dataset} {c.label}: {c.status}: {c.detail}")
    for reason, cells in skipped.items():
        if len(cells) == 1:
            out.append(f"{cells[0].suite} {cells[0].dataset} {cells[0].label}: skipped: {reason}")
        else:
            names = sorted({f"{c.key}@{c.toolchain}" for c in cells})
            shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
            out.append(f"{len(cells)} cells skipped ({shown}): {reason}")
    notes = {c.instructions_note for c in session.cells if c.instructions_note}
    return out + [f"instructions not counted: {n}" for n in sorted(notes)]


# Counters of one extra run per cell (run --counters: perf stat; --instructions: cachegrind), the rdb seed's
# `perf stat` table. A separate block for now; the columns are named by counters.py's keys.
COUNTER_COLUMNS = [  # (header, key or "ipc", digits after the point)
    ("task-clock ms", "perf:task-clock", 2), ("ctx switches", "perf:context-switches", 0),
    ("page faults", "perf:page-faults", 0), ("cycles", "perf:cycles", 0), ("instructions", "perf:instructions", 0),
    ("IPC", "ipc", 2), ("branches", "perf:branches", 0), ("branch misses", "perf:branch-misses", 0),
    ("cg branches", "cachegrind:branches", 0), ("cg branch misses", "cachegrind:branch-misses", 0),
]


def counters_block(session: SessionData) -> tuple[Table | None, list[str]]:
    """The counters table (only columns some cell has) and one line per reason a counter is missing."""
    from iorace.counters import ipc  # counters.py imports the runner; the report only needs this

    cells = [c for c in session.cells if getattr(c, "counters", None)]
    reasons: dict[str, set[str]] = {}
    for c in session.cells:
        for key, why in getattr(c, "counter_notes", {}).items():
            reasons.setdefault(why, set()).add(key)
    lines = [f"counters not recorded: {', '.join(sorted(keys))}: {why}" for why, keys in reasons.items()]
    if not cells:
        return None, lines

    def value(c, key):
        return ipc(c.counters) if key == "ipc" else c.counters.get(key)

    cols = [(h, k, d) for h, k, d in COUNTER_COLUMNS if any(value(c, k) is not None for c in cells)]
    t = Table(title="counters of one run per cell (perf stat; cg: cachegrind's simulation)", title_justify="left",
              header_style="bold")
    t.add_column("cell")
    for h, _, _ in cols:
        t.add_column(h, justify="right")
    for c in cells:
        t.add_row(escape(f"{c.suite} {c.dataset} {c.label}"),
                  *("-" if (v := value(c, k)) is None else f"{v:,.{d}f}" for _, k, d in cols))
    return t, lines


def print_session(session: SessionData, console: Console) -> None:
    for g in analyse(session):
        console.print(group_table(g))
        if (b := best_table(g)) is not None:
            console.print(b)
        console.print()
    table, counter_lines = counters_block(session)
    if table is not None:
        console.print(table)
        console.print()
    for line in problems(session) + counter_lines:
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
