"""Rounds planned from the noise this machine showed before: "as many rounds as the precision needs"
is known before measuring when the store has an earlier session of the same tables here.

Without it, a session asked for a precision goes on past --runs up to a fixed cap (3 x --runs), however
noisy its cells: enough on a quiet register loop, far too few for a memory-bound program whose per-round
sd of log ratio is 0.2 (about 400 rounds for +-2%). With it, the cap is the rounds that the noisiest ratio
among the tables' three fastest cells needed in the latest quiet session of this machine that measured them
(Kalibera & Jones's count, analyse.dimension.rounds_needed), so the budget, not a guess, ends the rounds.
A session judged contended (analyse.contention) is not a plan for a quiet one, and `--max-runs` given by
the user always wins. The plan applies to a session with a --budget only (without an earlier session, the
budget alone ends the rounds, up to MOST_PLANNED): without a budget, rounds stay within 3 x --runs as before,
so a store's history never makes a plain `iorace run` many times longer."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from iorace.analyse.analysis import analyse
from iorace.analyse.contention import contention
from iorace.analyse.dimension import rounds_needed
from iorace.analyse.session_spread import Spread, spread
from iorace.analyse.stats import centre_and_round_var
from iorace.core.host import Host, left_out_note
from iorace.core.ids import CellId, TableId
from iorace.store.db import SessionData, Store

MIN_PILOT_ROUNDS = 5  # a ratio's variance from fewer rounds is too rough to plan with
MOST_PLANNED = 1000  # the plan never asks for more rounds than this (the budget usually ends them first)
LOOK_BACK = 5  # sessions of this machine looked at, newest first, for one that measured these tables quietly


@dataclass(frozen=True)
class Prior:
    """The rounds planned for one suite, and where the plan comes from."""

    session_id: int
    rounds: int  # rounds the noisiest ratio at the top needs for the precision (the cap on this session's rounds)
    sd: float  # that ratio's sd of log ratio per round, in the earlier session

    def note(self, cap: int | None = None) -> str:
        """What the measure stage says: the cap on rounds (`cap`: the plan's, or --runs when that is more)."""
        rounds = self.rounds if cap is None else cap
        return f"up to {rounds} rounds, planned from session {self.session_id} (sd {self.sd:.1%} a round at the top)"


_loaded: dict[tuple[str, int], SessionData] = {}  # a session is loaded once per process, however many suites ask


def _load(store: Store, session_id: int) -> SessionData:
    key = (str(store.where), session_id)
    if key not in _loaded:
        _loaded[key] = store.load(session_id)
    return _loaded[key]


def _here(store: Store, suite: str, machine: str, this_session: int) -> tuple[list[int], dict[int, Host]]:
    """This machine's sessions of the suite on this session's host, newest first, this one left out; and the
    latest LOOK_BACK of the same name on another host, which are left out: one name (every host of this VM
    kind is `vm`) is served by hosts whose ratios and noise differ beyond their intervals (core/host.py).
    A session not stored yet (this_session unknown) matches by name alone."""
    hosts = store.hosts()
    names = store.machine_names()
    mine = hosts.get(this_session)
    named = [i for i in sorted(store.sessions_with_suite(suite), reverse=True) if i != this_session and names.get(i) == machine]
    others = {i: hosts[i] for i in named if mine is not None and hosts.get(i) != mine}
    return [i for i in named if i not in others], dict(list(others.items())[:LOOK_BACK])


def _latest_here(store: Store, suite: str, machine: str, this_session: int) -> Iterator[tuple[int, SessionData]]:
    """This machine's sessions of the suite on this host, newest first (LOOK_BACK of them), this one left out:
    what the plan and the kept sizes look in."""
    for session_id in _here(store, suite, machine, this_session)[0][:LOOK_BACK]:
        yield session_id, _load(store, session_id)


def other_hosts_note(store: Store, suite: str, machine: str, this_session: int, what: str) -> str:
    """One line when sessions of this machine's name ran on another host and `what` left them out ('' if none)."""
    others = _here(store, suite, machine, this_session)[1]
    mine = store.hosts().get(this_session)
    return left_out_note(mine, others, what) if mine is not None else ""


def top_round_vars(session: SessionData, suite: str, tables: set[TableId], scale_params: list[str]) -> list[float]:
    """The per-round variance of the log ratio of each of its tables' second and third fastest cells to the
    fastest, over the rounds they share (tables of `suite` among `tables` only)."""
    out = []
    for g in analyse(session):
        if g.suite != suite or TableId.of(g.suite, g.dataset, g.params, scale_params) not in tables:
            continue
        if (fastest := g.fastest) is None:  # judged in shared rounds: once
            continue
        ref = fastest.cost_by_round()
        for r in g.runners_up(fastest):
            mine = r.cost_by_round()
            logs = [math.log(mine[k] / ref[k]) for k in sorted(set(mine) & set(ref)) if mine[k] > 0 and ref[k] > 0]
            if len(logs) >= MIN_PILOT_ROUNDS:
                out.append(centre_and_round_var(np.asarray(logs))[1])  # as the ratio's estimator sees the rounds
    return out


def planned(
    store: Store, suite: str, tables: set[TableId], scale_params: list[str], machine: str, precision: float, this_session: int
) -> Prior | None:
    """The plan from the latest quiet, finished session of `machine` that measured these tables, or None."""
    for session_id, session in _latest_here(store, suite, machine, this_session):
        if session.status != "done" or contention(session).contended:
            continue
        variances = top_round_vars(session, suite, tables, scale_params)
        if variances:
            worst = max(variances)
            return Prior(session_id, min(MOST_PLANNED, rounds_needed(worst, precision)), math.sqrt(worst))
    return None


def round_cap(
    store: Store,
    suite: str,
    tables: set[TableId],
    scale_params: list[str],
    machine: str,
    session_id: int,
    asked: int | None,
    runs: int,
    precision: float | None,
    budget: float | None,
) -> tuple[int | None, str]:
    """The most rounds a suite's measuring may take, and a note for its progress line: --max-runs when given
    (`asked`); with a precision and a budget, the plan from this machine's latest quiet session of these tables
    (never below --runs), or MOST_PLANNED when there is none, so that the budget ends the rounds; otherwise
    None (race.Plan's own default: 3 x --runs)."""
    if asked is not None or precision is None or budget is None:
        return asked, ""
    found = planned(store, suite, tables, scale_params, machine, precision, session_id)
    left_out = other_hosts_note(store, suite, machine, session_id, "the plan")
    left_out = f" ({left_out})" if left_out else ""
    if found is None:
        return MOST_PLANNED, f" (until the precision or the budget: no earlier session here to plan from){left_out}"
    cap = max(found.rounds, runs)
    return cap, f" ({found.note(cap)}){left_out}"


@dataclass(frozen=True)
class StoredSizes:
    """Each cell's work per run in this machine's latest session of a suite at the same --target-ms."""

    session_id: int
    work: dict[CellId, dict[str, int]]  # the cell (its scale parameters left out) -> its work parameters' values


def stored_sizes(
    store: Store, suite: str, scale_params: list[str], work_params: tuple[str, ...], machine: str, target_ms: float, this_session: int
) -> StoredSizes | None:
    """The sizes --target-ms gave this suite's cells in this machine's latest finished session of it at the
    same target (None: there is none). Sizing anew in every session gives a cell 2x more or less work when
    its probe ran in a slow or a fast stretch of this VM (it runs in two speeds, whole seconds at a time), and
    a cell's cost per unit is not quite the same at 20 iterations as at 46 (a fixed part per run): the ratios
    of capnp's three fastest moved 8-11% between two sessions by that alone
    (docs/results/2026-11-26-pairing-in-time). The same work in every session removes it, as pyperf keeps a
    benchmark's calibrated loops."""
    for session_id, session in _latest_here(store, suite, machine, this_session):
        # A contended session's sizes are kept too: what matters is that sessions time the same work (a size far
        # off the target is sized anew anyway, calibrate.REUSE_WITHIN), and with a few short runs the busy
        # figure is a tick's noise
        if session.status != "done" or session.options.get("target_ms") != target_ms:
            continue
        work = {}
        for c in session.cells:
            values = {k: c.params[k] for k in work_params if isinstance(c.params.get(k), int) and not isinstance(c.params.get(k), bool)}
            if c.suite == suite and values:
                work[c.ident(scale_params)] = values
        if work:
            return StoredSizes(session_id, work)
    return None


def session_spread(store: Store, suite: str, machine: str, target_ms: float | None, this_session: int) -> Spread | None:
    """How much `suite`'s ratios moved between this machine's latest quiet, finished sessions of it at the same
    --target-ms (LOOK_BACK at most; None with fewer than two, or too few cells in common): stored with the
    session, its intervals include it (analyse/session_spread.py). A contended session is left out: its
    ratios moved with the other load, which says nothing of a quiet session; another --target-ms times other
    work per run, whose fixed part moves a ratio per unit on purpose."""
    found = [
        s
        for _, s in _latest_here(store, suite, machine, this_session)
        if s.status == "done" and s.options.get("target_ms") == target_ms and not contention(s).contended
    ]
    return spread(found, suite) if len(found) >= 2 else None
