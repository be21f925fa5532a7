"""The commands that measure: run, seeds (each seed's configuration), dimension (how many rounds a precision costs)."""

from __future__ import annotations

import dataclasses
import math
import statistics
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from iorace.analyse.pool import one_host
from iorace.cli.common import (
    DB_OPTION,
    SUITE_DIR_OPTION,
    WIDE_OPTION,
    console,
    err_console,
    export_options,
    local_db,
    measure_and_show,
    wide_view,
)
from iorace.core.errors import UsageError
from iorace.core.options import Percent, from_command, run_options, seeds_options
from iorace.core.paths import default_db
from iorace.export import EXPORTERS
from iorace.manifest import seeds
from iorace.manifest.suites import load_suites
from iorace.report import tables
from iorace.report.terminal import rich_table
from iorace.run.race import RACE_MIN_ROUNDS
from iorace.run.session import plan, run_session
from iorace.store.db import SessionData, Store


@click.command()
@click.argument("suites", nargs=-1)
@run_options
@DB_OPTION
@export_options
@WIDE_OPTION
@SUITE_DIR_OPTION
def run(suites: tuple[str, ...], **kw: Any) -> None:
    """Build, verify and measure the cells of SUITES (all suites when none is named)."""
    exports = {e.dest: kw.pop(e.dest) for e in EXPORTERS}
    allow_contended = kw.pop("allow_contended")
    opts = from_command(suites, exports=exports, wide=wide_view(kw.pop("wide")), **kw)
    opts.db = local_db(opts.db or default_db(), "run")
    sys.exit(measure_and_show(opts, allow_contended))


@click.command("seeds")
@click.argument("names", nargs=-1, metavar="[SEED]...")
@click.option(
    "--row",
    "rows",
    multiple=True,
    metavar="GLOB",
    help="Only the seed rows whose label matches (e.g. 'deser-*'; case-insensitive), with the rows their ratios divide "
    "by: re-time the rows a change touched without the whole seed. Repeatable.",
)
@seeds_options
@DB_OPTION
@export_options
@WIDE_OPTION
@SUITE_DIR_OPTION
def seeds_cmd(names: tuple[str, ...], rows: tuple[str, ...], **kw: Any) -> None:
    """Each seed's question answered today: run the seeds (all when none is named: readbytes, lines,
    serialize, readexact, capnp) at their own configuration, as their suites' [seed] blocks declare it (the
    seed's data size, parameters, toolchains and build profiles), and print each seed's table, its
    published figures beside today's, first. One stored session, like `run`'s; --size runs them at another
    size (--size tiny --check-only: a quick check that every seed builds and answers)."""
    exports = {e.dest: kw.pop(e.dest) for e in EXPORTERS}
    allow_contended = kw.pop("allow_contended")
    chosen = seeds.select(load_suites([], list(kw["suite_dirs"])), list(names))
    opts = from_command(tuple(s.name for s, _ in chosen), exports=exports, wide=wide_view(kw.pop("wide")), **kw)
    opts.seeds = [cfg.name for _, cfg in chosen]
    opts.seed_rows = list(rows)
    opts.target_ms = None  # the seeds' own work per run: their figures are for it
    opts.db = local_db(opts.db or default_db(), "seeds")
    sys.exit(measure_and_show(opts, allow_contended))


