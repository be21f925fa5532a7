"""The report's tables as plain data: columns, headers and cell texts, in one place.

Every output draws these same tables: the terminal report (rich), the Markdown
export and the HTML report. A column knows whether the terminal's compact view
shows it; a format only decides how to draw a header, a cell and a status.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from iorace.analyse import fmt
from iorace.analyse.analysis import (
    AA_SUFFIX,
    FOLDED_BELOW,
    GridTable,
    Group,
    Row,
    SeedTableData,
    ThenNowRow,
    ThenNowTable,
    answer_text,
    params_text,
)
from iorace.analyse.counter_keys import ipc
from iorace.analyse.leaders import LeaderTable
from iorace.core.status import Status
from iorace.store.db import CellData, SessionData


@dataclass(frozen=True)
class Column:
    header: str
    align: str = "right"  # "left" or "right"
    compact: bool = False  # shown in the terminal's default (compact) view
    wide: bool = True  # shown in the wide view (Markdown, HTML, piped output, --wide)
    wrap: bool = False  # long texts wrap instead of widening the table (labels, notes)


@dataclass
class Table:
    title: str
    caption: str
    columns: list[Column]
    rows: list[list[str]]
    statuses: list[str] = field(default_factory=list)  # one per row where the table has a status column
    status_column: int | None = None  # index of the column to colour by status

    def without(self, index: int) -> Table:
        """The same table less one column."""
        keep = [i for i in range(len(self.columns)) if i != index]
        status = keep.index(self.status_column) if self.status_column in keep else None
        return Table(
            self.title, self.caption, [self.columns[i] for i in keep], [[row[i] for i in keep] for row in self.rows], self.statuses, status
        )

    def view(self, wide: bool = True) -> Table:
        """The table with the wide view's columns or only the compact ones."""
        keep = [i for i, c in enumerate(self.columns) if (c.wide if wide else c.compact)]
        status = keep.index(self.status_column) if self.status_column in keep else None
        return Table(
            self.title, self.caption, [self.columns[i] for i in keep], [[row[i] for i in keep] for row in self.rows], self.statuses, status
        )


def metric_title(g: Group) -> str:
    return {"inner": "inner time", "cpu": "cpu time (user + system)"}.get(g.metric, "wall time")


def group_title(g: Group) -> str:
    # where the cells ran different amounts of work (a 1-pass Python loop, or each cell sized by --target-ms),
    # one cell's scale parameters would misname the table: the caption says they are compared per unit of work
    params = {k: v for k, v in g.params.items() if k not in g.scale_params} if g.scaled else g.params
    return f"{g.suite} · {g.dataset} · {params_text(params)}"


def group_caption(g: Group) -> str:
    text = f"{g.title}. {lead_text(g)}" if g.lead() is not None else f"{g.title}."
    text += (
        f" Ratios compare the {metric_title(g)} with the fastest cell's round by round (the geometric "
        "mean of each round's paired ratio, 95% t-interval over rounds); "
        "inner = the program's own timing of the work, wall = the whole process. "
        "Place: from 1 + the cells whose interval lies wholly below this one's to the cells less those wholly "
        "above it; a range is a tie (limit, bulk and A/A cells are not placed)."
    )
    if g.scaled:
        unit = g.scale_unit[:-1] if g.scale_unit.endswith("s") else g.scale_unit or "unit"
        text += f" Cells run with other {', '.join(g.scale_params)} are compared per {unit} of work."
    if g.has_instructions:
        text += " Instructions: one run under cachegrind, repeatable whatever the machine does; per unit = divided by the work of that run."
    if g.has_estimated_cycles:
        text += " Est. cycles: the same run's cache simulation, L1 hits + 5 x LL hits + 35 x RAM hits (iai-callgrind's estimate), as exact."
    agreement = g.rank_agreement()
    if agreement:
        text += (
            " Rank agreement with the measured time (Spearman's rho): "
            + ", ".join(f"{name} {rho:+.2f} over {n} cells" for name, (rho, n) in agreement.items())
            + "."
        )
    return text


