"""A stored session analysed once into a format-neutral report document: what every output draws.

The terminal (iorace.report.terminal), Markdown, HTML and JSON exports each only draw this document, as hyperfine's
Markdown, AsciiDoc and Org exports share one renderer (`src/export/markup.rs`): the analysis (statistics,
bootstrap intervals, groups, grids, seed tables) runs once per session whatever is printed or exported,
and the formats cannot disagree about a number or the order of the report's parts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from iorace.analyse import fmt
from iorace.analyse.analysis import GridTable, Group, SeedTableData, ThenNowTable, analyse, grids, seed_tables, then_and_now
from iorace.analyse.contention import Contention, contention
from iorace.analyse.leaders import LeaderTable, leaders
from iorace.analyse.session_spread import describe as describe_spread
from iorace.analyse.stats import Z95
from iorace.core.status import Status
from iorace.report import tables
from iorace.store.db import SessionData

SectionKind = Literal["overview", "leaders", "group", "grid", "seed", "counters", "honesty"]
OVERVIEW = ("overview", "leaders")  # the kinds every format shows before the detail (the terminal: after it)


@dataclass
class Section:
    """One part of the report, in the order every format draws them: the overview (each seed's published
    table beside today's, `iorace seeds`; each suite's best cell per language and toolchain), a group's
    table (and its best strategy per toolchain), a manifest grid, a seed table, the counters table, the A/A
    check."""

    kind: SectionKind
    table: tables.Table
    best: tables.Table | None = None  # groups only
    source: Group | GridTable | SeedTableData | ThenNowTable | LeaderTable | None = None  # what a format's charts are drawn from


@dataclass(frozen=True)
class HistoryChart:
    """One table's cells across sessions: a point per cell and session, its median primary metric, and where a
    change point's new level starts, its direction."""

    title: str  # suite · dataset · parameters
    points: list[dict]  # session (its label), cell, language, median, change ('-', or the change point's direction)


@dataclass(frozen=True)
class History:
    """A report's history across several sessions (oldest first, the report's among them): computed before any
    format draws the report (compare.history.history_section, which `iorace report` calls), so that every
    exporter takes the one report document. The HTML export draws it."""

    charts: list[HistoryChart]  # the tables measured in more than one of the sessions
    languages: list[str]  # of every session's cells: the report's charts colour these languages alike


@dataclass
class Report:
    session: SessionData
    groups: list[Group]
    sections: list[Section]
    problems: list[str]  # one line per failed, wrong or timed-out cell (folded when alike)
    counter_notes: list[str]  # one line per reason some counter has no value
    status_counts: dict[str, int] = field(default_factory=dict)
    contention: Contention = field(default_factory=lambda: Contention(0, 0, None, None, None))  # was the machine quiet?
    history: History | None = None  # across several sessions (`iorace report`); None: the session alone

    @property
    def spread_line(self) -> str:
        """What the intervals hold besides the rounds: each suite's session level here ('' when none is known;
        a pooled session measures its own)."""
        if self.session.options.get("pooled"):
            return ""
        return describe_spread({g.suite: g.session_level for g in self.groups if g.session_level})

    @property
    def summary(self) -> str:
        """'12 ok, 1 wrong' (most frequent first), or 'no cells'."""
        return ", ".join(f"{n} {s}" for s, n in sorted(self.status_counts.items(), key=lambda kv: -kv[1])) or "no cells"

    def of_kind(self, kind: SectionKind) -> list[Section]:
        return [s for s in self.sections if s.kind == kind]

    @property
    def problem_lines(self) -> list[str]:
        """What every format lists as the problems: the cells' and the counters' lines."""
        return self.problems + self.counter_notes

    @property
    def overview(self) -> list[Section]:
        """The answer first: each seed's then-and-now table, each suite's best cell per language and toolchain."""
        return [s for s in self.sections if s.kind in OVERVIEW]

    @property
    def detail(self) -> list[Section]:
        """Everything the overview summarises: the per-table sections, grids, seed tables, counters, A/A."""
        return [s for s in self.sections if s.kind not in OVERVIEW]


