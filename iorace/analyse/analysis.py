"""Turn a stored session into comparable rows: per cell statistics, ratios to the fastest and to the limit.

The report, the Markdown export and the JSON export all read these rows, so
they can never disagree about a ratio.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

from iorace.analyse.placement import Placement, placement
from iorace.analyse.stats import NO_LEVEL, Level, Ratio, Summary, fastest_paired, layout_clusters, paired_ratio, summarize
from iorace.core.ids import TableId, variant_key_of
from iorace.core.kind import Kind
from iorace.core.status import Status
from iorace.store.db import CellData, SessionData

NS = 1e9
AA_SUFFIX = "~aa"  # an A/A cell's variant is its original's name and this (measure.aa_twins)
TOP_PLACES = 3  # a table's answer is decided among its fastest three: racing's rounds and the precision go there


@dataclass(frozen=True)
class Place:
    """A ranked cell's place in its table as the range its 95% interval allows (a ranking with confidence):
    best = 1 + the cells whose interval lies wholly below its own, worst = the ranked cells less those whose
    interval lies wholly above it. A range ("1-3") is a tie: the intervals cannot tell those cells apart, so
    the table's order among them is not a finding."""

    best: int
    worst: int

    @property
    def tied(self) -> bool:
        return self.worst > self.best

    def __str__(self) -> str:
        return f"{self.best}-{self.worst}" if self.tied else str(self.best)


@dataclass(frozen=True)
class Lead:
    """Who leads a table: the cells whose best place is 1, fastest first. One cell: a clear leader, `ahead`
    the least any other cell's interval lies above its own (0.042: by at least 4.2%). Several: a tie, `within`
    the farthest their intervals reach from the fastest's time (0.031: each within +-3.1%; None when none of
    them has an interval), `unknown` those of them without an interval. Only cells timed to the end lead: a
    cell the race stopped early (`early`) has an interval of a few rounds, wide enough to reach the first place
    (2.16x [0.17-27.17] after two rounds), which says nothing about who is fastest."""

    rows: list[Row]
    ahead: float | None = None
    within: float | None = None
    unknown: list[Row] = field(default_factory=list)
    early: list[Row] = field(default_factory=list)

    @property
    def tie(self) -> bool:
        return len(self.rows) > 1


@dataclass
class Row:
    cell: CellData
    metric: str  # "inner", "wall" or "cpu": what `primary` measures for this row (Run.metric_ns)
    primary: Summary | None  # seconds
    wall: Summary | None
    inner: Summary | None
    user: Summary | None
    system: Summary | None
    cpu_pct: Summary | None  # (user + system) / wall, as the dcat seed's `time` reports it
    max_rss_kb: int | None
    vs_fastest: Ratio | None = None  # cost / the fastest comparable row's, with its 95% interval
    vs_limit: float | None = None
    instructions_ratio: float | None = None  # instructions / the fewest of the group's comparable rows
    vs_language_ref: float | None = None  # primary / the same-language reference cell (same toolchain, profile)
    vs_peer: float | None = None  # primary / the fastest peer of the group
    vs_original: Ratio | None = None  # an A/A cell (kind control): its ratio to the cell it twins, round by round
    rates: dict[str, float] = field(default_factory=dict)  # unit -> per second
    scale: float = 1.0  # this cell's work / the group's (1 pass of 10: 0.1); comparisons use cost
    instructions_per_unit: float | None = None  # instructions / the run's work in the group's first unit
    cycles_per_unit: float | None = None  # estimated cycles (cachegrind's cache simulation) / the same work
    place: Place | None = None  # ranked rows only (Group.ranked): the places its interval allows
    placement: Placement | None = None  # how much its code layouts alone move it (a cell of one layout: None)

    @property
    def cost(self) -> float:
        """The primary median scaled to the group's amount of work: what every comparison uses (ok rows only)."""
        assert self.primary is not None, "cost of a row that has no measured runs"
        return self.primary.median / self.scale

    @property
    def ok(self) -> bool:
        return self.cell.status == Status.OK and self.primary is not None

    @property
    def raced_out(self) -> bool:
        """The race stopped timing it early, as settled behind (run.race's note ends "(race)"); a table
        stopped whole within the precision asked is timed to the end."""
        return self.cell.timing_note.endswith("(race)")

    @property
    def kind(self) -> Kind:
        return Kind.of(self.cell.kind)

    @property
    def noisy(self) -> bool:
        return bool(self.primary and self.primary.noisy)

    def primary_values(self) -> list[float]:
        values = (r.metric_ns(self.metric) for r in self.cell.measured())
        return [v / NS for v in values if v is not None]

    def cost_values(self) -> list[float]:
        return [v / self.scale for v in self.primary_values()]

    def layout_by_round(self) -> dict[int, int | None]:
        """Each measured round's code layout (run/layouts.py; None: the as-linked build)."""
        return {r.round: r.layout for r in self.cell.measured()}

    def cost_by_round(self) -> dict[int, float]:
        """Each measured round's cost (the primary metric scaled to the group's work): what paired ratios pair."""
        out = {}
        for r in self.cell.measured():
            if (value := r.metric_ns(self.metric)) is not None:
                out[r.round] = value / NS / self.scale
        return out


