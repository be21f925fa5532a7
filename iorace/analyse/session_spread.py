"""How far a ratio moves from one session to the next on this machine, beyond what its rounds explain:
Kalibera & Jones's session level ("Rigorous Benchmarking in Reasonable Time", ISMM 2013), estimated from the
sessions this machine stored before, so that a session's intervals hold what a second session would see.

A session's interval is over its rounds. What stays fixed through a session and differs in the next is not
in it: on this project's VM, which runs at two speeds whole seconds at a time, a pair of programs' ratio
differs between the slow and the fast stretches (a median 4% at the top of make bench's tables), and sessions
differ in their mix of the two. In two back-to-back make bench sessions the top ratios moved by a median 3.4%,
an sd of about 4% that no interval held (docs/results/2026-11-26-make-bench-rivals). More rounds cannot shrink
it; only more sessions can (analyse/pool.py pools them).

The estimate: every cell ranked in two consecutive sessions against the same fastest cell gives the change d
of its log ratio and s^2 = se_1^2 + se_2^2, its rounds' share of that change. Were the sessions alike,
d^2 / s^2 would follow chi-square with one degree of freedom; with a session level of sd tau, d^2 / (s^2 +
2 tau^2) does. tau is the smallest value at which the median of d^2 / (s^2 + 2 tau^2) is chi-square's median,
0.455: a method-of-moments fit on the median rather than the mean, so a few cells whose code did change
between the sessions (a nightly's commits) move it little, where they would dominate a mean of squares.

A suite of too few cells (readexact's two rows, spin's three cells) takes the fit over every suite of the same
sessions, but relative: tau_i = k x sigma_i, sigma_i the pair's own per-round sd, k fitted the same way. How far
a session moves a ratio follows how noisy the pair is: capnp's ratios (15% a round) moved 3% between sessions,
spin's register-only loops (2% a round) under 1%; capnp's 3% given to spin hid a planted 10% slowdown, where
its relative level flags it (docs/results/2026-11-27-relative-level).
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
from iorace.analyse.stats import Level
from iorace.core.ids import CellId
from iorace.store.db import CellData, SessionData

MIN_CHANGES = 8  # cells seen in two sessions: fewer say too little about a median to fit tau on
MIN_ROUNDS = 3  # a ratio's standard error from fewer rounds is too rough to split its change with
KEPT_ANALYSES = 8  # sessions' analyses kept (prior looks back at 5)
CHI2_MEDIAN = float(sps.chi2.ppf(0.5, 1))  # 0.455: the median of z^2 when z is standard normal


@dataclass(frozen=True)
class Spread:
    """A suite's session-to-session sd of log ratios on one machine, and what it rests on."""

    level: Level  # tau (its sd), or k (per_round) when pooled
    sessions: tuple[int, ...]  # the stored sessions it was fitted on
    changes: int  # cells x consecutive pairs of those sessions
    pooled: bool = False  # fitted on every suite of those sessions, relative: the suite alone had too few cells

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


def _ratios(session: SessionData, suite: str) -> dict[CellId, tuple[CellId, float, float, int]]:
    """Each ranked cell of `suite` (not its table's fastest, not an A/A twin): its identity -> (its table's
    fastest's identity, log ratio to it, the rounds' standard error of that log, the rounds)."""
    scale = session.suite_setting(suite, "scale_params", [])
    out = {}
    for g in _groups(session):
        fastest = g.fastest
        if g.suite != suite or fastest is None:
            continue
        ref = _ident(fastest.cell, scale)
        for r in g.rows:
            v = r.vs_fastest
            if r is fastest or not r.ok or not r.kind.compared or v is None or v.se_log is None or v.n < MIN_ROUNDS or v.value <= 0:
                continue
            out[_ident(r.cell, scale)] = (ref, math.log(v.value), v.se_log, v.n)
    return out


def _ident(c: CellData, scale: list[str]) -> CellId:
    return CellId.of(c.suite, c.dataset, c.params, c.key, c.toolchain, c.profile, scale)


@dataclass(frozen=True)
class Change:
    """One cell's ratio in two consecutive sessions: what the fit takes."""

    d: float  # the change of its log ratio
    s2: float  # the rounds' share of d's variance: se_1^2 + se_2^2
    round_var: float = 1.0  # the pair's per-round variance of the log ratio (the mean of the two sessions' n se^2)


def changes(older: SessionData, newer: SessionData, suite: str) -> list[Change]:
    """Every cell ranked against the same fastest cell in both sessions."""
    a, b = _ratios(older, suite), _ratios(newer, suite)
    return [
        Change(b[k][1] - a[k][1], a[k][2] ** 2 + b[k][2] ** 2, (a[k][3] * a[k][2] ** 2 + b[k][3] * b[k][2] ** 2) / 2)
        for k in a.keys() & b.keys()
        if a[k][0] == b[k][0]
    ]


def fit(found: list[Change], relative: bool = False) -> float:
    """tau >= 0 at which the median of d^2 / (s^2 + 2 tau^2) is CHI2_MEDIAN (0 when the rounds alone already
    explain the changes); relative: k >= 0 at which the median of d^2 / (s^2 + 2 k^2 sigma^2) is, sigma^2 each
    change's per-round variance."""
    d2 = np.asarray([c.d * c.d for c in found])
    s2 = np.asarray([c.s2 for c in found])
    scale = np.asarray([c.round_var for c in found]) if relative else np.ones_like(d2)

    def excess(x: float) -> float:
        return float(np.median(d2 / np.maximum(s2 + 2 * x * x * scale, 1e-300))) - CHI2_MEDIAN

    if excess(0.0) <= 0:
        return 0.0
    high = 1.0  # tau of a log ratio (a factor e) or k of a round's sd: past the root on any real machine
    for _ in range(20):
        if excess(high) <= 0:
            return float(optimize.brentq(excess, 0.0, high, xtol=1e-6))
        high *= 4
    return high  # most changes with no noise of their own at all: no level explains them


def _consecutive(sessions: list[SessionData], suites: list[str]) -> tuple[list[SessionData], list[Change]]:
    """The sessions oldest first, and the changes of each consecutive pair's cells of `suites`."""
    ordered = sorted(sessions, key=lambda s: s.id)
    return ordered, [p for older, newer in itertools.pairwise(ordered) for suite in suites for p in changes(older, newer, suite)]


def spread(sessions: list[SessionData], suite: str) -> Spread | None:
    """The session level of `suite`'s ratios from `sessions` (each consecutive pair compared); where the suite
    has too few cells in common (MIN_CHANGES: readexact's two rows, spin's three cells), the relative level of
    every suite of those sessions together, the machine's, rather than none: an interval without it claims
    more than a second session would show. None when even that is too little."""
    ordered, found = _consecutive(sessions, [suite])
    ids = tuple(s.id for s in ordered)
    if len(found) >= MIN_CHANGES:
        return Spread(Level(sd=fit(found)), ids, len(found))
    pooled = pooled_fit(ordered, relative=True)
    return Spread(Level(per_round=pooled[0]), ids, pooled[1], pooled=True) if pooled else None


def pooled_fit(sessions: list[SessionData], relative: bool = False) -> tuple[float, int] | None:
    """(tau, changes) over every suite the sessions share (iorace dimension's summary), or (k, changes) with
    `relative`; None when too few."""
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
