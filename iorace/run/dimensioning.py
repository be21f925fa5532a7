"""`iorace dimension`'s workflow: run the pilot sessions (or read stored ones), keep one host's and the named
suites' cells, and say how a ratio's noise splits between rounds and sessions here and what a precision costs
(the counts of analyse/dimension.py, Kalibera & Jones). The command (cli/measure.py) parses and prints."""

from __future__ import annotations

import dataclasses
import math
import statistics
from io import StringIO
from pathlib import Path

from rich.console import Console

from iorace.analyse import dimension, session_spread
from iorace.analyse.pool import one_host
from iorace.analyse.stats import Z95
from iorace.core.errors import UsageError
from iorace.core.options import from_command
from iorace.run.race import RACE_MIN_ROUNDS
from iorace.run.session import plan, run_session
from iorace.store.db import SessionData, Store


@dataclasses.dataclass(frozen=True)
class Dimensioning:
    """What `iorace dimension` says: each cell's levels (a table), then its lines."""

    levels: list[dimension.Levels]
    lines: list[str]


def stored_ids(stored: str) -> list[int]:
    """--from ID,ID,...: the stored sessions to analyse instead of running pilots."""
    if not all(p.strip().isdigit() for p in stored.split(",")):
        raise UsageError(f"--from {stored}: expected session ids joined by commas")
    return [int(p) for p in stored.split(",")]


def run_pilots(
    suites: tuple[str, ...],
    pilot: int,
    runs: int,
    sizes: tuple[str, ...],
    variants: tuple[str, ...],
    toolchains: tuple[str, ...],
    db: Path,
    err_console: Console,
) -> list[int]:
    """`pilot` sessions of the cells, plain rounds (no racing, precision target or A/A), their reports not
    printed: their ids."""
    ids = []
    quiet = Console(file=StringIO(), width=200)
    for n in range(pilot):
        err_console.print(f"pilot session {n + 1} of {pilot} ...", highlight=False)
        opts = from_command(
            suites,
            sizes=sizes,
            variants=variants,
            toolchains=toolchains,
            runs=runs,
            precision=None,
            race=False,
            aa=False,
            db=db,
            wide=True,
        )
        ids.append(run_session(opts, plan(opts), quiet, err_console).session_id)
    return ids


def load(store: Store, ids: list[int], suites: tuple[str, ...]) -> tuple[list[SessionData], str]:
    """The sessions, each with only the cells of `suites`, of the last one's host (a session level across
    hosts would be the hosts' difference, not the sessions'), and the line naming those left out ('' if none)."""
    return one_host([_only(store.load(i), suites) for i in ids], "dimension")


def _only(session: SessionData, suites: tuple[str, ...]) -> SessionData:
    """A stored session (--from) with only the cells of SUITES (all of them when none is named): each suite's
    noise is its own, and a make bench session holds every suite."""
    if not suites:
        return session
    if missing := [s for s in suites if s not in {c.suite for c in session.cells}]:
        raise UsageError(f"--from: session {session.id} has no cell of suite {missing[0]}")
    return dataclasses.replace(session, cells=[c for c in session.cells if c.suite in suites])


def dimensioning(loaded: list[SessionData], ids: list[int], precision: float, runs: int) -> Dimensioning:
    """Each cell's variance per level over `loaded` (the sessions `ids`, of `runs` rounds when they are pilots),
    the median ones, what a round and a session cost, what racing to `precision` needs, and the rounds per
    session and sessions that reach it."""
    found = dimension.levels(loaded)
    if not found:
        raise UsageError("no cell was measured in two of the sessions: nothing to dimension")
    round_var = statistics.median(lv.round_var for lv in found)
    # The session level from the changes between consecutive sessions, fitted on their median
    # (analyse/session_spread.py): the median of the cells' own estimates, each clipped at 0 and most of them
    # from two sessions, said 0.00% where the top ratios had moved by 3.4%
    level = session_spread.pooled_fit(loaded)
    session_var = level[0] ** 2 if level else statistics.median(lv.session_var for lv in found)
    round_s, session_s = dimension.costs(loaded)
    best = dimension.optimal_rounds(round_var, session_var, round_s, session_s)
    lines = [
        f"median sd between rounds {math.sqrt(round_var):.2%}, between sessions {math.sqrt(session_var):.2%}; a round "
        f"takes {round_s:.2f} s, a session {session_s:.1f} s besides its rounds (sessions {', '.join(map(str, ids))})"
    ]
    forecast = dimension.raced_forecast(found, dimension.fastest_run_s(loaded), round_s, precision, RACE_MIN_ROUNDS)
    floor = Z95 * math.sqrt(session_var)  # one session's half-width at best: its intervals carry the session level
    if forecast is not None:
        lines.append(
            f"each table's three fastest: `iorace run --precision {precision * 100:g}` (racing) needs about {forecast.rounds} "
            f"rounds for the noisiest of them ({forecast.median_rounds} for the median one); past the third round a round "
            f"times only them ({forecast.top_round_s:.2f} s): about {forecast.seconds / 60:.1f} minutes of rounds, "
            f"{(forecast.seconds + session_s) / 60:.1f} with the rest of a session"
            + (
                f"; that is the rounds' share alone: a ratio moves {math.sqrt(session_var):.2%} between sessions here, "
                f"so one session's interval is +-{floor:.1%} at best and cannot reach +-{precision:.1%}: sessions pooled can"
                if floor > precision
                else ""
            )
        )
    if best is None:
        n = dimension.rounds_needed(round_var, precision)
        lines.append(
            f"nothing measurable moves between sessions here: one session of {n} rounds reaches "
            f"+-{precision:.1%} for the median cell (about {n * round_s / 60:.0f} minutes of rounds of every cell)"
        )
        return Dimensioning(found, lines)
    for r in dict.fromkeys([best, runs]):
        k = dimension.sessions_needed(round_var, session_var, r, precision)
        label = "the rounds that buy most precision for the time" if r == best else "as the pilots ran"
        took = f" (about {k * (r * round_s + session_s) / 60:.0f} minutes; `iorace show A,B,...` pools them)" if k else ""
        lines.append(
            f"{r} rounds per session ({label}): "
            + (f"{k} sessions reach +-{precision:.1%}{took}" if k else f"more than 100 sessions for +-{precision:.1%}")
        )
    return Dimensioning(found, lines)