@dataclass
class Group:
    suite: str
    title: str
    dataset: str
    dataset_sha256: str
    params: dict
    metric: str
    rows: list[Row]
    baseline_languages: list[str] = field(default_factory=list)
    language_ref: dict | None = None  # {"label": ..., "variants": [...]} from the manifest
    scale_params: list[str] = field(default_factory=list)  # params that only scale the work (passes)
    scale_unit: str = ""  # the unit work is compared in ("bytes")
    session_level: Level = NO_LEVEL  # how much a ratio moves between sessions here, in its interval (analyse/session_spread.py)

    @property
    def scaled(self) -> bool:
        return any(r.scale != 1.0 for r in self.rows)

    @property
    def fastest_peer(self) -> Row | None:
        peers = [r for r in self.rows if r.ok and r.kind is Kind.PEER]
        return min(peers, key=lambda r: r.cost) if peers else None

    @property
    def baseline(self) -> Row | None:
        """The fastest cell of the suite's baseline languages (e.g. C and C++), other than a limit row."""
        rows = [r for r in self.rows if r.ok and r.kind.compared and r.cell.language in self.baseline_languages]
        return min(rows, key=lambda r: r.cost) if rows else None

    def vs_baseline(self, r: Row) -> float | None:
        b = self.baseline
        return r.cost / b.cost if b is not None and r.ok else None

    @property
    def fastest(self) -> Row | None:
        """The ranked row with the lowest cost in the rounds it shares with the row timed the most rounds
        (stats.fastest_paired): racing stops cells after different numbers of rounds, and a median from a
        session's first stretch is no match for one over all of it."""
        candidates = self.ranked
        key = fastest_paired({i: r.cost_by_round() for i, r in enumerate(candidates)})
        return candidates[key] if key is not None else None

    @property
    def ranked(self) -> list[Row]:
        """The rows that get a place: those that can be the fastest (variants and peers, timed). Limit and
        bulk rows use another method and the A/A twin is the fastest again: ranking them would push the
        cells that do the job down a place."""
        return [r for r in self.rows if r.ok and r.kind.compared]

    def runners_up(self, fastest: Row) -> list[Row]:
        """The TOP_PLACES - 1 ranked rows after `fastest` (this group's, judged once by the caller), by their
        ratio to it. Left out by identity, not by value: a paired ratio is not transitive, so in a near tie a row
        that shares only some rounds with the fastest can sort below the fastest's own 1.00, and a slice by
        value would then count the fastest against itself (a variance of 0) and leave a top row out."""
        others = [r for r in self.ranked if r is not fastest and r.vs_fastest is not None]
        return sorted(others, key=lambda r: r.vs_fastest.value if r.vs_fastest is not None else math.inf)[: TOP_PLACES - 1]

    def lead(self) -> Lead | None:
        """The cells that share the first place (Place.best == 1) and by how much they lead or tie; None with
        fewer than two ranked cells (no order to speak of)."""
        ranked = self.ranked
        if len(ranked) < 2 or any(r.place is None for r in ranked):
            return None
        placed_first = [r for r in ranked if r.place is not None and r.place.best == 1]
        early = [r for r in placed_first if r.raced_out]
        first = [r for r in placed_first if not r.raced_out] or placed_first  # the fastest is never raced out
        if len(first) == 1:
            # A lone first place means every other interval lies wholly above the leader's (the leader's own,
            # to itself, is [1, 1]): the smallest gap between them is what the table can claim.
            (leader,) = first
            behind = [interval(r)[0] for r in ranked if r is not leader and r not in early]
            ahead = min(behind) / interval(leader)[1] - 1 if behind else None
            return Lead(first, ahead=ahead, early=early)
        # how far the others' intervals reach from the fastest's time (the fastest's own, to itself, is [1, 1])
        fastest = self.fastest  # judged in shared rounds (stats.fastest_paired): once, not once per row
        reach = [max(high - 1, 1 - low) for low, high in (interval(r) for r in first if r is not fastest) if math.isfinite(high)]
        unknown = [r for r in first if not math.isfinite(interval(r)[1])]
        return Lead(first, within=max(reach) if reach else None, unknown=unknown, early=early if first is not placed_first else [])

    @property
    def work_unit(self) -> str:
        """The unit work is counted in (bytes, lines, keys, ...): the first one the suite's units() gives."""
        return next((u for r in self.rows for u in r.cell.units), "")

    @property
    def extra_names(self) -> list[str]:
        """Figures some program of this group reports beside its answer (alloc_bytes_per_op, ...)."""
        return list(dict.fromkeys(k for r in self.rows for k in r.cell.extra))

    @property
    def has_instructions(self) -> bool:
        return any(r.cell.instructions is not None or r.cell.instructions_note for r in self.rows)

    @property
    def has_estimated_cycles(self) -> bool:
        return any(r.cell.estimated_cycles is not None for r in self.rows)

    def rank_agreement(self) -> dict[str, tuple[float, int]]:
        """How well each exact cost ranks the table's cells as their measured time does: Spearman's rho of
        estimated cycles and of instructions (each per unit of work, as cost is) against the cost, over the
        compared cells ok and counted (three at least), with how many cells. Fewer instructions can still
        be slower (caches, branches, the kernel's share): where rho is high the exact number can stand in
        for the noisy one."""
        out = {}
        rows = [r for r in self.rows if r.ok and r.kind.compared]
        for name, get in (("estimated cycles", lambda r: r.cell.estimated_cycles), ("instructions", lambda r: r.cell.instructions)):
            counted = [(get(r) / r.scale, r.cost) for r in rows if get(r)]
            if len(counted) >= 3:
                rho = sps.spearmanr([c for c, _ in counted], [t for _, t in counted]).statistic
                if np.isfinite(rho):
                    out[name] = (float(rho), len(counted))
        return out

    @property
    def limit(self) -> Row | None:
        limits = [r for r in self.rows if r.ok and r.kind is Kind.LIMIT]
        return min(limits, key=lambda r: r.cost) if limits else None

    def best_per_toolchain(self) -> list[Row]:
        """The fastest strategy of each language x toolchain x profile: the seed's "which implementation
        for which compiler" question."""
        best: dict[tuple, Row] = {}
        for r in self.rows:
            if not r.ok or not r.kind.compared:
                continue
            k = (r.cell.language, r.cell.toolchain, r.cell.profile)
            if k not in best or r.cost < best[k].cost:
                best[k] = r
        return sorted(best.values(), key=lambda r: r.cost)


