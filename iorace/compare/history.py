"""`iorace history SUITE`: each cell's primary metric across the stored sessions, by date and git revision, and
the change points of each cell's series.

A cell's series is, per session, the geometric mean of its cost over the session's rounds (the log of it is
what is tested, each session weighted by its rounds); its change points are found over the whole series by
iorace.analyse.changepoints (PELT, each split checked by a t-test across it, a persistence of `min_size`
sessions a side), not session by session: a pairwise test of each session against the one before raises a
false alarm every few sessions on a noisy machine. Each change point names the sessions, dates and git
revisions on either side of it (the commits that brought it are in that range), its size with a 95% interval,
and how far it reaches: a change that every cell of its table shows at the same session is one change of the
table ("every cell moved +x%": a shared library, a compiler, the machine), and a change that every machine
with the cell shows in the same span of time is one change of the code, not of a machine. The cell's absolute
cost is tested, not its ratio to another cell, so a change of any cell (and of the whole table) is seen, none
divided away. Exact counts (instructions, estimated cycles) change or not: each change beyond the threshold is
listed.

A point is compared only with points of the same machine (its name) measured in the same context: the same
machine fingerprint, the same context fingerprint (kernel, mitigations, data filesystem:
machine.context_fingerprint) and the same version of the cell's own toolchain. A changed fingerprint under one
machine name starts a new history, and `history` says so in one line (breaks()). A session marked contended
(iorace.analyse.contention: its runs waited for the CPU, or other processes used it meanwhile) is shown,
marked, and left out of the series.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from fnmatch import fnmatch

import numpy as np

from iorace.analyse.changepoints import DEFAULT, Detector, change_points, exact_changes
from iorace.analyse.contention import contention
from iorace.analyse.fmt import seconds
from iorace.analyse.stats import Ratio
from iorace.compare.judge import change_text
from iorace.compare.sides import CellSample, side_from_session
from iorace.core import machine
from iorace.core.errors import UsageError
from iorace.core.ids import CellId
from iorace.core.status import Status
from iorace.report.document import History, HistoryChart
from iorace.report.tables import Column, Table
from iorace.store.db import SessionData, Store


@dataclass
class Point:
    session_id: int
    started: str
    git_revision: str
    cell: CellSample
    change: CellChange | None = None  # the change point whose new level starts here
    machine_name: str = ""
    fingerprints: tuple[str, str] = ("", "")  # the session's machine and context fingerprints
    contended: bool = False  # the session shared the machine (analyse.contention): not in the series

    @property
    def history_key(self) -> tuple:
        """What must be equal for this point to be in one series with the previous one of its machine."""
        return (self.fingerprints, self.cell.toolchain_version)

    @property
    def median(self) -> float | None:
        return float(np.median(self.cell.values)) if self.cell.values else None

    @property
    def level(self) -> float | None:
        """The log of the geometric mean of its cost over the rounds: what its series is made of."""
        costs = self._costs
        return float(np.mean(np.log(costs))) if costs else None

    @property
    def weight(self) -> int:
        """The rounds behind its level: a session of 15 rounds knows its level better than one of 5 (the
        variance of a mean of n rounds is sigma^2 / n), and the change points weigh it so."""
        return len(self._costs)

    @property
    def _costs(self) -> list[float]:
        return [v for v in (self.cell.rounds.values() if self.cell.rounds else self.cell.values) if v > 0]

    @property
    def measured(self) -> bool:
        return self.cell.status == Status.OK and self.level is not None and not self.contended

    @property
    def flag(self) -> str:
        """ "slower", "faster" or "": whether a change point's new level starts here."""
        if self.change is None:
            return ""
        return "slower" if self.change.ratio.value > 1 else "faster"


@dataclass
class CellChange:
    """A change point of one cell's series on one machine."""

    series: Series
    before: Point  # the last point of the old level
    after: Point  # the first point of the new level
    ratio: Ratio  # the new level over the old, with its 95% interval
    p_value: float
    sessions: tuple[int, int]  # points of the old level and of the new one it was tested with
    table_wide: bool = False  # every cell of its table changed here alike
    machines: tuple[int, int] = (1, 1)  # the machines that show it, of those whose series span it

    @property
    def machine(self) -> str:
        return self.after.machine_name


@dataclass
class ExactChange:
    """A change of an exact count (instructions, estimated cycles) between two points of one machine."""

    series: Series
    what: str
    before: Point
    after: Point
    change: float


