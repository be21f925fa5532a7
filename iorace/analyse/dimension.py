"""`iorace dimension`: how much of a ratio's noise is in each level here, and the counts that follow.

Kalibera & Jones ("Rigorous Benchmarking in Reasonable Time", ISMM 2013) treat an experiment as nested
random effects; here session > round. From a few pilot sessions of the same cells, each cell's per-round log
ratio to its table's fastest cell splits into the variance between rounds of a session (s_r^2) and between
sessions (s_s^2, one-way random effects: (MS_between - MS_within) / rounds). With c_r the time a round takes
and c_s what a session costs besides its rounds (builds, data, verification, warm-up), the rounds per
session that buy the most precision for the time are r = sqrt((c_s / c_r) * (s_r^2 / s_s^2)) (their
`optimalreps`), and the sessions that reach a half-width h are the smallest k with
t_(k-1) * sqrt(s_s^2 / k + s_r^2 / (k r)) <= ln(1 + h).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from iorace.analyse.analysis import analyse
from iorace.analyse.stats import centre_and_round_var
from iorace.store.db import SessionData


@dataclass(frozen=True)
class Levels:
    """The variance of one cell's log ratio at each level, over `sessions` pilot sessions of `rounds` rounds."""

    cell: str
    round_var: float  # s_r^2: between rounds of one session
    session_var: float  # s_s^2: between sessions, beyond what the rounds explain
    sessions: int
    rounds: float  # rounds per session, on average
    top: bool = False  # among its table's TOP_PLACES fastest (by its ratio) in most of the sessions
    run_s: float = 0.0  # a run's wall time, the median over the sessions' runs


def levels(sessions: list[SessionData]) -> list[Levels]:
    """Each cell (compared, measured in at least two of the sessions) with its two variances."""
    per_cell: dict[str, list[np.ndarray]] = {}
    tops: dict[str, list[bool]] = {}
    walls: dict[str, list[float]] = {}
    for s in sessions:
        for g in analyse(s):
            fastest = g.fastest
            if fastest is None:
                continue
            ref = fastest.cost_by_round()
            first = {id(fastest)} | {id(r) for r in g.runners_up(fastest)}
            for r in g.rows:
                if not r.ok or r is fastest or not r.kind.compared:
                    continue
                mine = r.cost_by_round()
                logs = [math.log(mine[k] / ref[k]) for k in sorted(set(mine) & set(ref)) if mine[k] > 0 and ref[k] > 0]
                if len(logs) >= 2:
                    name = f"{g.suite} {g.dataset} {r.cell.label}"
                    per_cell.setdefault(name, []).append(np.asarray(logs))
                    tops.setdefault(name, []).append(id(r) in first)
                    walls.setdefault(name, []).extend(run.wall_ns / 1e9 for run in r.cell.measured())
    out = []
    for name, groups in per_cell.items():
        if len(groups) < 2:
            continue
        n = statistics.mean(len(x) for x in groups)
        centres = [centre_and_round_var(x) for x in groups]  # as paired_ratio sees the rounds (trimmed from 20)
        within = float(np.mean([v for _, v in centres]))
        means = np.asarray([c for c, _ in centres])
        between = max(0.0, float(means.var(ddof=1)) - within / n)  # E[var of session means] = s_s^2 + s_r^2 / n
        top = sum(tops[name]) * 2 > len(tops[name])
        out.append(Levels(name, within, between, len(groups), n, top, statistics.median(walls[name]) if walls[name] else 0.0))
    return out


def fastest_run_s(sessions: list[SessionData]) -> dict[str, float]:
    """Each table's fastest cell's run (seconds, the median over the sessions' runs): every round has it."""
    walls: dict[str, list[float]] = {}
    for s in sessions:
        for g in analyse(s):
            if (fastest := g.fastest) is not None:
                walls.setdefault(f"{g.suite} {g.dataset} {g.params}", []).extend(r.wall_ns / 1e9 for r in fastest.cell.measured())
    return {k: statistics.median(v) for k, v in walls.items() if v}


@dataclass(frozen=True)
class RacedForecast:
    """What `run --precision P` (racing) should take to bring every table's three fastest within P."""

    rounds: int  # rounds the noisiest of the top cells needs
    median_rounds: int  # rounds the median top cell needs
    top_round_s: float  # one round of the tables' three fastest cells (and each fastest's A/A twin)
    seconds: float  # the session's rounds: the race's first `min_rounds` of every cell, the rest of the top cells only


def raced_forecast(
    found: list[Levels], fastest_s: dict[str, float], round_s: float, half_width: float, min_rounds: int
) -> RacedForecast | None:
    """From the pilots' levels: racing stops the cells beyond each table's fastest three from round `min_rounds`
    (run.race.RACE_MIN_ROUNDS), so past that a round costs only their runs (`fastest_s`: each table's fastest cell's run, timed twice with
    its A/A twin); rounds go on until the noisiest of them is within `half_width`. None without top cells."""
    top = [lv for lv in found if lv.top]
    if not top:
        return None
    n = rounds_needed(max(lv.round_var for lv in top), half_width)
    median_n = rounds_needed(statistics.median(lv.round_var for lv in top), half_width)
    top_round = sum(lv.run_s for lv in top) + 2 * sum(fastest_s.values())
    seconds = min_rounds * round_s + max(0, n - min_rounds) * top_round
    return RacedForecast(n, median_n, top_round, seconds)


def optimal_rounds(round_var: float, session_var: float, round_s: float, session_s: float) -> int | None:
    """Rounds per session that give the most precision for the time (Kalibera & Jones's optimalreps);
    None when nothing measurable moves between sessions (then one long session is best)."""
    if session_var <= 0:
        return None
    return max(2, math.ceil(math.sqrt((session_s / max(round_s, 1e-9)) * (round_var / session_var))))


def rounds_needed(round_var: float, half_width: float) -> int:
    """The rounds of one session whose 95% interval is within +-half_width, when sessions do not differ."""
    return max(2, math.ceil((1.96 * math.sqrt(round_var) / math.log(1 + half_width)) ** 2))


def sessions_needed(round_var: float, session_var: float, rounds: int, half_width: float, most: int = 100) -> int | None:
    """The fewest sessions of `rounds` rounds whose 95% interval is within +-half_width (None: over `most`)."""
    target = math.log(1 + half_width)
    for k in range(2, most + 1):
        t = float(sps.t.ppf(0.975, k - 1))
        if t * math.sqrt(session_var / k + round_var / (k * rounds)) <= target:
            return k
    return None


def costs(sessions: list[SessionData]) -> tuple[float, float]:
    """(seconds a round takes, seconds a session costs besides its rounds), medians over the sessions: a
    round's time is the wall time of its runs; the rest of a session (builds, data, verification, warm-up,
    the harness between chunks) is its duration less its rounds."""
    import datetime as dt

    rounds, rest = [], []
    for s in sessions:
        walls: dict[int, float] = {}
        for c in s.cells:
            for r in c.measured():
                walls[r.round] = walls.get(r.round, 0.0) + r.wall_ns / 1e9
        if not walls or not s.finished:
            continue
        total = (dt.datetime.fromisoformat(s.finished) - dt.datetime.fromisoformat(s.started)).total_seconds()
        rounds.append(statistics.mean(walls.values()))
        rest.append(max(0.0, total - sum(walls.values())))
    if not rounds:
        return 0.0, 0.0
    return statistics.median(rounds), statistics.median(rest)
