"""The site's pages, each drawn from what collect.py read: the index, a suite, a suite's data set, a cell.

The tables are the report's own (iorace.report.tables: the group table of every format, `history`'s,
`compare-machines`' and `compare`'s), drawn as the HTML report draws them; the charts are the HTML report's
(iorace.report.charts).
"""

from __future__ import annotations

import json
from collections import Counter

from iorace.analyse import fmt
from iorace.analyse.analysis import Group, Row, ThenNowTable, params_text
from iorace.analyse.fmt import seconds
from iorace.compare import draw, fleet, judge
from iorace.compare.history import CellChange, Series
from iorace.core.ids import params_json
from iorace.export.html import _figure, _section, _table, esc
from iorace.export.site.collect import MachineLatest, SiteData, SuiteData, sample_ident
from iorace.export.site.layout import cell_page, link, page, suite_page, table_page
from iorace.report import tables
from iorace.store.db import CellData

# the group table's columns a data set's page shows: the ratios to the fastest and what places a cell
RATIO_COLUMNS = ("place", "variant", "toolchain", "profile", "status", "x fastest [95% CI]", "notes")
FILTERS = ("language", "toolchain", "variant")  # a table's rows filter by these (the report's script, by data-NAME)


def _date(text: str | None) -> str:
    return (text or "?")[:16].replace("T", " ")


def placement_mark(row: Row) -> str:
    """'placement-sensitive' where the row's code layouts alone move it by more than 5% (analyse/placement.py);
    '' for any other row, and for a cell of one layout."""
    return "placement-sensitive" if row.placement is not None and row.placement.sensitive else ""


def _marks(row: Row, contended: bool) -> str:
    out = ['<span class="mark contended">contended</span>'] if contended else []
    if mark := placement_mark(row):
        out.append(f'<span class="mark placement">{esc(mark)}</span>')
    return " ".join(out)


def _latest_line(m: MachineLatest, suite: str) -> str:
    """The session, when, at which commit, and its cells of this suite by status ('12 ok, 1 wrong', as the
    report's summary counts a whole session)."""
    s = m.session
    counts = Counter(c.status for c in s.cells if c.suite == suite)
    cells = ", ".join(f"{n} {status}" for status, n in counts.most_common())
    return f"session {s.id} · {_date(s.started)} · git {s.git_revision[:9] or '?'} · {cells}"


# --- the index ---------------------------------------------------------------------------------------