def _names(rows: list[Row]) -> str:
    """'a', 'a and b', 'a, b and c': cells as the compact view names them."""
    names = [cell_name(r) for r in rows]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def lead_text(g: Group) -> str:
    """The caption's answer to "which is fastest?", saying a tie where the 95% intervals cannot order the
    first cells, so a reader does not take the table's order among them for a result ('' without a lead)."""
    lead = g.lead()
    if lead is None:
        return ""
    early = f" ({_names(lead.early)}: stopped early by the race, not placed)" if lead.early else ""
    if not lead.tie:
        if lead.ahead is None:  # every other cell was stopped early: nothing timed to the end to be ahead of
            return f"Fastest: {_names(lead.rows)}, the only cell timed to the end{early}."
        return f"Fastest: {_names(lead.rows)}, ahead of the next by at least {lead.ahead:.1%} (95% intervals){early}."
    text = f"Fastest: {_names(lead.rows)}, a tie at 95%"
    if lead.within is not None:
        text += f": each within +-{lead.within:.1%} of the fastest's time"
    if lead.unknown:
        text += f" ({_names(lead.unknown)}: no interval, so any place)"
    return text + early + "."


def _x(value: float | None) -> str:
    return f"{value:.2f}x" if value is not None else "-"


def cell_name(r: Row) -> str:
    """The compact view's first column: the variant with its toolchain and profile, so two compilers'
    rows of one variant can always be told apart."""
    return f"{r.cell.key} {r.cell.toolchain} {r.cell.profile}"


Text = Callable[[Row], str]


def _extra_text(name: str) -> Text:
    return lambda r: fmt.number(r.cell.extra.get(name))


def _group_columns(g: Group) -> list[tuple[Column, Text]]:
    """(column, row -> text) of a group table, in display order; optional columns only where the group has
    something to show in them."""
    primary = g.metric if g.metric in ("inner", "cpu") else "wall"
    cols: list[tuple[Column, Text]] = [
        (Column("place", "left", compact=True), lambda r: str(r.place) if r.place is not None else "-"),
        (Column("cell", "left", compact=True, wide=False, wrap=True), cell_name),
        (Column("variant", "left"), lambda r: r.cell.key),
        (Column("toolchain", "left"), lambda r: r.cell.toolchain),
        (Column("profile", "left"), lambda r: r.cell.profile),
        (Column("status", "left", compact=True), lambda r: r.cell.status),
        (Column("answer", "left", wrap=True), lambda r: answer_text(r.cell.answer)),  # whole, wrapped in a terminal
        (Column(f"{primary} median", compact=True, wide=False), lambda r: fmt.seconds(r.primary.median if r.primary else None)),
        (Column("inner median (min..max)"), lambda r: fmt.spread(r.inner)),
        (Column("wall median (min..max)"), lambda r: fmt.spread(r.wall)),
        (Column("user"), lambda r: fmt.seconds(r.user.median if r.user else None)),
        (Column("sys"), lambda r: fmt.seconds(r.system.median if r.system else None)),
        (Column("cpu"), lambda r: f"{r.cpu_pct.median:.0f}%" if r.cpu_pct else "-"),
        (Column("max RSS"), lambda r: fmt.rss(r.max_rss_kb)),
        (Column("rate", compact=True), lambda r: fmt.rates(r) if r.ok else "-"),
        (Column("x fastest [95% CI]", compact=True), lambda r: fmt.ratio(r.vs_fastest)),
    ]
    if g.limit is not None:
        cols.append((Column("x limit"), lambda r: _x(r.vs_limit)))
    if g.language_ref:
        cols.append((Column(f"x {g.language_ref['label']}"), lambda r: _x(r.vs_language_ref)))
    if g.fastest_peer is not None:
        cols.append((Column("x best peer"), lambda r: _x(r.vs_peer)))
    if g.has_instructions:
        cols.append((Column("instructions"), lambda r: fmt.count(r.cell.instructions)))
        unit = g.work_unit
        if unit:
            cols.append((Column(f"instr/{fmt.unit_singular(unit)}", compact=True), lambda r: fmt.per_unit(r.instructions_per_unit)))
        cols.append((Column("x fewest"), lambda r: _x(r.instructions_ratio)))
    if g.has_estimated_cycles:
        cols.append((Column("est. cycles"), lambda r: fmt.count(r.cell.estimated_cycles)))
        if g.work_unit:
            cols.append((Column(f"cycles/{fmt.unit_singular(g.work_unit)}"), lambda r: fmt.per_unit(r.cycles_per_unit)))
    for name in g.extra_names:
        cols.append((Column(name), _extra_text(name)))
    cols.append((Column("notes", "left", compact=True, wrap=True), fmt.notes))
    return cols