def _row(cell: CellData, suite_metric: str) -> Row:
    runs = cell.measured()
    inner = summarize([r.inner_ns / NS for r in runs if r.inner_ns is not None])
    wall = summarize([r.wall_ns / NS for r in runs])
    cpu = summarize([r.cpu_ns / NS for r in runs])
    # A cell that does not time itself is compared on wall time, and the row says so.
    metric = "inner" if suite_metric == "inner" and inner is not None and inner.n == len(runs) else "wall"
    metric = "cpu" if suite_metric == "cpu" else metric
    rss_runs = runs or cell.runs
    return Row(
        cell=cell,
        metric=metric,
        primary={"inner": inner, "cpu": cpu}.get(metric, wall),
        wall=wall,
        inner=inner,
        user=summarize([r.user_ns / NS for r in runs]),
        system=summarize([r.sys_ns / NS for r in runs]),
        cpu_pct=summarize([100 * (r.user_ns + r.sys_ns) / r.wall_ns for r in runs if r.wall_ns > 0]),
        max_rss_kb=max((r.max_rss_kb for r in rss_runs), default=None),
    )


def _apply_scale(g: Group) -> None:
    """Cells that differ only in scale parameters (passes) share a group; each is compared per unit of
    work (per byte), scaled to the largest amount of work in the group."""
    if not g.scale_params:
        return
    work = {id(r): r.cell.units.get(g.scale_unit, 0) for r in g.rows}
    full = max(work.values(), default=0)
    if not full:
        return
    for r in g.rows:
        if work[id(r)]:
            r.scale = work[id(r)] / full
    biggest = max(g.rows, key=lambda r: work[id(r)])
    g.params = dict(biggest.cell.params)


