"""How far a ratio moves from one session to the next on this machine, beyond what its rounds explain:
Kalibera & Jones's session level ("Rigorous Benchmarking in Reasonable Time", ISMM 2013), estimated from the
sessions this machine stored before, so that a session's intervals hold what a second session would see.

A session's interval is over its rounds. What stays fixed through a session and differs in the next is not
in it: on this project's VM, which runs at two speeds whole seconds at a time, a pair of programs' ratio
differs between the slow and the fast stretches (a median 4% at the top of make bench's tables), and sessions
differ in their mix of the two. In two back-to-back make bench sessions the top ratios moved by a median 3.4%,
an sd of about 4% that no interval held (docs/results/2026-11-26-make-bench-rivals). More rounds cannot shrink
it; only more sessions can (analyse/pool.py pools them).

The estimate: within each table, the cells ranked in two consecutive sessions, taken two by two, give the change
d of each pair's log ratio and s^2 = se_1^2 + se_2^2, its rounds' share of that change (changes()). Were the sessions alike,
d / s would follow Student's t on the rounds' degrees of freedom, and the two-sided p of each change would be
uniform; with a session level of sd tau, d / sqrt(s^2 + 2 tau^2) does. tau is the smallest value at which the
median of those p is 1/2: a fit on the median rather than a mean of squares, so a few cells whose code did
change between the sessions (a nightly's commits) move it little, where they would dominate a mean.

A suite of too few cells (readexact's two rows, spin's three cells) takes the fit over every suite of the same
sessions, but relative: tau_i = k x sigma_i, sigma_i the pair's own per-round sd, k fitted the same way. How far
a session moves a ratio follows how noisy the pair is: capnp's ratios (15% a round) moved 3% between sessions,
spin's register-only loops (2% a round) under 1%; capnp's 3% given to spin hid a planted 10% slowdown, where
its relative level flags it (docs/results/2026-11-27-session-level-fit).
"""

from __future__ import annotations

import itertools
import math
import statistics
from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy import stats as sps

from iorace.analyse.analysis import Group, analyse
from iorace.analyse.pool import one_host
from iorace.analyse.stats import Level, paired_ratio
from iorace.core.ids import CellId, TableId
from iorace.store.db import SessionData

MIN_CHANGES = 8  # cells seen in two sessions: fewer say too little about a median to fit tau on
MIN_ROUNDS = 3  # a ratio's standard error from fewer rounds is too rough to split its change with
KEPT_ANALYSES = 8  # sessions' analyses kept (prior looks back at 5)


@dataclass(frozen=True)
class Spread:
    """A suite's session-to-session sd of log ratios on one machine, and what it rests on."""

    level: Level  # tau (its sd), or k (per_round) when pooled
    sessions: tuple[int, ...]  # the stored sessions it was fitted on
    changes: int  # cells x consecutive pairs of those sessions
    pooled: bool = False  # fitted on every suite of those sessions, relative: the suite alone had too few cells
    left_out: str = ""  # which sessions of another host were left out (pool.one_host), '' when none

    def as_setting(self) -> dict:
        """Stored with a session's suite settings: its reports and exports widen its intervals by it."""
        return {
            "session_sd": self.level.sd,
            "session_sd_per_round": self.level.per_round,
            "session_sd_from": list(self.sessions),
            "session_sd_pooled": self.pooled,
        }


_analysed: dict[int, tuple[SessionData, list[Group]]] = {}  # a session analysed once per process, whatever suites ask


def _groups(session: SessionData) -> list[Group]:
    """analyse(session), once: a make bench session takes a second or two, and each of its suites asks."""
    held = _analysed.get(id(session))
    if held is None or held[0] is not session:
        if len(_analysed) >= KEPT_ANALYSES:
            _analysed.pop(next(iter(_analysed)))
        held = _analysed[id(session)] = (session, analyse(session))
    return held[1]


def _tables(session: SessionData, suite: str) -> dict[TableId, dict[CellId, dict[int, float]]]:
    """Each table of `suite`: its ranked cells (variants and peers, no A/A twin) -> each one's cost per round."""
    scale = session.settings(suite).scale_params
    out: dict[TableId, dict[CellId, dict[int, float]]] = {}
    for g in _groups(session):
        if g.suite != suite:
            continue
        table = out.setdefault(TableId.of(g.suite, g.dataset, g.params, g.scale_params), {})
        for r in g.rows:
            if r.ok and r.kind.compared:
                table[r.cell.ident(scale)] = r.cost_by_round()
    return out


@dataclass(frozen=True)
class RatioStep:
    """One cell's ratio in two consecutive sessions, the step of its log ratio between them: what the fit takes
    (compare's judge.Change is a cell's change between two sides, judged)."""

    d: float  # the change of its log ratio
    se1: float  # the standard error of each session's log ratio, from its rounds
    n1: int  # and how many rounds
    se2: float
    n2: int

    @property
    def s2(self) -> float:
        """The rounds' share of d's variance."""
        return self.se1**2 + self.se2**2

    @property
    def round_var(self) -> float:
        """The pair's per-round variance of the log ratio (the mean of the two sessions' n se^2)."""
        return (self.n1 * self.se1**2 + self.n2 * self.se2**2) / 2

    def p(self, level_var: float) -> float:
        """The two-sided p of d under a session level of variance level_var each side, as compare tests a
        change: Student's t on Welch-Satterthwaite's degrees of freedom, the level counted as known."""
        var = self.s2 + 2 * level_var
        if var <= 0:
            return 0.0 if self.d else 1.0
        rough = self.se1**4 / max(self.n1 - 1, 1) + self.se2**4 / max(self.n2 - 1, 1)
        df = var * var / rough if rough > 0 else math.inf
        return float(2 * sps.t.sf(abs(self.d) / math.sqrt(var), df))