def group_table(g: Group) -> Table:
    """Every cell of one suite x dataset x parameter set, fastest first."""
    cols = _group_columns(g)
    columns = [c for c, _ in cols]
    return Table(
        group_title(g),
        group_caption(g),
        columns,
        [[text(r) for _, text in cols] for r in g.rows],
        [r.cell.status for r in g.rows],
        next(i for i, c in enumerate(columns) if c.header == "status"),
    )


def best_table(g: Group) -> Table | None:
    """The seed's question, "which implementation for which compiler": the fastest strategy of each
    language x toolchain x profile, with its distance to the best baseline cell and to the limit."""
    best = g.best_per_toolchain()
    if len(best) < 2:
        return None
    columns = [
        Column("best cell", "left", compact=True, wide=False, wrap=True),
        Column("language", "left"),
        Column("toolchain", "left"),
        Column("profile", "left"),
        Column("best variant", "left", wrap=True),
        Column(metric_title(g), compact=True),
        Column("x fastest", compact=True),
    ]
    if g.baseline is not None:
        columns.append(Column(f"x best {'/'.join(g.baseline_languages)}", compact=True))
    if g.limit is not None:
        columns.append(Column("x limit", compact=True))
    rows = []
    for r in best:
        variant = r.cell.variant
        if r.scale != 1.0:  # say which work it did; its time is scaled to the group's work
            variant += " (" + ", ".join(f"{k}={r.cell.params[k]}" for k in g.scale_params if k in r.cell.params) + ", scaled)"
        row = [
            f"{r.cell.language}/{variant} {r.cell.toolchain} {r.cell.profile}",
            r.cell.language,
            r.cell.toolchain,
            r.cell.profile,
            variant,
            fmt.seconds(r.cost),
            fmt.ratio(r.vs_fastest),
        ]
        if g.baseline is not None:
            row.append(_x(g.vs_baseline(r)))
        if g.limit is not None:
            row.append(_x(r.vs_limit))
        rows.append(row)
    return Table(f"best strategy per language and toolchain · {group_title(g)}", "", columns, rows)


def grid_table(grid: GridTable) -> Table:
    """A manifest grid (the seed's view): a row per configuration, a column per implementation (its median),
    and the ratio of two implementations with its 95% interval."""
    columns = [Column(grid.row_param, "left", compact=True)]
    columns += [Column(c.replace("@", " ").replace(":", " "), compact=True, wrap=True) for c in grid.columns]
    if grid.ratio_label:
        columns.append(Column(grid.ratio_label + " [95% CI]", compact=True))
    rows = []
    for value, entries, ratio in grid.rows:
        row = [str(value)] + [fmt.seconds(r.cost) if r is not None else "-" for r in entries]
        if grid.ratio_label:
            row.append(fmt.ratio(ratio))
        rows.append(row)
    return Table(grid.title, "Each entry is the cell's median time (the metric of the per-configuration tables).", columns, rows)


def seed_table(t: SeedTableData) -> Table:
    """A seed's own table of named tests, in its order: the median of each column as the seed summarised its
    runs (dcat: elapsed, user, system, mem), each test over the baseline test, and the seed's own figures."""
    base = t.baseline.split("/", 1)[-1]
    columns = [
        Column("test", "left", compact=True),
        Column("status", "left", compact=True),
        Column("median", compact=True),
        Column("user"),
        Column("sys"),
        Column("max RSS"),
        Column(f"x {base} [95% CI]", compact=True),
    ]
    has_seed = any(r.seed_seconds is not None for r in t.rows)
    if has_seed:
        columns += [Column("seed's median", compact=True), Column(f"seed's x {base}", compact=True)]
    rows, statuses = [], []
    for sr in t.rows:
        r = sr.row
        row = [sr.test.split("/", 1)[-1], r.cell.status if r is not None else "not run"]
        if r is not None and r.ok:
            row += [
                fmt.seconds(r.cost),
                fmt.seconds(r.user.median if r.user else None),
                fmt.seconds(r.system.median if r.system else None),
                fmt.rss(r.max_rss_kb),
            ]
        else:
            row += ["-"] * 4
        row.append(fmt.ratio(sr.vs_baseline))
        if has_seed:
            row += [fmt.seconds(sr.seed_seconds), _x(sr.seed_vs_baseline)]
        rows.append(row)
        statuses.append(r.cell.status if r is not None else Status.SKIPPED)
    caption = (
        f"The seed's tests in the seed's order; each column is the median of the runs (the metric of the "
        f"per-dataset table), x {base} divides by that test's median."
    )
    if has_seed:
        caption += f" The seed's figures: {t.source or 'as published'}; compare the ratios, not the seconds."
    return Table(t.title, caption, columns, rows, statuses, 1)