def index(site: SiteData) -> str:
    suites = [s.suite for s in site.suites]
    body = [f'<p class="caption">From {esc(site.where)}: {len(suites)} suites, {len(site.machines)} machines.</p>', "<h2>suites</h2>"]
    rows = []
    for sd in site.suites:
        for m in sd.latest:
            changed = esc(draw.summary(m.changes).split(" (")[0]) if m.changes else "first session here"
            if m.changes is not None:
                changed += f" (since session {m.previous})" + "".join(f"<br>regressed: {esc(line)}" for line in m.changes.regressions)
            mark = ' <span class="mark contended">contended</span>' if m.report.contention.contended else ""
            rows.append(
                f"<tr><td>{link(suite_page(sd.suite), sd.suite)}</td><td>{esc(m.machine or '?')}</td>"
                f"<td>{esc(_latest_line(m, sd.suite))}{mark}</td><td>{changed}</td></tr>"
            )
    body.append(
        '<table class="latest"><thead><tr><th>suite</th><th>machine</th><th>latest session</th>'
        "<th>what changed since the one before</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
    body += ["<h2>machines</h2>", _table(fleet_machines(site), "machines")]
    body.append("<h2>open change points</h2>")
    body.append(
        '<p class="caption">Each cell\'s latest change point on each machine (<code>iorace history</code>): the level it '
        "stands at now began there.</p>"
    )
    items = [_change_item(sd, ch) for sd in site.suites for ch in sd.open_changes()]
    body.append('<ul class="changes">' + "".join(items) + "</ul>" if items else "<p>none found.</p>")
    return page("iorace results", body, suites)


def fleet_machines(site: SiteData) -> tables.Table:
    columns = [tables.Column(h, "left") for h in ("machine", "fingerprint", "CPU model", "cores", "sessions", "first", "last")]
    rows = [
        [
            m["machine_name"] or "?",
            m["machine_fingerprint"] or "?",
            str(m["facts"].get("cpu_model") or "?"),
            str(m["facts"].get("cores") or "?"),
            str(m["sessions"]),
            _date(m["first_started"]),
            _date(m["last_started"]),
        ]
        for m in site.machines
    ]
    return tables.Table("machines", "", columns, rows)


def _change_item(sd: SuiteData, ch: CellChange) -> str:
    ser = ch.series
    way = "slower" if ch.ratio.value > 1 else "faster"
    return (
        f'<li><span class="mark {way}">{way}</span> {link(cell_page(ser.ident), f"{sd.suite} {ser.name}")}: '
        f"{esc(judge.change_text(ch.ratio))} on {esc(ch.machine or '?')}, from session {ch.after.session_id} "
        f"({esc(_date(ch.after.started))}, commits {esc(ch.before.git_revision[:9])}..{esc(ch.after.git_revision[:9])})</li>"
    )


# --- a suite -----------------------------------------------------------------------------------------


def suite(site: SiteData, sd: SuiteData) -> str:
    body = ["<h2>data sets</h2><ul>" + "".join(f"<li>{link(table_page(sd.suite, d), d)}</li>" for d in sd.datasets) + "</ul>"]
    body.append("<h2>latest session of each machine</h2><ul>")
    body += [f"<li>{esc(m.machine or '?')}: {esc(_latest_line(m, sd.suite))}</li>" for m in sd.latest]
    body.append("</ul>")
    body += _verdicts(sd)
    body += _seeds(sd)
    body.append("<h2>cells</h2>")
    body.append(
        '<p class="caption">Each cell\'s history over the stored sessions, with the change points '
        "<code>iorace history</code> finds.</p><ul>"
    )
    body += [f"<li>{link(cell_page(ser.ident), ser.name)} ({len(ser.changes)} change points)</li>" for ser in sd.series]
    body.append("</ul>")
    if sd.breaks:
        body.append("<ul>" + "".join(f"<li>{esc(line)}</li>" for line in sd.breaks) + "</ul>")
    return page(f"suite {sd.suite}", body, [s.suite for s in site.suites])


def _verdicts(sd: SuiteData) -> list[str]:
    """`compare-machines`: per pair of cells, its order on each machine, flips first."""
    if sd.fleet is None:
        return ["<h2>machines' verdicts</h2><p>one machine has this suite: nothing to compare across machines.</p>"]
    out = ['<section id="verdicts"><h2>machines\' verdicts</h2>']
    out += [f'<p class="caption">{esc(line)}</p>' for line in fleet.summary_lines(sd.fleet)]
    out.append(_table(fleet.pairs_table(sd.fleet), "sortable verdicts"))
    out.append(_table(machine_ratios(sd.fleet), "sortable ratios"))
    if sd.fleet.correlations:
        out.append(_table(fleet.correlation_table(sd.fleet), "sortable correlations"))
    out.append("</section>")
    return out


def machine_ratios(cmp: fleet.FleetComparison) -> tables.Table:
    """The machines side by side: per pair of cells, its verdict and each machine's ratio A / B with its 95%
    interval, the paired ratio `compare-machines` judged it by."""
    names = [m.name for m in cmp.machines]
    columns = [tables.Column(h, "left") for h in ("table", "cell A", "cell B", "order")]
    columns += [tables.Column(f"A / B on {name} [95% CI]") for name in names]
    rows = [
        [p.a.dataset + " " + params_text(json.loads(p.table.params)), p.a.label, p.b.label, p.verdict]
        + [fmt.ratio(p.ratios.get(name)) for name in names]
        for p in cmp.pairs
    ]
    return tables.Table("each machine's ratio of the pair", "", columns, rows)


def _seeds(sd: SuiteData) -> list[str]:
    """Each seed's then-and-now table of the suite (a session of `iorace seeds`), as the report draws it."""
    out = []
    for m in sd.latest:
        for i, s in enumerate(m.report.of_kind("overview")):
            if isinstance(s.source, ThenNowTable) and s.source.suite == sd.suite:
                out += [f"<h3>{esc(m.machine or '?')}, session {m.session.id}</h3>", _section(s, i)]
    return ["<h2>the seed's table, then and now</h2>", *out] if out else []


# --- a suite's data set -----------------------------------------------------------------------------


def dataset(site: SiteData, sd: SuiteData, name: str) -> str:
    languages = sorted({c.language for m in sd.latest for c in m.session.cells})
    series_of = {ser.ident: ser for ser in sd.series}
    cells = [c for m in sd.latest for c in m.session.cells if c.suite == sd.suite and c.dataset == name]
    body = [_filters(cells)]
    for m in sd.latest:
        contended = m.report.contention.contended
        body.append(f"<h2>{esc(m.machine or '?')}: {esc(_latest_line(m, sd.suite))}</h2>")
        if contended:
            body.append(f'<p><span class="mark contended">contended</span> {esc(m.report.contention.line)}</p>')
        for s in m.report.of_kind("group"):
            g = s.source
            if isinstance(g, Group) and g.suite == sd.suite and g.dataset == name:
                body.append(_group(g, s.table, languages, contended, series_of, m.session.id))
    return page(f"{sd.suite} · {name}", body, [s.suite for s in site.suites])


def _filters(cells: list[CellData]) -> str:
    out = ['<div class="filters">']
    for what in FILTERS:
        values = sorted({getattr(c, what) for c in cells})
        options = '<option value="">all</option>' + "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)
        out.append(f'<label>{what} <select name="{what}">{options}</select></label>')
    return "".join(out) + "</div>"


def _group(g: Group, table: tables.Table, languages: list[str], contended: bool, series_of: dict, session_id: int) -> str:
    """One table of the report: its ratio chart, and its rows' ratios to the fastest, each linked to its cell's page."""
    from iorace.report import charts

    wide = table.view(wide=True)
    keep = [i for i, c in enumerate(wide.columns) if c.header in RATIO_COLUMNS]
    head = "".join(f"<th>{esc(wide.columns[i].header)}</th>" for i in keep) + "<th>marks</th><th>history</th>"
    rows = []
    for r, texts in zip(g.rows, wide.rows, strict=True):
        c = r.cell
        attrs = "".join(f' data-{k}="{esc(getattr(c, k))}"' for k in (*FILTERS, "status"))
        tds = "".join(f'<td class="{"l" if wide.columns[i].align == "left" else "r"}">{esc(texts[i])}</td>' for i in keep)
        ser = series_of.get(sample_ident(c, g.scale_params))
        history = link(cell_page(ser.ident), "history") if ser is not None else ""
        rows.append(f"<tr{attrs}>{tds}<td>{_marks(r, contended)}</td><td>{history}</td></tr>")
    # which session and table: a reader's script (or a test) finds the JSON export's cells from these
    params = params_json({k: str(v) for k, v in g.params.items() if k not in g.scale_params})
    return (
        f'<section class="group" data-session="{session_id}" data-params="{esc(params)}"><h3>{esc(table.title)}</h3>'
        f'<p class="caption">{esc(table.caption)}</p>'
        f'<div class="charts">{_figure(charts.ratio_chart(g, languages))}</div>'
        f'<table class="sortable cells"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></section>'
    )


# --- a cell -----------------------------------------------------------------------------------------

CHANGE_COLUMNS = ("machine", "change [95% CI]", "p", "sessions before / after", "from", "to", "commits", "machines showing it")


def cell(site: SiteData, sd: SuiteData, ser: Series) -> str:
    from iorace.report import charts

    machines = sorted({p.machine_name or "?" for p in ser.points})
    points = [
        {
            "session": f"#{p.session_id} {p.started[:10]}",
            "cell": p.machine_name or "?",
            "language": p.machine_name or "?",
            "median": p.median,
            "change": p.flag or "-",
        }
        for p in ser.points
        if p.median is not None
    ]
    body = [f"<p>{link(suite_page(sd.suite), sd.suite)} · {link(table_page(sd.suite, ser.ident.dataset), ser.ident.dataset)}</p>"]
    if points:
        chart = charts.history_chart(points, machines, f"{sd.suite} · {ser.name}: median per session", legend="machine")
        body.append(f'<div class="charts">{_figure(chart)}</div>')
    body.append('<section id="changes"><h2>change points</h2>')
    body.append(_table(change_table(ser), "changes") if ser.changes else "<p>none: its level held on every machine.</p>")
    body.append("</section><h2>per session</h2>")
    body.append(_table(points_table(ser), "sortable history"))
    return page(f"{sd.suite} · {ser.name}", body, [s.suite for s in site.suites])


def points_table(ser: Series) -> tables.Table:
    """The cell's median in each session, a row each (`history`'s table turned: a column per session gets wide),
    with where a change point's new level starts."""
    columns = [tables.Column(h, "left") for h in ("session", "started", "git", "machine")]
    columns += [tables.Column("median"), tables.Column("change point", "left"), tables.Column("note", "left")]
    rows = [
        [
            str(p.session_id),
            _date(p.started),
            p.git_revision[:9],
            p.machine_name or "?",
            seconds(p.median) if p.median is not None else p.cell.status,
            judge.change_text(p.change.ratio) if p.change is not None else "",
            "contended: left out of the series" if p.contended else "",
        ]
        for p in ser.points
    ]
    return tables.Table("per session", "", columns, rows)


def change_table(ser: Series) -> tables.Table:
    """Each change point of the cell: its machine, size with its 95% interval, the sessions it was tested on,
    the sessions and dates either side and the commits between them."""
    rows = [
        [
            ch.machine or "?",
            judge.change_text(ch.ratio),
            f"{ch.p_value:.1g}",
            f"{ch.sessions[0]} / {ch.sessions[1]}",
            f"session {ch.before.session_id} ({_date(ch.before.started)})",
            f"session {ch.after.session_id} ({_date(ch.after.started)})",
            f"{ch.before.git_revision[:9]}..{ch.after.git_revision[:9]}",
            f"{ch.machines[0]} of {ch.machines[1]}" + (" (every cell of its table)" if ch.table_wide else ""),
        ]
        for ch in ser.changes
    ]
    return tables.Table("change points", "", [tables.Column(h, "left") for h in CHANGE_COLUMNS], rows)
