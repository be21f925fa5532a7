"""What the site shows, read from a store once: per suite, the latest session of each machine (its report
document, the one every format draws), what changed since that machine's session before it (`compare`), each
cell's history with its change points (`history`), and the machines' verdicts (`compare-machines`).

Nothing here computes a number of its own: each figure comes from the module that computes it for the
terminal, so a page and `iorace show` / `history` / `compare-machines` cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from iorace.compare import fleet, judge, sides
from iorace.compare.history import CellChange, Series, history
from iorace.core.errors import UsageError
from iorace.core.ids import CellId
from iorace.report import document
from iorace.report.document import Report
from iorace.store.db import CellData, SessionData, Store

WINDOW = 30  # sessions of a suite read for its cells' histories (and each machine's one before them): `history --window`'s default
THRESHOLD = 0.05  # a change point or a change beyond this: `history` and `compare`'s default


@dataclass
class MachineLatest:
    """A machine's latest session of a suite, and what changed since its session of the suite before it."""

    machine: str
    session: SessionData
    report: Report
    previous: int | None = None  # that session before it, if any
    changes: judge.Comparison | None = None  # `compare previous latest`, the suite's cells only


@dataclass
class SuiteData:
    suite: str
    latest: list[MachineLatest]
    series: list[Series]  # one per cell, every machine's points, with its change points
    breaks: list[str]  # a machine's history that starts again (`history`'s lines)
    sessions: list[tuple[int, str, str]]  # (id, started, git revision) of the sessions read, oldest first
    fleet: fleet.FleetComparison | None = None  # with two machines or more

    @property
    def datasets(self) -> list[str]:
        return list(dict.fromkeys(g.dataset for m in self.latest for g in m.report.groups if g.suite == self.suite))

    def open_changes(self) -> list[CellChange]:
        """Each cell's latest change point on each machine: the level it stands at now began there."""
        out: list[CellChange] = []
        for ser in self.series:
            last: dict[str, CellChange] = {}
            for ch in ser.changes:
                last[ch.machine] = ch
            out += last.values()
        return out


@dataclass
class SiteData:
    where: str
    suites: list[SuiteData]
    machines: list[dict] = field(default_factory=list)  # Store.machines()


def sample_ident(c: CellData, scale_params: list[str] | tuple[str, ...]) -> CellId:
    """A stored cell's identity as `history` and `compare` know it (their parameters are texts)."""
    return CellId.of(c.suite, c.dataset, {k: str(v) for k, v in c.params.items()}, c.key, c.toolchain, c.profile, scale_params)


def collect(store: Store, window: int = WINDOW) -> SiteData:
    """Every suite of the store, as the site shows it."""
    if not store.session_ids():
        raise UsageError(f"{store.where}: no session stored yet (run `iorace run` first)")
    names = store.machine_names()
    reports: dict[int, tuple[SessionData, Report]] = {}

    def report_of(sid: int) -> tuple[SessionData, Report]:
        if sid not in reports:  # a session of several suites is analysed once
            s = store.load(sid)
            reports[sid] = (s, document.build(s))
        return reports[sid]

    suites = []
    for suite in store.suites():
        latest = []
        for sid in store.latest_by_machine(suite):
            session, report = report_of(sid)
            m = MachineLatest(names.get(sid, ""), session, report)
            earlier = [i for i in store.sessions_with_suite(suite) if i < sid and names.get(i, "") == m.machine]
            if earlier:
                m.previous = earlier[-1]
                m.changes = judge.compare(_suite_side(store.load(m.previous), suite), _suite_side(session, suite), THRESHOLD)
            latest.append(m)
        if not latest:  # only a session still running has it
            continue
        sessions, series, breaks = history(store, suite, threshold=THRESHOLD, last=window)
        cmp = fleet.compare_machines(store, suite) if len(latest) > 1 else None
        suites.append(SuiteData(suite, latest, series, breaks, sessions, cmp))
    return SiteData(store.where, suites, store.machines())


def _suite_side(session: SessionData, suite: str) -> sides.Side:
    side = sides.side_from_session(session)
    side.cells = [c for c in side.cells if c.suite == suite]
    return side