def analyse(session: SessionData) -> list[Group]:
    """The session's cells in groups (suite x dataset x the parameters that are not scale parameters), each
    row with its statistics and its ratios to the group's fastest, limit, best peer and references."""
    groups = _group(session)
    for g in groups:
        _apply_scale(g)
        _compare_within(g)
        _placements(g)
        _place(g)
        g.rows.sort(key=lambda r: (Status.sort_key(r.cell.status) if not r.ok else -1, r.cost if r.ok else 0, r.cell.label))
    return groups


def _group(session: SessionData) -> list[Group]:
    groups: dict[TableId, Group] = {}
    for cell in session.cells:
        settings = session.settings(cell.suite)
        key = TableId.of(cell.suite, cell.dataset, cell.params, settings.scale_params)
        if key not in groups:
            groups[key] = Group(
                cell.suite,
                cell.title,
                cell.dataset,
                cell.dataset_sha256,
                dict(cell.params),
                cell.metric,
                [],
                settings.baseline_languages,
                settings.same_language_reference,
                settings.scale_params,
                settings.throughput,
                session_level=session_level(session, cell.suite),
            )
        groups[key].rows.append(_row(cell, cell.metric))
    return list(groups.values())


def session_level(session: SessionData, suite: str) -> Level:
    """The session-to-session sd of `suite`'s ratios stored with the session when it ran (none known: 0)."""
    settings = session.settings(suite)
    return Level(settings.session_sd, settings.session_sd_per_round)


