"""The HTML report: one self-contained file that opens offline and is small enough to attach to an issue.

Per suite x dataset x parameter set: the time of every cell as a ratio to the fastest (95% intervals), the
distribution of each cell's runs, the best strategy per language and toolchain, and the report's tables
(every column the terminal report has), sortable and filterable; then the problems with their evidence,
the machine, the toolchains, the command that reproduces the session and each cell's exact command. Given
several sessions, a history chart of each cell's median across them.

The tables are the report's own (iorace.report.tables), drawn here as the terminal and Markdown draw them. Charts
are static SVG rendered by vl-convert from Altair (Vega-Lite) specs (iorace/charts.py, imported only when a
page is written: Altair is not needed to start the CLI); the only script is the few lines below that sort
and filter the tables.
"""

from __future__ import annotations

import html
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from iorace.analyse.analysis import GridTable, Group, SeedTableData, ThenNowTable
from iorace.analyse.leaders import EXPLAINED, LeaderTable
from iorace.core.kind import Kind
from iorace.core.status import Status
from iorace.report import tables
from iorace.report.document import History, Report, Section
from iorace.store.db import SessionData

if TYPE_CHECKING:
    import altair as alt  # iorace.report.charts (and Altair) are imported only when a page is written

CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1500px;
       padding: 0 24px 48px; color: #1d1d1f; }