def build(session: SessionData) -> Report:
    """Analyse `session` once and lay out every part of its report."""
    groups = analyse(session)
    # the overview first: each seed's then-and-now table and each suite's leaders, before the per-table detail
    sections = [Section("overview", tables.then_now_table(t), source=t) for t in then_and_now(session, groups)]
    # a suite of one table with one language x toolchain: its own table says it all
    sections += [Section("leaders", tables.leaders_table(t), source=t) for t in leaders(groups) if len(t.rows) > 1]
    sections += [Section("group", tables.group_table(g), tables.best_table(g), g) for g in groups]
    sections += [Section("grid", tables.grid_table(grid), source=grid) for grid in grids(session, groups)]
    sections += [Section("seed", tables.seed_table(seed), source=seed) for seed in seed_tables(session, groups)]
    if (counters := tables.counters_table(session)) is not None:
        sections.append(Section("counters", counters))
    if (aa := tables.aa_table(groups)) is not None:
        sections.append(Section("honesty", aa))
    counts: dict[str, int] = {}
    for c in session.cells:
        counts[c.status] = counts.get(c.status, 0) + 1
    return Report(
        session,
        groups,
        sections,
        host_notes(session) + problems(session) + honesty_problems(groups) + precision_floors(groups, session.options.get("precision")),
        counter_notes(session),
        counts,
        contention(session),
    )


def host_notes(session: SessionData) -> list[str]:
    """A pooled session's line naming the sessions of other hosts it left out (analyse/pool.py), if any."""
    note = session.options.get("host_note")
    return [note] if note else []


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


def honesty_problems(groups: list[Group]) -> list[str]:
    """An A/A pair whose interval excludes 1.00, and the cells that did not reach the precision asked."""
    out = []
    for g in groups:
        for r in g.rows:
            v = r.vs_original
            if v is not None and v.low is not None and not v.overlaps_one():
                out.append(
                    f"{g.suite} {g.dataset} {r.cell.label}: A/A ratio {fmt.ratio(v)} excludes 1.00: "
                    "this session's intervals are narrower than its noise"
                )
    notes = [r for g in groups for r in g.rows if r.cell.timing_note.startswith("precision")]
    if notes:
        shown = ", ".join(f"{r.cell.key} {r.cell.toolchain} {r.cell.profile}" for r in notes[:4])
        out.append(
            f"{len(notes)} cells did not reach the precision asked ({shown}{' and more' if len(notes) > 4 else ''}): "
            f"{notes[0].cell.timing_note}"
        )
    return out


def precision_floors(groups: list[Group], precision: float | None) -> list[str]:
    """A suite whose session level alone makes a top ratio's interval wider than the --precision asked: one
    line each. The race times such a ratio's rounds to the precision on their own share; the level (how far a
    ratio moves between sessions here) is added in every interval and no number of rounds of one session
    narrows it, so without this line a `--precision 2` session of readbytes showed +-7.3% and said nothing.
    Judged, as the race judges it (run/race.Race.precision_ratios), on each of a table's runners-up's own
    Ratio.between: a suite with a level relative to each pair's noise (readexact, spin) has no one floor."""
    if not precision:
        return []
    floors: dict[str, float] = {}
    for g in groups:
        if (fastest := g.fastest) is None:
            continue
        for r in g.runners_up(fastest):
            floor = Z95 * r.vs_fastest.between if r.vs_fastest is not None else 0.0
            if floor > precision:
                floors[g.suite] = max(floors.get(g.suite, 0.0), floor)
    return [
        f"{suite}: a top ratio here moves up to {floor / Z95:.1%} between sessions, so one session's intervals are "
        f"+-{floor:.1%} at best, wider than the +-{precision:.1%} asked (the rounds were timed to it on their own share); "
        "sessions pooled narrow it (`iorace dimension` says how many)"
        for suite, floor in floors.items()
    ]


def counter_notes(session: SessionData) -> list[str]:
    """One line per reason some counter has no value (no PMU on this VM, perf not installed, ...)."""
    reasons: dict[str, set[str]] = {}
    for c in session.cells:
        for key, why in c.counter_notes.items():
            reasons.setdefault(why, set()).add(key)
    return [f"counters not recorded: {', '.join(sorted(keys))}: {why}" for why, keys in reasons.items()]