def _compare_within(g: Group) -> None:
    """Each ok row's ratios to the group's fastest (with its interval), limit, best peer, same-language
    reference and fewest instructions, its instructions per unit and its rates."""
    fastest, limit, peer = g.fastest, g.limit, g.fastest_peer
    refs = {}
    if g.language_ref:
        refs = {(r.cell.language, r.cell.toolchain, r.cell.profile): r for r in g.rows if r.ok and r.cell.key in g.language_ref["variants"]}
    counted = [r.cell.instructions for r in g.rows if r.cell.instructions and r.kind.compared]
    fewest = min(counted) if counted else None
    by_label = {r.cell.label: r for r in g.rows if r.ok}
    for r in g.rows:
        if not r.ok:
            continue
        if r.kind is Kind.CONTROL and (original := by_label.get(r.cell.label.replace(AA_SUFFIX + "@", "@", 1))) is not None:
            # no session level here: a program against itself moves with itself from one session to the next
            r.vs_original = _paired(r, original, NO_LEVEL)
        if fastest is not None:
            # the fastest against itself, and its A/A twin, are one program: no session level between them
            same = r is fastest or r.kind is Kind.CONTROL
            r.vs_fastest = _paired(r, fastest, NO_LEVEL if same else g.session_level)
        r.vs_limit = r.cost / limit.cost if limit is not None else None
        r.vs_peer = r.cost / peer.cost if peer is not None else None
        if (ref := refs.get((r.cell.language, r.cell.toolchain, r.cell.profile))) is not None:
            r.vs_language_ref = r.cost / ref.cost
        if fewest and r.cell.instructions:
            r.instructions_ratio = r.cell.instructions / fewest
        _per_unit(r, g.work_unit)
        if r.primary is not None and r.primary.median > 0:
            r.rates = {unit: n / r.primary.median for unit, n in r.cell.units.items()}


def _placements(g: Group) -> None:
    """Each ok row's spread over its code layouts, its runs taken relative to the other ok rows of the table in
    the same round (placement.placement)."""
    ok = [r for r in g.rows if r.ok]
    by_round = {id(r): r.cost_by_round() for r in ok}
    for r in ok:
        if not r.cell.layout_names:
            continue
        others: dict[int, list[float]] = {}
        for other in ok:
            if other is not r:
                for rnd, cost in by_round[id(other)].items():
                    others.setdefault(rnd, []).append(cost)
        r.placement = placement(by_round[id(r)], r.layout_by_round(), list(r.cell.layout_names), others)


def interval(r: Row) -> tuple[float, float]:
    """A row's 95% interval of its ratio to the fastest; without one (fewer than two rounds paired with the
    fastest) it could be anywhere, (0, inf), so it ties with every cell rather than claim a place."""
    v = r.vs_fastest
    if v is None or v.low is None or v.high is None:
        return 0.0, math.inf
    return v.low, v.high


def _place(g: Group) -> None:
    """Each ranked row's Place from the overlaps of the ranked rows' intervals (the other rows get none).
    The intervals are each cell's paired ratio to the fastest, so two of them overlapping is a fair stand-in
    for "cannot be told apart" between those two cells, and the rule needs no test between every pair."""
    ranked = g.ranked
    bounds = [interval(r) for r in ranked]
    for r, (low, high) in zip(ranked, bounds, strict=True):
        below = sum(1 for _, other_high in bounds if other_high < low)
        above = sum(1 for other_low, _ in bounds if other_low > high)
        r.place = Place(1 + below, len(ranked) - above)


def _per_unit(r: Row, unit: str) -> None:
    """The exact counts of a row per unit of the work of the run they counted."""
    work = r.cell.units.get(unit)
    if r.cell.instructions and work:
        r.instructions_per_unit = r.cell.instructions / work
    if r.cell.estimated_cycles and work:
        r.cycles_per_unit = r.cell.estimated_cycles / work


def params_text(params: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items()) or "-"


def answer_text(value: object) -> str:
    """A cell's answer whole: only the wide view shows it (the compact one has no answer column), and a dict
    answer cut after 24 characters hid the very key that differed. A digest of the output (stdout suites) is
    shortened: its first characters tell two apart as well as all 64."""
    if value is None:
        return "-"
    if isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value):
        return f"sha256 {value[:10]}…"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else json.dumps(value)


@dataclass
class GridTable:
    """One table of a manifest's grid: rows are one parameter's values, columns are named cells, each entry
    that cell's primary median in the group of that row; plus the ratio of two columns per row."""

    title: str
    suite: str
    dataset: str
    split_value: object
    row_param: str
    columns: list[str]
    rows: list[tuple[object, list[Row | None], Ratio | None]]  # (row value, a Row per column, ratio)
    ratio_label: str = ""