def then_now_table(t: ThenNowTable) -> Table:
    """A seed's published table beside today's (`iorace seeds`): per seed row, in the seed's order, the
    cell that answers it here, today's median and the seed's figure, each as a ratio to the same baseline
    row; a row that cannot run here says why."""
    shared = t.shared_baseline
    ratio_of = f"x {shared}" if shared else "x its baseline"
    columns = [
        Column("seed's row", "left", compact=True, wrap=True),
        Column("cell here", "left", wrap=True),
        Column("status", "left", compact=True),
        Column("now"),  # the absolute times for reference (wide view): the ratios are what compares
        Column(f"now {ratio_of} [95% CI]", compact=True),
        Column("then (seed)"),
        Column(f"then {ratio_of}", compact=True),
    ]
    if not shared:
        columns.append(Column("baseline", "left", wrap=True))
    counted = any(tr.instructions_per_unit is not None or tr.original is not None for tr in t.rows)
    unit = next((fmt.unit_singular(tr.unit) for tr in t.rows if tr.unit), "unit")
    if counted:
        columns += [Column(f"instr/{unit}", compact=True), Column(f"seed program's instr/{unit}")]
    noted = any(tr.note or tr.folded for tr in t.rows)
    if noted:
        columns.append(Column("as the seed wrote it?", "left", compact=True, wrap=True))
    columns.append(Column("why no time", "left", compact=True, wrap=True))
    rows, statuses = [], []
    for tr in t.rows:
        r = tr.row
        status = r.cell.status if r is not None else "not run"
        row = [
            tr.label,
            tr.cell.replace("@", " ").replace(":", " ") or "-",
            status,
            fmt.seconds(r.cost) if r is not None and r.ok else "-",
            fmt.ratio(tr.now),
            fmt.seconds(tr.then_seconds),
            _x(tr.then),
        ]
        if not shared:
            row.append(tr.baseline)
        if counted:
            row += [fmt.per_unit(tr.instructions_per_unit), fmt.per_unit(tr.original)]
        if noted:
            row.append(_seed_note(tr))
        row.append(tr.why or "")
        rows.append(row)
        statuses.append(status)
    caption = (
        f"The seed's rows in the seed's order, each at the seed's own configuration (its parameters, toolchain and build "
        f"profile) on {t.dataset}; now = this session's median ({t.metric if t.metric in ('inner', 'cpu') else 'wall'} time), "
        f"then = the seed's published figure ({t.figures or 'as published'}). Compare the ratios, not the seconds: the "
        "machines differ."
    )
    if t.left_out:
        caption += f" {t.left_out} of the seed's rows have no cell in this session: `iorace seeds {t.seed}` runs them all."
    if counted:
        sources = sorted({tr.original_source for tr in t.rows if tr.original is not None and tr.original_source})
        below = next((tr.folded_below for tr in t.rows if tr.folded_below is not None), FOLDED_BELOW)
        caption += (
            f" instr/{unit}: this cell's instructions per {unit} (cachegrind, `--instructions`) beside the seed's own "
            f"program's ({'; '.join(sources) or 'where known'})"
        )
        caption += f"; FOLDED: under {below} a {unit}, today's compiler folded the loop and it no longer does the work." if below else "."
    return Table(t.title, caption, columns, rows, statuses, 2)


def _seed_note(tr: ThenNowRow) -> str:
    """How a seed row's cell stands to the seed's program: folded by today's compiler, a named departure."""
    whose = "" if tr.instructions_per_unit is not None else ", the seed's program's count"
    unit = fmt.unit_singular(tr.unit) if tr.unit else "unit"
    folded = f"FOLDED ({fmt.per_unit(tr.counted)} instr/{unit}{whose})" if tr.folded and tr.counted is not None else ""
    return "; ".join(x for x in (folded, tr.note) if x)