h1 { font-size: 22px; margin: 18px 0 4px; } h2 { font-size: 18px; margin: 32px 0 4px; border-top: 1px solid #ddd;
padding-top: 16px; } h3 { font-size: 15px; margin: 16px 0 4px; }
code, pre { font: 12px ui-monospace, "SFMono-Regular", Menlo, monospace; background: #f5f5f7; }
pre { padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
.caption { color: #555; max-width: 1100px; }
.charts { display: flex; flex-wrap: wrap; gap: 12px 32px; align-items: flex-start; }
.charts figure { margin: 8px 0; } .charts svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 12.5px; margin: 8px 0; }
th, td { padding: 3px 8px; border-bottom: 1px solid #e5e5e5; vertical-align: top; }
th { background: #f5f5f7; position: sticky; top: 0; text-align: left; }
table.sortable th { cursor: pointer; user-select: none; } table.sortable th:hover { background: #e8e8ed; }
th[aria-sort=ascending]::after { content: " ▲"; } th[aria-sort=descending]::after { content: " ▼"; }
td.r { text-align: right; white-space: nowrap; } td.l { text-align: left; }
.filters { position: sticky; top: 0; background: #fff; padding: 8px 0; z-index: 2; border-bottom: 1px solid #ddd; }
.filters label { margin-right: 14px; } .filters select, .filters input { font: inherit; }
.meta td:first-child { color: #555; } ul.problems li { margin: 4px 0; }
details { margin: 6px 0; } summary { cursor: pointer; color: #0b57d0; }
details.group { border-top: 1px solid #eee; padding: 4px 0; } details.group[open] { padding-bottom: 16px; }
"""


def _closed_set_css() -> str:
    """The status cells' colours (Status.css) and the shaded rows of limit, peer and bulk cells (Kind.marked):
    a new status or kind needs no edit here."""
    by_css: dict[str, list[str]] = {}
    for s in Status:
        if s.css:
            by_css.setdefault(s.css, []).append(f"td.s-{s.value}")
    rules = [f"{', '.join(selectors)} {{ {css} }}" for css, selectors in by_css.items()]
    marked = ", ".join(f"tr.{k.value} td" for k in Kind if k.marked)
    return "\n".join([*rules, f"{marked} {{ background: #fafaf0; }}"]) + "\n"


CSS += _closed_set_css()

# Sorting: numbers with their units (µs, ms, s, MB, x, %) compare as numbers, the rest as text.
# Filtering: each row carries data-language/-toolchain/-profile/-status; a row shows when it matches all.
SCRIPT = """
(function () {
  var UNIT = {"µs": 1e-6, "ms": 1e-3, "s": 1, "MB": 1, "x": 1, "%": 1, "k": 1e3, "M": 1e6, "G": 1e9};
  function key(text) {
    var m = /^\\s*(-?[\\d,]*\\.?\\d+)\\s*(µs|ms|s|MB|x|%|k|M|G)?/.exec(text);
    if (!m) return null;
    return parseFloat(m[1].replace(/,/g, "")) * (UNIT[m[2]] || 1);
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var asc = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    rows.sort(function (a, b) {
      var x = a.cells[col].textContent, y = b.cells[col].textContent, kx = key(x), ky = key(y), d;
      if (kx === null && ky === null) d = x.localeCompare(y);
      else if (kx === null) d = 1; else if (ky === null) d = -1; else d = kx - ky;
      return asc ? d : -d;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener("click", function () { sortBy(table, i, th); });
    });
  });
  var selects = document.querySelectorAll(".filters select"), text = document.getElementById("filter-text");
  function apply() {
    var want = {};
    selects.forEach(function (s) { if (s.value) want[s.name] = s.value; });
    var needle = text ? text.value.toLowerCase() : "";
    document.querySelectorAll("table.cells tbody tr").forEach(function (tr) {
      var show = Object.keys(want).every(function (k) { return tr.dataset[k] === want[k]; });
      if (show && needle) show = tr.textContent.toLowerCase().indexOf(needle) >= 0;
      tr.style.display = show ? "" : "none";
    });
  }
  selects.forEach(function (s) { s.addEventListener("change", apply); });
  if (text) text.addEventListener("input", apply);
  function reveal() {
    var target = location.hash && document.getElementById(location.hash.slice(1));
    if (target && target.tagName === "DETAILS") { target.open = true; target.scrollIntoView(); }
  }
  window.addEventListener("hashchange", reveal);
  reveal();
  document.body.setAttribute("data-ready", "1");
})();
"""

FILTERS = ("language", "toolchain", "profile", "status")


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _table(table: tables.Table, cls: str = "", row_attrs: list[str] | None = None) -> str:
    """Draw a format-neutral table (iorace.report.tables) as HTML; the status cell gets its colour class."""
    out = [f'<table class="{cls}"><thead><tr>' + "".join(f"<th>{esc(c.header)}</th>" for c in table.columns) + "</tr></thead><tbody>"]
    for i, row in enumerate(table.rows):
        attrs = row_attrs[i] if row_attrs else ""
        tds = []
        for j, text in enumerate(row):
            css = "l" if table.columns[j].align == "left" else "r"
            if j == table.status_column:
                css += f" s-{esc(text)}"
            tds.append(f'<td class="{css}">{esc(text)}</td>')
        out.append(f"<tr{attrs}>" + "".join(tds) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _plain(headers: list[str], rows: list[list[str]]) -> tables.Table:
    """A two-column table of facts or commands, in the table model."""
    return tables.Table("", "", [tables.Column(h, "left") for h in headers], rows)


def _row_attrs(g: Group) -> list[str]:
    out = []
    for r in g.rows:
        c = r.cell
        values = {"language": c.language, "toolchain": c.toolchain, "profile": c.profile, "status": c.status}
        cls = f' class="{esc(c.kind)}"' if r.kind.marked else ""
        out.append(cls + "".join(f' data-{k}="{esc(v)}"' for k, v in values.items()))
    return out


def _figure(chart: alt.Chart | None) -> str:
    from iorace.report import charts

    return "" if chart is None else f"<figure>{charts.to_svg(chart)}</figure>"


def _group_section(section: Section, index: int, languages: list[str]) -> str:
    """One table of the detail, folded: its summary line names the table and its fastest cell; opened, its
    charts, every column the terminal report has, the best strategy per toolchain and each exact command."""
    from iorace.report import charts

    g = section.source
    assert isinstance(g, Group)
    table = section.table.view(wide=True)  # every column the terminal report has
    fastest, first = g.fastest, g.lead()
    lead = f" · fastest: {tables.cell_name(fastest)}" if fastest is not None else " · no cell timed"
    if first is not None and first.tie:  # the summary line must not name one winner where the intervals cannot
        lead = f" · fastest: a tie of {len(first.rows)} ({', '.join(tables.cell_name(r) for r in first.rows)})"
    out = [
        f'<details class="group" id="g{index}"><summary><b>{esc(table.title)}</b>{esc(lead)} · {len(g.rows)} cells</summary>',
        f'<p class="caption">{esc(table.caption)}</p>',
        '<div class="charts">',
        _figure(charts.ratio_chart(g, languages)),
        _figure(charts.best_chart(g, languages)),
        _figure(charts.distribution_chart(g, languages)),
        "</div>",
        "<h3>cells</h3>",
        _table(table, "sortable cells", _row_attrs(g)),
    ]
    if (best := section.best) is not None:
        out += [f"<h3>{esc(best.title)}</h3>", _table(best.view(wide=True), "sortable best")]
    commands = [[r.cell.label, shlex.join(r.cell.command) if r.cell.command else "-"] for r in g.rows]
    out += [
        f"<details><summary>each cell's exact command ({len(commands)})</summary>",
        _table(_plain(["cell", "command"], commands), "commands"),
        "</details>",
        "</details>",
    ]
    return "\n".join(out)


def _leaders(sections: list[Section], languages: list[str]) -> str:
    """Each suite's best cell per language and toolchain: one chart for every suite, then a table each."""
    from iorace.report import charts

    if not sections:
        return ""
    chart = charts.leaders_chart([s.source for s in sections if isinstance(s.source, LeaderTable)], languages)
    out = [
        '<section id="leaders"><h2>the best cell per language and toolchain, per suite</h2>',
        f'<p class="caption">{esc(EXPLAINED)}</p>',
        f'<div class="charts">{_figure(chart)}</div>' if chart is not None else "",
    ]
    for s in sections:
        out.append(f'<h3>{esc(s.table.title)}</h3><p class="caption">{esc(s.table.caption)}</p>{_table(s.table, "sortable leaders")}')
    out.append("</section>")
    return "\n".join(out)


def _chart_of(section: Section) -> alt.Chart | None:
    """The chart of a grid (the seed's own view: configurations x implementations) or of a seed table (the
    seed's tests in its order, ours beside the seed's ratios); other sections are drawn as tables only."""
    from iorace.report import charts

    if isinstance(section.source, GridTable):
        return charts.grid_chart(section.source)
    if isinstance(section.source, SeedTableData):
        return charts.seed_chart(section.source)
    return None


def _section(section: Section, index: int) -> str:
    """Any part of the report but a group: its table, with its chart where it has one."""
    table = section.table
    caption = f'<p class="caption">{esc(table.caption)}</p>' if table.caption else ""
    chart = _chart_of(section)
    figures = f'<div class="charts">{_figure(chart)}</div>' if chart is not None else ""
    return (
        f'<section id="{section.kind}{index}"><h2>{esc(table.title)}</h2>{caption}'
        f"{figures}{_table(table, f'sortable {section.kind}')}</section>"
    )


def _filters(session: SessionData) -> str:
    out = ['<div class="filters">']
    for name in FILTERS:
        values = sorted({getattr(c, name) for c in session.cells})
        options = '<option value="">all</option>' + "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
        out.append(f'<label>{name} <select name="{name}">{options}</select></label>')
    out.append('<label>text <input id="filter-text" type="search" placeholder="variant, note, ..."></label></div>')
    return "".join(out)


def _problems(report: Report) -> str:
    lines = report.problem_lines
    body = (
        '<ul class="problems">' + "".join(f"<li><code>{esc(line)}</code></li>" for line in lines) + "</ul>"
        if lines
        else "<p>none: every cell answered right.</p>"
    )
    return f'<section id="problems"><h2>problems</h2>{body}</section>'


def _meta(report: Report) -> str:
    session = report.session
    m = session.machine
    facts = [
        ["session", f"{session.id} ({session.status})"],
        ["started", session.started],
        ["finished", session.finished or "-"],
        ["git revision", session.git_revision],
        ["iorace", session.iorace_version],
        ["machine", session.machine_label or "-"],
    ]
    facts += [[k, "; ".join(f"{a}: {b}" for a, b in v.items()) if isinstance(v, dict) else str(v)] for k, v in m.items()]  # mitigations
    facts += [[k, str(v)] for k, v in session.options.items() if not isinstance(v, dict)]
    out = [
        '<section id="machine"><h2>machine, session and toolchains</h2>',
        _table(_plain(["fact", "value"], facts), "meta"),
        _table(_plain(["toolchain", "version"], [[k, str(v)] for k, v in sorted(session.toolchains.items())]), "meta"),
        "</section>",
    ]
    return "\n".join(out)


def _history(history: History, languages: list[str]) -> str:
    """The report's history (compare.history.history_section): each cell's median across the sessions, one
    chart per suite x dataset x parameters; a point where a change point's new level starts is flagged."""
    from iorace.report import charts

    out = [
        '<section id="history"><h2>history across the given sessions</h2>',
        '<p class="caption">Each line is one cell: its median primary metric in each session; a triangle marks '
        "where a change point's new level starts, beyond 5%, as <code>iorace history</code> finds it (PELT over the "
        "cell's whole series, each change checked by a t-test across it, 4 sessions a side at least).</p>",
        '<div class="charts">',
    ]
    out += [_figure(charts.history_chart(chart.points, languages, chart.title)) for chart in history.charts]
    out += ["</div></section>"]
    return "\n".join(out)


def _nav(report: Report, history: bool) -> str:
    """Links to the overview's parts, then one per suite to its folded tables (not one per table: a session
    of six suites has some forty)."""
    seeds = [s.source for s in report.of_kind("overview") if isinstance(s.source, ThenNowTable)]
    links = [f'<a href="#overview{i}">{esc(t.seed)} then and now</a>' for i, t in enumerate(seeds)]
    if report.of_kind("leaders"):
        links.append('<a href="#leaders">best per language and toolchain</a>')
    links.append('<a href="#problems">problems</a>')
    first: dict[str, tuple[int, int]] = {}
    for i, g in enumerate(report.groups):
        index, n = first.get(g.suite, (i, 0))
        first[g.suite] = (index, n + 1)
    tables_links = " · ".join(f'<a href="#g{i}">{esc(suite)} ({n})</a>' for suite, (i, n) in first.items())
    links.append(f"tables: {tables_links}" if tables_links else "")
    links.append('<a href="#machine">machine</a>' + (' · <a href="#history">history</a>' if history else ""))
    return "<p>" + " · ".join(link for link in links if link) + "</p>"


def _contention(report: Report) -> str:
    """The machine while it measured: a warning at the top when the session was contended; then what the
    intervals hold besides the rounds, the suites' session levels, when known."""
    c = report.contention
    spread = f'<p class="caption">{esc(report.spread_line)}</p>' if report.spread_line else ""
    if not c.timed_runs:
        return spread
    if c.contended:
        return f'<p class="contended"><b>{esc(c.line)}</b></p>' + spread
    return f'<p class="caption">machine: {esc(c.line)}</p>' + spread


def render(report: Report) -> str:
    """The report's page: the overview (each seed's then and now, each suite's best cell per language and
    toolchain in one chart, the problems), then every table folded, the grids and seed tables, the report's
    history when it has one (several sessions, the report's among them) and the machine."""
    session = report.session
    languages = report.history.languages if report.history else sorted({c.language for c in session.cells})
    summary = report.summary
    with_history = report.history is not None
    body = [
        f"<h1>iorace session {session.id}</h1>",
        f"<p>{esc(session.started)} · {esc(session.machine_label or '?')} · {esc(session.machine.get('cpu_model', '?'))} · "
        f"{esc(session.machine.get('cores', '?'))} cores · {esc(summary)} · runs per cell "
        f"{esc(session.options.get('runs', '-'))}</p>",
        f"<p>reproduce: <code>{esc(session.command_line)}</code> (git {esc(session.git_revision[:12])})</p>",
        _contention(report),
        _nav(report, with_history),
    ]
    body += [_section(s, i) for i, s in enumerate(report.of_kind("overview"))]  # each seed's then and now first
    body.append(_leaders(report.of_kind("leaders"), languages))
    body.append(_problems(report))
    if report.groups:
        body += [
            '<section id="tables"><h2>the tables</h2><p class="caption">One per suite x dataset x parameters, folded: '
            "open one for its charts, every cell with its interval, answer and notes, and each cell's exact command.</p>",
            _filters(session),
        ]
        body += [_group_section(s, i, languages) for i, s in enumerate(report.of_kind("group"))]
        body.append("</section>")
    numbered: dict[str, int] = {}
    for section in report.detail:
        if section.kind != "group":
            body.append(_section(section, numbered.setdefault(section.kind, 0)))
            numbered[section.kind] += 1
    if report.history is not None:
        body.append(_history(report.history, languages))
    body.append(_meta(report))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>iorace session {session.id}'
        f"</title><style>{CSS}</style></head><body>\n" + "\n".join(body) + f"\n<script>{SCRIPT}</script>\n</body></html>\n"
    )


def write_html(report: Report, path: Path) -> None:
    """The report (with its history, when it has one) into one self-contained file; its charts rendered all at
    once, in worker processes (charts.batched)."""
    from iorace.report import charts

    path.write_text(charts.batched(lambda: render(report)))