def grids(session: SessionData, groups: list[Group] | None = None) -> list[GridTable]:
    """The manifests' grids (e.g. capnp's configurations x implementations, per case), from the analysed
    groups: entries are the very rows (and medians) of the per-group tables."""
    groups = groups if groups is not None else analyse(session)
    out: list[GridTable] = []
    for suite in dict.fromkeys(g.suite for g in groups):
        order = session.settings(suite).param_order
        for spec in session.settings(suite).grids:
            mine = [g for g in groups if g.suite == suite and spec["split"] in g.params and spec["rows"] in g.params]
            for dataset in dict.fromkeys(g.dataset for g in mine):
                in_dataset = [g for g in mine if g.dataset == dataset]
                splits = _ordered({g.params[spec["split"]] for g in in_dataset}, order.get(spec["split"]))
                for split in splits:
                    table = GridTable(
                        f"{spec['title']} · {suite} · {dataset} · {spec['split']}={split}",
                        suite,
                        dataset,
                        split,
                        spec["rows"],
                        list(spec["columns"]),
                        [],
                        " / ".join(variant_key_of(c) for c in spec["ratio"]) if spec["ratio"] else "",
                    )
                    by_row = {g.params[spec["rows"]]: g for g in in_dataset if g.params[spec["split"]] == split}
                    for value in _ordered(set(by_row), order.get(spec["rows"])):
                        g = by_row[value]
                        cells = {r.cell.label.split("[")[0]: r for r in g.rows if r.ok}
                        entries = [cells.get(c) for c in spec["columns"]]
                        ratio = None
                        if spec["ratio"]:
                            num, den = cells.get(spec["ratio"][0]), cells.get(spec["ratio"][1])
                            if num is not None and den is not None:
                                ratio = _paired(num, den, g.session_level)
                        table.rows.append((value, entries, ratio))
                    if table.rows:
                        out.append(table)
    return out


def _ordered(values: set, manifest_order: list | None) -> list:
    """Values in the manifest's order (the seed's), unknown ones after, sorted."""
    known = [v for v in (manifest_order or []) if v in values]
    return known + sorted((v for v in values if v not in known), key=str)


@dataclass
class SeedTableRow:
    test: str  # language/variant
    row: Row | None  # None: the cell was not run (or not in this toolchain/profile)
    vs_baseline: Ratio | None  # our time over the baseline test's, with its 95% interval
    seed_seconds: float | None  # the seed's own figure
    seed_vs_baseline: float | None


@dataclass
class SeedTableData:
    """One of a manifest's seed tables for one group (dataset x parameters) and one toolchain x profile."""

    title: str
    suite: str
    dataset: str
    setup: str  # "gdc release" (+ the group's parameters)
    baseline: str
    source: str
    rows: list[SeedTableRow]


def seed_tables(session: SessionData, groups: list[Group] | None = None) -> list[SeedTableData]:
    """The manifests' seed tables (dcat's tests in its order; Cerealed's designs), from the analysed groups: one per group and
    toolchain x profile that measured at least two of the tests."""
    groups = groups if groups is not None else analyse(session)
    out: list[SeedTableData] = []
    for g in groups:
        for spec in session.settings(g.suite).seed_tables:
            mine = [r for r in g.rows if r.cell.key in spec["rows"]]
            for toolchain, profile in dict.fromkeys((r.cell.toolchain, r.cell.profile) for r in mine):
                source = spec.get("seed_figures_source", "")
                figures = (spec.get("seed_figures_by_toolchain") or {}).get(toolchain)
                if figures:
                    source += f" ({toolchain}'s)"
                else:
                    figures = spec.get("seed_figures") or {}
                seed_base = figures.get(spec["baseline"])
                by_key = {r.cell.key: r for r in mine if (r.cell.toolchain, r.cell.profile) == (toolchain, profile)}
                if sum(r.ok for r in by_key.values()) < 2:  # e.g. a toolchain not installed: every cell skipped
                    continue
                base = by_key.get(spec["baseline"])
                rows = []
                for key in spec["rows"]:
                    r = by_key.get(key)
                    ratio = None
                    if r is not None and r.ok and base is not None and base.ok:
                        ratio = _paired(r, base, g.session_level if r is not base else NO_LEVEL)
                    seconds = figures.get(key)
                    rows.append(SeedTableRow(key, r, ratio, seconds, seconds / seed_base if seconds is not None and seed_base else None))
                setup = f"{toolchain} {profile}" + (f" · {params_text(g.params)}" if g.params else "")
                out.append(
                    SeedTableData(
                        f"{spec['title']} · {g.suite} · {g.dataset} · {setup}", g.suite, g.dataset, setup, spec["baseline"], source, rows
                    )
                )
    return out


