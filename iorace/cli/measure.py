"""The commands that measure: run, seeds (each seed's configuration), dimension (how many rounds a precision costs)."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

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
from iorace.core.options import Percent, from_command, run_options, seeds_options
from iorace.core.paths import default_db
from iorace.export import EXPORTERS
from iorace.manifest import seeds
from iorace.manifest.suites import load_suites
from iorace.report import tables
from iorace.report.terminal import rich_table
from iorace.store.db import Store


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
    from iorace.run import dimensioning

    path = db or default_db()
    if stored:
        ids = dimensioning.stored_ids(stored)
    else:
        path = local_db(path, "dimension's pilot sessions (--from reads stored ones from a server)")
        ids = dimensioning.run_pilots(suites, pilot, runs, sizes, variants, toolchains, path, err_console)
    loaded, left_out = dimensioning.load(Store(path), ids, suites)
    if left_out:
        err_console.print(escape(left_out), highlight=False)
        ids = [s.id for s in loaded]
    found = dimensioning.dimensioning(loaded, ids, precision, runs)
    rows = [[lv.cell, f"{math.sqrt(lv.round_var):.2%}", f"{math.sqrt(lv.session_var):.2%}"] for lv in found.levels]
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
    for line in found.lines:
        console.print(escape(line), highlight=False)


COMMANDS = [run, seeds_cmd, dimension_cmd]