@dataclass
class Series:
    name: str  # dataset + cell label
    ident: CellId
    points: list[Point] = field(default_factory=list)
    changes: list[CellChange] = field(default_factory=list)
    exact: list[ExactChange] = field(default_factory=list)


def matches(c: CellSample, variants: list[str]) -> bool:
    """--variant GLOB as `iorace run` reads it: the variant's name or language/name."""
    name = c.key.split("/", 1)[1]
    return not variants or any(fnmatch(c.key, g) or fnmatch(name, g) for g in variants)


def history(
    store: Store,
    suite: str,
    variants: list[str] | None = None,
    datasets: list[str] | None = None,
    threshold: float = 0.05,
    last: int | None = None,
    detector: Detector = DEFAULT,
) -> tuple[list[tuple[int, str, str]], list[Series], list[str]]:
    """(sessions as (id, started, git revision), one series per cell with its change points, the lines of
    breaks()), oldest session first. last: only the last N sessions of the suite, and for each machine among
    them its session before them: a store of a whole fleet is not read whole."""
    ids = store.sessions_with_suite(suite)
    if not ids:
        known = store.suites()
        raise UsageError(f"{suite}: no stored session has this suite (stored: {', '.join(known) or 'none'})")
    if last is not None and len(ids) > last:
        names = store.machine_names()
        shown = ids[-last:]
        before = {}
        for sid in ids[: len(ids) - last]:  # the latest earlier session of each machine
            before[names.get(sid, "")] = sid
        ids = sorted({*shown, *(before[n] for n in {names.get(sid, "") for sid in shown} if n in before)})
    variants, datasets = variants or [], datasets or []
    loaded = [store.load(sid) for sid in ids]
    series = [
        ser
        for ser in cell_series(loaded, threshold, detector)
        if ser.ident.suite == suite and matches(ser.points[0].cell, variants) and (not datasets or ser.ident.dataset in datasets)
    ]
    if not series:
        raise UsageError(
            f"{suite}: no stored cell matches --variant {' '.join(variants)}{' --dataset ' + ' '.join(datasets) if datasets else ''}"
        )
    return [(s.id, s.started, s.git_revision) for s in loaded], series, breaks(loaded)


def history_table(suite: str, sessions: list[tuple[int, str, str]], series: list[Series]) -> Table:
    """Each cell's median per session (the given ones, as (id, started, git revision)), in the report's
    table model; where a change point's new level starts, its size (▲ slower, ▼ faster)."""
    columns = [Column("cell", "left", wrap=True)]
    columns += [Column(f"#{sid}\n{started[:16].replace('T', ' ')}\n{git[:9]}") for sid, started, git in sessions]
    rows = []
    for ser in series:
        at = {p.session_id: p for p in ser.points}
        rows.append([ser.name, *(_point_text(at.get(sid)) for sid, _, _ in sessions)])
    return Table(f"{suite}: median of the primary metric per session", "", columns, rows)


def _point_text(p: Point | None) -> str:
    if p is None:
        return ""
    if p.median is None:
        return p.cell.status
    text = seconds(p.median)
    if p.contended:
        text += " (contended)"
    if p.change is not None:
        text += f" {'▲' if p.change.ratio.value > 1 else '▼'}{p.change.ratio.value - 1:+.0%}"
    return text


def cell_series(sessions: list[SessionData], threshold: float = 0.05, detector: Detector = DEFAULT) -> list[Series]:
    """One series per cell across `sessions` (oldest first), with its change points beyond `threshold` on
    each machine and context, and its exact counts' changes."""
    series: dict[CellId, Series] = {}
    for s in sessions:
        busy = contention(s).contended
        for c in side_from_session(s).cells:
            ser = series.setdefault(c.ident, Series(f"{c.dataset} {c.label}", c.ident))
            fingerprints = (s.machine_fingerprint, s.context_fingerprint)
            ser.points.append(Point(s.id, s.started, s.git_revision, c, None, s.machine_name, fingerprints, busy))
    rule = replace(detector, threshold=threshold)
    for ser in series.values():
        for run in runs_of(ser):
            _find_changes(ser, run, rule, threshold)
    _mark_table_wide(list(series.values()))
    _mark_machines(list(series.values()))
    return list(series.values())