@dataclass
class ThenNowRow:
    label: str  # the seed's own name of the row
    cell: str  # language/variant@toolchain:profile, or "" where nothing runs it here
    row: Row | None  # this session's cell (None: not run here, or not in this session)
    baseline: str  # the row (label) the ratios divide by
    now: Ratio | None  # this session's cost over its baseline row's, round by round, with its 95% interval
    then_seconds: float | None  # the seed's published figure
    then: float | None  # the seed's figure over its baseline row's
    why: str  # why there is no time now: the manifest's reason, or the cell's status and its first line
    note: str = ""  # how the cell departs from the seed's program (the manifest's), or that it is as written
    instructions_per_unit: float | None = None  # this cell's instructions per unit of work (--instructions)
    unit: str = ""  # that unit (bytes, lines)
    original: float | None = None  # the seed's own program's instructions per unit, counted here or as published (the manifest's)
    original_source: str = ""  # where that count comes from
    folded_below: float | None = None  # the seed's threshold for `folded` (None: FOLDED_BELOW; 0: none can be)

    @property
    def as_written(self) -> bool:
        """The cell is the seed's program as written (the manifest's note says so), not an honest departure."""
        return self.note.startswith(AS_WRITTEN)

    @property
    def counted(self) -> float | None:
        """Instructions per unit that judge `folded`: this cell's, counted in the session (--instructions); else,
        for a cell that is the seed's program as written, that program's own count (the manifest's, checked
        within a few percent of the cell's when the row was added), so a seed table without --instructions still
        shows the folded rows as folded."""
        if self.instructions_per_unit is not None:
            return self.instructions_per_unit
        return self.original if self.as_written else None

    @property
    def folded(self) -> bool:
        """The compiler folded the loop: under folded_below (FOLDED_BELOW) instructions per unit, it no longer does
        the work."""
        below = FOLDED_BELOW if self.folded_below is None else self.folded_below
        return self.counted is not None and self.counted < below


# Fewer instructions per unit of work (a byte, a line) than this and the loop cannot have touched each unit:
# the compiler folded it (g++ turns the seed's mmap count loop into end - begin: ~0.01 a byte).
FOLDED_BELOW = 0.5
AS_WRITTEN = "the seed's program as written"  # how a seed row's note starts when its cell is the seed's program


@dataclass
class ThenNowTable:
    """One seed's published table beside this session's cells (`iorace seeds`): per seed row, ours and
    the seed's, each as a ratio to the same baseline row (machines differ; ratios travel)."""

    seed: str
    title: str
    suite: str
    dataset: str
    metric: str
    figures: str  # what the seed's figures are
    rows: list[ThenNowRow]
    left_out: int = 0  # seed rows without a cell in this session (not an `iorace seeds` session)

    @property
    def shared_baseline(self) -> str | None:
        """The one baseline every row divides by, or None when rows name their own."""
        found = {r.baseline for r in self.rows}
        return found.pop() if len(found) == 1 else None


def _ratio_of(r: Row | None, base: Row | None, level: Level) -> Ratio | None:
    """r / base paired by round, when both were timed."""
    if r is None or not r.ok or base is None or not base.ok:
        return None
    return _paired(r, base, level)