@click.command("dimension")
@click.argument("suites", nargs=-1)
@click.option("--pilot", type=click.IntRange(2), default=3, show_default=True, help="Pilot sessions to run.")
@click.option("--runs", type=click.IntRange(3), default=10, show_default=True, help="Rounds of each pilot session.")
@click.option("--from", "stored", metavar="ID,ID,...", help="Analyse these stored sessions instead of running pilots.")
@click.option("--size", "sizes", multiple=True, metavar="NAME|SUITE=NAME", help="Dataset, as `run` takes it.")
@click.option("--variant", "variants", multiple=True, metavar="GLOB", help="Only these variants, as `run` takes them.")
@click.option("--toolchain", "toolchains", multiple=True, metavar="NAME", help="Only this toolchain.")
@click.option(
    "--precision", type=Percent(), default=0.02, show_default="2%", metavar="PERCENT", help="The half-width the counts are computed for."
)
@DB_OPTION
def dimension_cmd(
    suites: tuple[str, ...],
    pilot: int,
    runs: int,
    stored: str | None,
    sizes: tuple[str, ...],
    variants: tuple[str, ...],
    toolchains: tuple[str, ...],
    precision: float,
    db: Path | str | None,
) -> None:
    """How a ratio's noise splits between rounds and sessions on this machine (Kalibera & Jones), and the
    rounds per session and sessions that reach --precision for the least time. Runs --pilot sessions of the
    cells (plain rounds: no racing, precision target or A/A) unless --from names stored sessions."""
    from io import StringIO

    from iorace.analyse import dimension, session_spread
    from iorace.analyse.stats import Z95

    path = db or default_db()
    if not stored:
        path = local_db(path, "dimension's pilot sessions (--from reads stored ones from a server)")
    if stored:
        if not all(p.strip().isdigit() for p in stored.split(",")):
            raise UsageError(f"--from {stored}: expected session ids joined by commas")
        ids = [int(p) for p in stored.split(",")]
    else:
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
                db=path,
                wide=True,
            )
            ids.append(run_session(opts, plan(opts), quiet, err_console).session_id)
    store = Store(path)
    loaded, left_out = one_host([_only(store.load(i), suites) for i in ids], "dimension")
    if left_out:  # a session level across hosts would be the hosts' difference, not the sessions'
        err_console.print(escape(left_out), highlight=False)
        ids = [s.id for s in loaded]
    found = dimension.levels(loaded)
    if not found:
        raise UsageError("no cell was measured in two of the sessions: nothing to dimension")
    rows = [[lv.cell, f"{math.sqrt(lv.round_var):.2%}", f"{math.sqrt(lv.session_var):.2%}"] for lv in found]
    console.print(
        rich_table(
            tables.Table(
                "variance of each cell's log ratio to its table's fastest, per level",
                "",
                [tables.Column("cell", "left", wrap=True), tables.Column("sd between rounds"), tables.Column("sd between sessions")],
                rows,
            )
        )
    )
    round_var = statistics.median(lv.round_var for lv in found)
    # The session level from the changes between consecutive sessions, fitted on their median
    # (analyse/session_spread.py): the median of the cells' own estimates, each clipped at 0 and most of them
    # from two sessions, said 0.00% where the top ratios had moved by 3.4%
    level = session_spread.pooled_fit(loaded)
    session_var = level[0] ** 2 if level else statistics.median(lv.session_var for lv in found)
    round_s, session_s = dimension.costs(loaded)
    best = dimension.optimal_rounds(round_var, session_var, round_s, session_s)
    console.print(
        escape(
            f"median sd between rounds {math.sqrt(round_var):.2%}, between sessions {math.sqrt(session_var):.2%}; a round "
            f"takes {round_s:.2f} s, a session {session_s:.1f} s besides its rounds (sessions {', '.join(map(str, ids))})"
        ),
        highlight=False,
    )
    forecast = dimension.raced_forecast(found, dimension.fastest_run_s(loaded), round_s, precision, RACE_MIN_ROUNDS)
    floor = Z95 * math.sqrt(session_var)  # one session's half-width at best: its intervals carry the session level
    if forecast is not None:
        console.print(
            escape(
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
            ),
            highlight=False,
        )
    if best is None:
        n = dimension.rounds_needed(round_var, precision)
        console.print(
            escape(
                f"nothing measurable moves between sessions here: one session of {n} rounds reaches "
                f"+-{precision:.1%} for the median cell (about {n * round_s / 60:.0f} minutes of rounds of every cell)"
            ),
            highlight=False,
        )
        return
    for r in dict.fromkeys([best, runs]):
        k = dimension.sessions_needed(round_var, session_var, r, precision)
        label = "the rounds that buy most precision for the time" if r == best else "as the pilots ran"
        took = f" (about {k * (r * round_s + session_s) / 60:.0f} minutes; `iorace show A,B,...` pools them)" if k else ""
        console.print(
            escape(
                f"{r} rounds per session ({label}): "
                + (f"{k} sessions reach +-{precision:.1%}{took}" if k else f"more than 100 sessions for +-{precision:.1%}")
            ),
            highlight=False,
        )


COMMANDS = [run, seeds_cmd, dimension_cmd]


def _only(session: SessionData, suites: tuple[str, ...]) -> SessionData:
    """A stored session (--from) with only the cells of SUITES (all of them when none is named): each suite's
    noise is its own, and a make bench session holds every suite."""
    if not suites:
        return session
    if missing := [s for s in suites if s not in {c.suite for c in session.cells}]:
        raise UsageError(f"--from: session {session.id} has no cell of suite {missing[0]}")
    return dataclasses.replace(session, cells=[c for c in session.cells if c.suite in suites])