def history_section(sessions: list[SessionData]) -> History | None:
    """The report's history across `sessions` (oldest first; None for fewer than two): each cell's median in
    each session, one chart per suite x dataset x parameters measured in more than one of them, a point where a
    change point's new level starts (as `iorace history` finds it) flagged."""
    if len(sessions) < 2:
        return None
    labels = {s.id: f"#{s.id} {s.started[:10]} {s.git_revision[:7]}" for s in sessions}
    charts_data: dict[tuple, list[dict]] = {}
    for ser in cell_series(sessions):
        suite, dataset, params = ser.ident.suite, ser.ident.dataset, ser.ident.params
        for p in ser.points:
            if p.median is not None:
                charts_data.setdefault((suite, dataset, params), []).append(
                    {
                        "session": labels[p.session_id],
                        "cell": f"{p.cell.key} {p.cell.toolchain} {p.cell.profile}",
                        "language": p.cell.key.split("/")[0],
                        "median": p.median,
                        "change": p.flag or "-",
                    }
                )
    charts = [
        HistoryChart(f"{suite} · {dataset} · {' '.join(f'{k}={v}' for k, v in json.loads(params).items())}", points)
        for (suite, dataset, params), points in charts_data.items()
        if len({p["session"] for p in points}) > 1
    ]
    return History(charts, sorted({c.language for s in sessions for c in s.cells}))


def runs_of(ser: Series) -> list[list[Point]]:
    """The cell's points in series that may be compared: per machine name, split where its machine, context
    or toolchain changed (breaks()), each series oldest first."""
    out: list[list[Point]] = []
    current: dict[str, list[Point]] = {}
    for p in ser.points:
        run = current.get(p.machine_name)
        if run is None or run[-1].history_key != p.history_key:
            run = current[p.machine_name] = []
            out.append(run)
        run.append(p)
    return out


def _find_changes(ser: Series, run: list[Point], rule: Detector, threshold: float) -> None:
    measured = [p for p in run if p.measured]
    levels = [p.level for p in measured]
    for cp in change_points([v for v in levels if v is not None], rule, [p.weight for p in measured]):
        change = CellChange(ser, measured[cp.index - 1], measured[cp.index], cp.ratio, cp.p_value, (cp.index - cp.start, cp.end - cp.index))
        measured[cp.index].change = change
        ser.changes.append(change)
    ok = [p for p in run if p.cell.status == Status.OK and not p.contended]
    for what, values in (
        ("instructions", [p.cell.instructions for p in ok]),
        ("estimated cycles", [p.cell.estimated_cycles for p in ok]),
    ):
        for i, j, moved in exact_changes([float(v) if v else None for v in values], threshold):
            ser.exact.append(ExactChange(ser, what, ok[i], ok[j], moved))


def _mark_table_wide(series: list[Series]) -> None:
    """A change at the same session (within one) in the same direction in every cell of a table on one
    machine, two cells at least, is the table's."""
    by_table: dict[tuple, list[Series]] = {}
    for ser in series:
        if ser.points:
            by_table.setdefault((ser.points[0].cell.table,), []).append(ser)
    for cells in by_table.values():
        if len(cells) < 2:
            continue
        for ch in (c for ser in cells for c in ser.changes):
            up = ch.ratio.value > 1
            same = [
                any(
                    o.machine == ch.machine and (o.ratio.value > 1) == up and abs(o.after.session_id - ch.after.session_id) <= 1
                    for o in other.changes
                )
                or not _spans(other, ch)
                for other in cells
            ]
            if all(same) and sum(_spans(other, ch) for other in cells) >= 2:
                ch.table_wide = True


def _spans(ser: Series, ch: CellChange) -> bool:
    """Whether the cell's series on the change's machine has measured points on both sides of it."""
    mine = [p for p in ser.points if p.machine_name == ch.machine and p.measured]
    return any(p.started <= ch.before.started for p in mine) and any(p.started >= ch.after.started for p in mine)


def _mark_machines(series: list[Series]) -> None:
    """How many machines show each change point, of those whose series of the cell span its time: one whose
    span of time (the old level's last session to the new level's first) overlaps it, the same way."""
    for ser in series:
        machines = {p.machine_name for p in ser.points}
        for ch in ser.changes:
            spanning = [m for m in machines if _spans_time(ser, m, ch)]
            showing = {
                o.machine
                for o in ser.changes
                if (o.ratio.value > 1) == (ch.ratio.value > 1)
                and o.before.started <= ch.after.started
                and ch.before.started <= o.after.started
            }
            ch.machines = (len(showing & set(spanning)) or 1, max(len(spanning), 1))