def _paired(r: Row, base: Row, level: Level) -> Ratio | None:
    """r / base paired by round, its interval over the pairs of code layouts the two ran (stats.layout_clusters)."""
    return paired_ratio(r.cost_by_round(), base.cost_by_round(), level, layout_clusters(r.layout_by_round(), base.layout_by_round()))


def then_and_now(session: SessionData, groups: list[Group] | None = None) -> list[ThenNowTable]:
    """Each seed of the session's suites (their [seed] blocks) beside this session, one table per dataset
    the session ran that seed's cells on; a seed none of whose rows has a cell in the session is left out."""
    groups = groups if groups is not None else analyse(session)
    out: list[ThenNowTable] = []
    for suite in dict.fromkeys(c.suite for c in session.cells):
        spec = session.settings(suite).seed
        if not spec:
            continue
        rows_of = [r for g in groups if g.suite == suite for r in g.rows]
        for dataset in dict.fromkeys(r.cell.dataset for r in rows_of):
            here = [r for r in rows_of if r.cell.dataset == dataset]
            found = {seed_row["label"]: _seed_cell(seed_row, here) for seed_row in spec["rows"]}
            if not any(found.values()):
                continue
            figures = {s["label"]: s.get("seconds") for s in spec["rows"]}
            # `iorace seeds` ran the seed whole: every row shows, with why where it has no time. Another
            # session (`run readbytes --size seed`) shows the rows it has cells for, and how many it left out.
            whole = spec["name"] in (session.options.get("seeds") or [])
            shown = spec["rows"] if whole else [s for s in spec["rows"] if found[s["label"]] is not None]
            rows = []
            for s in shown:
                r, base_label = found[s["label"]], s.get("baseline") or spec["baseline"]
                base = found.get(base_label)
                now = _ratio_of(r, base, session_level(session, suite) if r is not base else NO_LEVEL)
                then, then_base = figures.get(s["label"]), figures.get(base_label)
                if s.get("why"):
                    why = s["why"]
                elif r is None:
                    why = "not in this session"
                elif r.cell.status == Status.OK and r.primary is None:
                    why = "answered right; not timed"
                elif not r.ok:
                    why = f"{r.cell.status}: {r.cell.detail.strip().splitlines()[0]}" if r.cell.detail.strip() else str(r.cell.status)
                else:
                    why = ""
                then_ratio = then / then_base if then and then_base else None
                unit, per_unit = _instructions_per_unit(r)
                rows.append(
                    ThenNowRow(
                        s["label"],
                        s.get("cell", ""),
                        r,
                        base_label,
                        now,
                        then,
                        then_ratio,
                        why,
                        s.get("note") or "",
                        per_unit,
                        unit,
                        s.get("original"),
                        s.get("original_source") or "",
                        spec.get("folded_below"),
                    )
                )
            metric = here[0].cell.metric if here else ""  # the suite's (a row without runs says wall)
            title = f"{spec['name']}: then and now · {suite} · {dataset}"
            left_out = len(spec["rows"]) - len(shown)
            out.append(ThenNowTable(spec["name"], title, suite, dataset, metric, spec.get("figures", ""), rows, left_out))
    return out


def _instructions_per_unit(r: Row | None) -> tuple[str, float | None]:
    """A seed row's cell's unit of work (its first) and instructions per unit, timed or not (None: not counted)."""
    if r is None or not r.cell.units:
        return "", None
    unit, work = next(iter(r.cell.units.items()))
    return unit, (r.cell.instructions / work if work and r.cell.instructions else None)


def _seed_cell(seed_row: dict, rows: list[Row]) -> Row | None:
    """The session's row of the cell a seed row names (its variant, toolchain, profile and parameters)."""
    if not seed_row.get("cell"):
        return None
    key, rest = seed_row["cell"].split("@", 1)
    toolchain, profile = rest.split(":", 1)
    params = seed_row.get("params") or {}
    for r in rows:
        c = r.cell
        if (c.key, c.toolchain, c.profile) == (key, toolchain, profile) and all(c.params.get(k) == v for k, v in params.items()):
            return r
    return None