def changes(older: SessionData, newer: SessionData, suite: str) -> list[RatioStep]:
    """Within each table, the cells ranked in both sessions taken two by two (in identity order, each cell in one
    pair): each pair's ratio, paired by round in each session, and its change.

    Disjoint pairs share nothing, so each change is a draw of its own. Ratios to each table's fastest cell, as
    fitted before, share that cell's move: a table of 30 cells counted one draw 30 times, so a few tables set
    the median (sessions that moved 0.6-2.1% by disjoint pairs fitted 0.0-4.4% that way), and a table whose
    fastest cell changed between the sessions gave nothing (make bench's lines table in the session-level
    study); an interval is honest when a ratio between any two cells holds across sessions."""
    a, b = _tables(older, suite), _tables(newer, suite)
    out = []
    for table in a.keys() & b.keys():
        common = sorted(a[table].keys() & b[table].keys())
        for x, y in zip(common[::2], common[1::2], strict=False):  # an odd cell out sits out
            ra, rb = paired_ratio(a[table][y], a[table][x]), paired_ratio(b[table][y], b[table][x])
            if ra is None or rb is None or ra.se_log is None or rb.se_log is None or min(ra.n, rb.n) < MIN_ROUNDS:
                continue
            out.append(RatioStep(math.log(rb.value / ra.value), ra.se_log, ra.n, rb.se_log, rb.n))
    return out


def fit(found: list[RatioStep], relative: bool = False) -> float:
    """tau >= 0 at which the median of the changes' p (RatioStep.p, with a level of tau each side) is 1/2, as it is
    when each change is its two sessions' noise and nothing else (0 when the rounds alone already explain the
    changes); relative: k >= 0, the level of each change k times its pair's per-round sd.

    The p are those of compare's test, Student's t on the rounds' degrees of freedom (Welch-Satterthwaite's,
    the level counted as known): make bench races most cells to 3 rounds, so most standard errors rest on 2
    degrees of freedom, and d / se has the t's heavier tails, which a fit judging by the normal (the median of
    d^2 / (s^2 + 2 tau^2) against chi-square(1)'s 0.455) takes for a little level. On the stored sessions
    that was a few tenths of a percent (docs/results/2026-11-27-session-level-fit); what the fit is judged
    by is now the test the level serves."""
    scale = [c.round_var if relative else 1.0 for c in found]

    def excess(x: float) -> float:
        return 0.5 - float(np.median([c.p(x * x * k) for c, k in zip(found, scale, strict=True)]))

    if excess(0.0) <= 0:
        return 0.0
    high = 1.0  # tau of a log ratio (a factor e) or k of a round's sd: past the root on any real machine
    for _ in range(20):
        if excess(high) <= 0:
            return float(optimize.brentq(excess, 0.0, high, xtol=1e-6))
        high *= 4
    return high  # most changes with no noise of their own at all: no level explains them


def _consecutive(sessions: list[SessionData], suites: list[str]) -> tuple[list[SessionData], list[RatioStep]]:
    """The sessions oldest first, and the changes of each consecutive pair's cells of `suites`."""
    ordered = sorted(sessions, key=lambda s: s.id)
    return ordered, [p for older, newer in itertools.pairwise(ordered) for suite in suites for p in changes(older, newer, suite)]


def spread(sessions: list[SessionData], suite: str) -> Spread | None:
    """The session level of `suite`'s ratios from `sessions` (each consecutive pair compared); where the suite
    has too few cells in common (MIN_CHANGES: readexact's two rows, spin's three cells), the relative level of
    every suite of those sessions together, the machine's, rather than none: an interval without it claims
    more than a second session would show. None when even that is too little. Only the newest session's host's
    sessions count: a ratio moves between hosts far beyond a session level (core/host.py)."""
    if not sessions:
        return None
    kept, left_out = one_host(sorted(sessions, key=lambda s: s.id), "the session level")
    ordered, found = _consecutive(kept, [suite])
    ids = tuple(s.id for s in ordered)
    if len(found) >= MIN_CHANGES:
        return Spread(Level(sd=fit(found)), ids, len(found), left_out=left_out)
    pooled = pooled_fit(ordered, relative=True)
    return Spread(Level(per_round=pooled[0]), ids, pooled[1], pooled=True, left_out=left_out) if pooled else None


def pooled_fit(sessions: list[SessionData], relative: bool = False) -> tuple[float, int] | None:
    """(tau, changes) over every suite the sessions share (iorace dimension's summary), or (k, changes) with
    `relative`; None when too few. Sessions of another host than the newest one's are left out."""
    if not sessions:
        return None
    sessions = one_host(sorted(sessions, key=lambda s: s.id), "the session level")[0]
    _, found = _consecutive(sessions, sorted({c.suite for s in sessions for c in s.cells}))
    return (fit(found, relative), len(found)) if len(found) >= MIN_CHANGES else None


def describe(levels: dict[str, Level]) -> str:
    """The report's line: each suite's session-to-session sd, largest first, then the relative ones ('' when no
    suite has one)."""
    if not levels:
        return ""
    ordered = sorted(levels.items(), key=lambda kv: (-kv[1].sd, -kv[1].per_round))
    shown = ", ".join(f"{suite} {level.text()}" for suite, level in ordered)
    sds = [level.sd for level in levels.values() if level.sd > 0 or not level.per_round]
    median = f"; median {statistics.median(sds):.1%}" if sds else ""
    return (
        f"intervals include how much a ratio moves from one session to the next on this machine (sd {shown}{median}), "
        "fitted on its earlier sessions"
    )