def _spans_time(ser: Series, name: str, ch: CellChange) -> bool:
    mine = [p for p in ser.points if p.machine_name == name and p.measured]
    return any(p.started <= ch.after.started for p in mine) and any(p.started >= ch.before.started for p in mine) and len(mine) > 1


def _session(p: Point) -> str:
    return f"session {p.session_id} ({p.started[:16].replace('T', ' ')}, git {p.git_revision[:9] or '?'})"


def change_lines(series: list[Series]) -> list[str]:
    """One line per change point (a table's shared change once, for its table), then per exact count's change:
    what changed, between which sessions and commits, on how many machines."""
    out = []
    told: set[tuple] = set()
    for ser in series:
        for ch in ser.changes:
            where = f"on {ch.machine or '?'}" + (
                f" and every other machine with this cell ({ch.machines[1]})"
                if ch.machines[0] == ch.machines[1] > 1
                else f" only ({ch.machines[0]} of {ch.machines[1]} machines)"
                if ch.machines[1] > 1
                else ""
            )
            span = (
                f"between {_session(ch.before)} and {_session(ch.after)}: commits {ch.before.git_revision[:9]}..{ch.after.git_revision[:9]}"
            )
            tested = f"p {ch.p_value:.1g}, {ch.sessions[0]} sessions before, {ch.sessions[1]} after"
            if ch.table_wide:
                key = (ser.points[0].cell.table, ch.machine, ch.after.session_id)
                if key in told:
                    continue
                told.add(key)
                t = ser.points[0].cell.table
                out.append(f"every cell of {t.suite} {t.dataset} moved ({_table_sizes(series, ch)}) {span}, {where}")
            else:
                out.append(f"{ser.name}: {change_text(ch.ratio)} ({tested}) {span}, {where}")
    for ser in series:
        for ex in ser.exact:
            out.append(
                f"{ser.name}: {ex.what} {ex.change:+.2%} (exact) between {_session(ex.before)} and {_session(ex.after)}:"
                f" commits {ex.before.git_revision[:9]}..{ex.after.git_revision[:9]}, on {ex.after.machine_name or '?'}"
            )
    return out


def _table_sizes(series: list[Series], ch: CellChange) -> str:
    """The geometric mean of the table's cells' changes at this session, and their range."""
    table = ch.series.points[0].cell.table
    sizes = [
        o.ratio.value
        for ser in series
        if ser.points[0].cell.table == table
        for o in ser.changes
        if o.table_wide and o.machine == ch.machine and abs(o.after.session_id - ch.after.session_id) <= 1
    ]
    mean = math.exp(float(np.mean(np.log(sizes))))
    return f"{mean - 1:+.1%}, from {min(sizes) - 1:+.1%} to {max(sizes) - 1:+.1%} over {len(sizes)} cells"


def breaks(sessions: list[SessionData]) -> list[str]:
    """One line per session (oldest first) whose machine or context changed under its machine's name since
    that machine's previous session: its history starts again there, and what changed."""
    out = []
    last: dict[str, SessionData] = {}
    for s in sessions:
        before = last.get(s.machine_name)
        last[s.machine_name] = s
        if before is None:
            continue
        what = []
        if before.machine_fingerprint != s.machine_fingerprint:
            what.append(f"fingerprint {before.machine_fingerprint or '?'} -> {s.machine_fingerprint or '?'}")
            cpu_a, cpu_b = before.machine.get("cpu_model"), s.machine.get("cpu_model")
            if before.host.label != s.host.label:  # another host of the same name (every host of this VM kind is `vm`)
                what.append(f"host {before.host.label} -> {s.host.label}")
            elif cpu_a != cpu_b:
                what.append(f"CPU {cpu_a} -> {cpu_b}")
        changes = machine.context_changes(before.machine_context, s.machine_context)
        toolchains = [c for c in changes if c.startswith("toolchain ")]
        if before.context_fingerprint != s.context_fingerprint:
            what += [c for c in changes if c not in toolchains]
        if what:
            out.append(f"machine {s.machine_name or '?'}: a new history from session {s.id} on ({'; '.join(what + toolchains)})")
        elif toolchains:  # the machine and its context hold: only the cells of those toolchains start again
            out.append(f"machine {s.machine_name or '?'}: from session {s.id} on, a new history of the cells of {'; '.join(toolchains)}")
    return out