COUNTER_COLUMNS = [  # (header, key or "ipc", digits after the point)
    ("task-clock ms", "perf:task-clock", 2),
    ("ctx switches", "perf:context-switches", 0),
    ("page faults", "perf:page-faults", 0),
    ("cycles", "perf:cycles", 0),
    ("instructions", "perf:instructions", 0),
    ("IPC", "ipc", 2),
    ("branches", "perf:branches", 0),
    ("branch misses", "perf:branch-misses", 0),
    ("cg branches", "cachegrind:branches", 0),
    ("cg branch misses", "cachegrind:branch-misses", 0),
    ("cg L1 hits", "cachegrind:l1-hits", 0),
    ("cg LL hits", "cachegrind:ll-hits", 0),
    ("cg RAM hits", "cachegrind:ram-hits", 0),
]


def leaders_table(t: LeaderTable) -> Table:
    """The overview's answer for one suite: each language x toolchain's best cell over the suite's tables."""
    columns = [
        Column("language", "left", compact=True),
        Column("toolchain", "left", compact=True),
        Column("best cell (in most tables)", "left", compact=True, wrap=True),
        Column("x fastest (geomean)", compact=True),
        Column("range", compact=True),
        Column("won", compact=True),
    ]
    rows = [
        [
            r.language,
            r.toolchain,
            r.usual_best,
            f"{r.geomean:.2f}x",
            f"{min(r.ratios):.2f}-{max(r.ratios):.2f}x" if r.tables > 1 else "-",
            f"{r.won} of {r.tables}",
        ]
        for r in t.rows
    ]
    # what the ratios are (leaders.EXPLAINED) is said once per report, before the first of these tables
    caption = f"Over the suite's {t.tables} table{'s' if t.tables != 1 else ''} in this session."
    return Table(f"{t.suite}: the best cell per language and toolchain", caption, columns, rows)


def counters_table(session: SessionData) -> Table | None:
    """Counters of one extra run per cell (run --counters / --instructions): only the columns some cell has."""
    cells = [c for c in session.cells if c.counters]
    if not cells:
        return None

    def value(c: CellData, key: str) -> float | None:
        return ipc(c.counters) if key == "ipc" else c.counters.get(key)

    cols = [(h, k, d) for h, k, d in COUNTER_COLUMNS if any(value(c, k) is not None for c in cells)]
    rows = [
        [f"{c.suite} {c.dataset} {c.label}", *("-" if (v := value(c, k)) is None else f"{v:,.{d}f}" for _, k, d in cols)] for c in cells
    ]
    return Table(
        "counters of one run per cell (perf stat; cg: cachegrind's simulation)",
        "",
        [Column("cell", "left", compact=True, wrap=True)] + [Column(h, compact=True) for h, _, _ in cols],
        rows,
    )


def aa_table(groups: list[Group]) -> Table | None:
    """The honesty check: each table's fastest cell measured twice, as two cells (A/A). Their ratio over the
    rounds must cover 1.00 in about 19 of 20 sessions; an interval that excludes it claims more than the
    session knows."""
    rows = []
    for g in groups:
        for r in g.rows:
            if r.vs_original is not None:
                v = r.vs_original
                covers = "yes" if v.low is not None and v.overlaps_one() else "no" if v.low is not None else "-"
                rows.append(
                    [
                        group_title(g),
                        r.cell.key.removesuffix(AA_SUFFIX) + f" {r.cell.toolchain} {r.cell.profile}",
                        fmt.ratio(v),
                        covers,
                        str(v.n),
                    ]
                )
    if not rows:
        return None
    columns = [
        Column("table", "left", compact=True, wrap=True),
        Column("cell measured twice", "left", compact=True, wrap=True),
        Column("A/A ratio [95% CI]", compact=True),
        Column("covers 1.00", "left", compact=True),
        Column("rounds", compact=True),
    ]
    caption = (
        "Each table's fastest cell was also timed as a second cell of its own in the same rounds; the ratio of "
        "the two must cover 1.00 (it does in about 19 of 20 sessions when the intervals are honest)."
    )
    return Table("A/A: the reference measured twice", caption, columns, rows)
