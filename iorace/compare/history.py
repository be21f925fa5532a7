"""`iorace history SUITE`: each cell's primary metric across the stored sessions, by date and git revision.

A point is flagged when it differs from the cell's previous measured point the way `iorace compare` calls a
regression or an improvement (Mann-Whitney U and the bootstrap interval of the ratio of medians, beyond the
threshold; exact instruction counts beyond the threshold).

A point is compared only with the previous point of the same machine (its name) measured in the same context:
the same machine fingerprint, the same context fingerprint (kernel, mitigations, data filesystem:
machine.context_fingerprint) and the same version of the cell's own toolchain. A changed fingerprint under one
machine name starts a new history, and `history` says so in one line (breaks()).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatch

import numpy as np

from iorace.analyse.fmt import seconds
from iorace.compare.judge import CellSample, Change, _change, side_from_session
from iorace.core import machine
from iorace.core.errors import UsageError
from iorace.core.ids import CellId
from iorace.core.status import Status
from iorace.core.verdict import Verdict
from iorace.report.tables import Column, Table
from iorace.store.db import SessionData, Store


@dataclass
class Point:
    session_id: int
    started: str
    git_revision: str
    cell: CellSample
    change: Change | None = None  # against the previous measured point of the same cell
    machine_name: str = ""
    fingerprints: tuple[str, str] = ("", "")  # the session's machine and context fingerprints

    @property
    def history_key(self) -> tuple:
        """What must be equal for this point to be compared with the previous one of its machine."""
        return (self.fingerprints, self.cell.toolchain_version)

    @property
    def median(self) -> float | None:
        return float(np.median(self.cell.values)) if self.cell.values else None

    @property
    def flag(self) -> str:
        """ "slower", "faster" or ""."""
        if self.change is None:
            return ""
        return {Verdict.REGRESSED: "slower", Verdict.IMPROVED: "faster"}.get(self.change.verdict, "")


@dataclass
class Series:
    name: str  # dataset + cell label
    ident: CellId
    points: list[Point] = field(default_factory=list)


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
) -> tuple[list[tuple[int, str, str]], list[Series], list[str]]:
    """(sessions as (id, started, git revision), one series per cell, the lines of breaks()), oldest session
    first. last: only the last N sessions of the suite, and for each machine among them its session before
    them (what their first points are compared with): a store of a whole fleet is not read whole."""
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
        for ser in cell_series(loaded, threshold)
        if ser.ident.suite == suite and matches(ser.points[0].cell, variants) and (not datasets or ser.ident.dataset in datasets)
    ]
    if not series:
        raise UsageError(
            f"{suite}: no stored cell matches --variant {' '.join(variants)}{' --dataset ' + ' '.join(datasets) if datasets else ''}"
        )
    return [(s.id, s.started, s.git_revision) for s in loaded], series, breaks(loaded)


def history_table(suite: str, sessions: list[tuple[int, str, str]], series: list[Series]) -> Table:
    """Each cell's median per session (the given ones, as (id, started, git revision)), in the report's
    table model; a significant change from the cell's previous session is marked (▲ slower, ▼ faster)."""
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
    if p.change is not None and p.change.verdict.arrow:
        change = f"{p.change.ratio.value - 1:+.0%}" if p.change.ratio is not None else f"{p.change.instructions_change or 0:+.2%} instr"
        text += f" {p.change.verdict.arrow}{change}"
    return text


def cell_series(sessions: list[SessionData], threshold: float = 0.05) -> list[Series]:
    """One series per cell across `sessions` (oldest first); each measured point is compared with the
    cell's previous measured point."""
    series: dict[CellId, Series] = {}
    for s in sessions:
        for c in side_from_session(s).cells:
            ser = series.setdefault(c.ident, Series(f"{c.dataset} {c.label}", c.ident))
            fingerprints = (s.machine_fingerprint, s.context_fingerprint)
            ser.points.append(Point(s.id, s.started, s.git_revision, c, None, s.machine_name, fingerprints))
    for i, ser in enumerate(series.values()):
        previous: dict[str, Point] = {}  # machine name -> its previous measured point
        for p in ser.points:
            if p.cell.status == Status.OK and p.cell.values:
                before = previous.get(p.machine_name)
                if before is not None and before.history_key == p.history_key:
                    p.change = _change(before.cell, p.cell, threshold, seed=i)
                previous[p.machine_name] = p
    return list(series.values())


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
            if cpu_a != cpu_b:
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
