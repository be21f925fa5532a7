"""The `iorace` command: list, doctor, run, seeds, show, report, compare, dimension, history, push, machines,
compare-machines."""

from __future__ import annotations

import math
import os
import signal
import statistics
import sys
from pathlib import Path
from typing import Any, TextIO

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from iorace import counters, dialect, document, machine, seeds, tables
from iorace.errors import UsageError
from iorace.export import EXPORTERS, export_all
from iorace.manifest import SuiteManifest
from iorace.options import CommandFunc, Percent, from_command, run_options, seeds_options
from iorace.paths import default_db
from iorace.pool import pool
from iorace.report import print_session, rich_table
from iorace.session import run_session
from iorace.store import StillRunning, Store, open_existing
from iorace.suites import base_toolchains, find_suite_dirs, load_suite, load_suites
from iorace.toolchains import harness_python, probe


def _width(stream: TextIO) -> int | None:
    """Full-width tables when output goes to a file or CI log (rich would wrap at 80 columns)."""
    return None if stream.isatty() else int(os.environ.get("COLUMNS", "260"))


console = Console(highlight=False, width=_width(sys.stdout))
err_console = Console(stderr=True, highlight=False, width=_width(sys.stderr))

SUITE_DIR_OPTION = click.option(
    "--suite-dir",
    "suite_dirs",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Another folder of suites (or one suite folder). Repeatable.",
)


def export_options(command: CommandFunc) -> CommandFunc:
    """One --export-NAME FILE option per registered exporter (iorace.export.EXPORTERS)."""
    for e in reversed(EXPORTERS):
        command = click.option(e.option, e.dest, type=click.Path(path_type=Path), metavar="FILE", help=e.help)(command)
    return command


WIDE_OPTION = click.option(
    "--wide",
    is_flag=True,
    help="Every column (user, sys, CPU, RSS, answer, spreads, ...). Default on a terminal: "
    "the compact view; piped output always has every column.",
)


def wide_view(wide: bool) -> bool:
    return wide or not sys.stdout.isatty()


class Database(click.ParamType):
    """--db, --to: a SQLite file, or a PostgreSQL server's postgresql:// URL."""

    name = "FILE|URL"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Path | str:
        if isinstance(value, Path):
            return value
        try:
            return dialect.parse_location(str(value))
        except UsageError as e:
            self.fail(str(e), param, ctx)


def _default_db_text() -> str:
    db = default_db()
    return dialect.redact(db) if isinstance(db, str) else str(db)


DB_OPTION = click.option(
    "--db",
    type=Database(),
    default=None,
    help=f"The sessions' database: a SQLite file, or a postgresql:// URL (`run` measures into a file) [default: {_default_db_text()}]",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="iorace")
def cli() -> None:
    """Race implementations of the same I/O or serialization job and say which one wins, by how much, and why."""


@cli.command("list")
@click.argument("suite", required=False)
@SUITE_DIR_OPTION
def list_cmd(suite: str | None, suite_dirs: tuple[Path, ...]) -> None:
    """Suites, their variants and toolchains, and whether each cell can run here."""
    for s in load_suites([suite] if suite else [], list(suite_dirs)):
        m = s.manifest
        params = " ".join(f"{k}={'|'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in m.params.items())
        console.print(f"[bold]{escape(s.name)}[/] - {escape(m.title)}")
        console.print(escape(f"  params: {params or '-'} · answer: {m.answer} · metric: {m.metric} · {s.dir}"))
        # The manifest's description is the one place a dataset is described (a suite's README points here).
        for name, ds in m.datasets.items():
            console.print(escape(f"  dataset {name}: {ds.description or '-'}"), highlight=False)
        for line in _seed_lines(m):
            console.print(escape(line), highlight=False)
        t = Table(show_header=True, header_style="bold", box=None, padding=(0, 2, 0, 2))
        for col in ("variant", "kind", "toolchain", "profiles", "here", "description"):
            t.add_column(col, overflow="fold", no_wrap=col in {"variant", "toolchain"})
        for v in m.variants:
            names = v.toolchains or [n for n, tc in s.toolchains.items() if tc.language == v.language]
            for i, name in enumerate(names):
                tc = s.toolchains.get(name)
                pr = probe(tc) if tc else None
                here = "[green]ready[/]" if pr and pr.available else f"[yellow]{escape(pr.reason if pr else 'unknown toolchain')}[/]"
                profiles = ", ".join(v.profiles or m.default_profiles or (tc.default_profiles if tc else []))
                t.add_row(
                    escape(v.key) if i == 0 else "",
                    v.kind if i == 0 else "",
                    escape(name),
                    profiles,
                    here,
                    escape(v.description) if i == 0 else "",
                )
        console.print(t)
        # Toolchains the suite declares for a language it cannot run here (capnp's Java and Go): say why.
        used = {n for v in m.variants for n in (v.toolchains or [n for n, tc in s.toolchains.items() if tc.language == v.language])}
        for name in sorted(set(m.toolchains) - used):
            tc = s.toolchains[name]
            pr = probe(tc)
            if not pr.available:
                console.print(escape(f"  no {tc.language} row: toolchain {name}: {pr.reason}"), highlight=False)
        console.print()


def _seed_lines(m: SuiteManifest) -> list[str]:
    """A suite's seed (`iorace seeds NAME`): its rows, and those that cannot run here with why."""
    cfg = m.seed_config
    if cfg is None:
        return []
    rows = m.seed_rows()
    out = [f"  seed {cfg.name}: {len(rows)} rows at dataset {cfg.size} (iorace seeds {cfg.name})"]
    return out + [f"  seed row {row.label!r} cannot run here: {row.why}" for row in rows if row.why]


@cli.command()
@SUITE_DIR_OPTION
def doctor(suite_dirs: tuple[Path, ...]) -> None:
    """Every toolchain with its version (or what installs it), the machine, and what threatens timing."""
    toolchains = dict(base_toolchains())
    for d in find_suite_dirs(list(suite_dirs)).values():
        try:
            toolchains.update(load_suite(d).toolchains)
        except UsageError as e:
            err_console.print(f"[yellow]warning:[/] {escape(str(e))}")
    t = Table(title="toolchains", title_justify="left", header_style="bold")
    for col in ("toolchain", "language", "found", "version or how to install"):
        t.add_column(col, overflow="fold")
    for name, tc in sorted(toolchains.items(), key=lambda kv: (kv[1].language, kv[0])):
        pr = probe(tc)
        t.add_row(
            escape(name), tc.language, "[green]yes[/]" if pr.available else "[red]no[/]", escape(pr.version if pr.available else pr.reason)
        )
    console.print(t)
    console.print(
        escape(
            f"python variants run on {harness_python()} (the harness's own interpreter, with the "
            "suites' Python packages), whatever `python3` comes first on PATH"
        ),
        highlight=False,
    )
    m = machine.info()
    mt = Table(title="machine", title_justify="left", show_header=False)
    for k in ("cpu_model", "cores", "cpu_mhz", "memory_gb", "kernel", "governor", "load", "python", "aslr", "data_fs"):
        mt.add_row(k, escape(str(m[k])))
    console.print(mt)
    for line in counters.doctor_lines():
        console.print(escape(line), highlight=False)
    warnings = machine.warnings(m, machine.busy_processes())
    for w in warnings:
        console.print(f"[yellow]warning:[/] {escape(w)}")
    if not warnings:
        console.print("[green]nothing on this machine should disturb timings[/]")


@cli.command()
@click.argument("suites", nargs=-1)
@run_options
@DB_OPTION
@export_options
@WIDE_OPTION
@SUITE_DIR_OPTION
def run(suites: tuple[str, ...], **kw: Any) -> None:
    """Build, verify and measure the cells of SUITES (all suites when none is named)."""
    exports = {e.dest: kw.pop(e.dest) for e in EXPORTERS}
    opts = from_command(suites, exports=exports, wide=wide_view(kw.pop("wide")), **kw)
    opts.db = _local(opts.db or default_db(), "run")
    sys.exit(run_session(opts, console, err_console))


@cli.command("seeds")
@click.argument("names", nargs=-1, metavar="[SEED]...")
@seeds_options
@DB_OPTION
@export_options
@WIDE_OPTION
@SUITE_DIR_OPTION
def seeds_cmd(names: tuple[str, ...], **kw: Any) -> None:
    """Each seed's question answered today: run the seeds (all when none is named: readbytes, lines,
    serialize, readexact, capnp) at their own configuration, as their suites' [seed] blocks declare it (the
    seed's data size, parameters, toolchains and build profiles), and print each seed's table, its
    published figures beside today's, first. One stored session, like `run`'s; --size runs them at another
    size (--size tiny --check-only: a quick check that every seed builds and answers)."""
    exports = {e.dest: kw.pop(e.dest) for e in EXPORTERS}
    chosen = seeds.select(load_suites([], list(kw["suite_dirs"])), list(names))
    opts = from_command(tuple(s.name for s, _ in chosen), exports=exports, wide=wide_view(kw.pop("wide")), **kw)
    opts.seeds = [cfg.name for _, cfg in chosen]
    opts.db = _local(opts.db or default_db(), "seeds")
    sys.exit(run_session(opts, console, err_console))


@cli.command()
@click.argument("sessions", type=int, nargs=-1)
@DB_OPTION
@export_options
@WIDE_OPTION
def show(sessions: tuple[int, ...], db: Path | str | None, wide: bool, **exports: Path | None) -> None:
    """Print a stored session again (the latest by default), and export it. Given several sessions of the
    same cells, one result pooled from all of them (each ratio's interval resamples the sessions, then
    their rounds)."""
    store = open_existing(db or default_db())
    loaded = pool([store.load(s) for s in sessions] if sessions else [store.load(None)])
    report = document.build(loaded)  # analysed once, whatever is printed and exported
    print_session(report, console, wide=wide_view(wide))
    export_all(report, exports, lambda line: console.print(escape(line), highlight=False))


@cli.command("report")
@click.argument("sessions", type=int, nargs=-1)
@click.option(
    "--html",
    "html_path",
    type=click.Path(path_type=Path),
    required=True,
    metavar="FILE",
    help="Write one self-contained HTML file (charts as SVG; opens offline).",
)
@DB_OPTION
def report_cmd(sessions: tuple[int, ...], html_path: Path, db: Path | str | None) -> None:
    """An HTML report of a stored session (the latest by default). Given several sessions, the report is
    their pooled result (as `show` pools them), with a history chart of each cell across all of them."""
    from iorace.export.html import write_html

    if not html_path.resolve().parent.is_dir():
        raise UsageError(f"--html {html_path}: folder {html_path.resolve().parent} does not exist")
    store = open_existing(db or default_db())
    loaded = [store.load(s) for s in sessions] if sessions else [store.load(None)]
    write_html(document.build(pool(loaded)), html_path, loaded)
    console.print(escape(f"wrote {html_path} ({html_path.stat().st_size / 1024:.0f} KB)"), highlight=False)


@cli.command("compare")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@DB_OPTION
@click.option(
    "--threshold", default="5%", show_default=True, metavar="PERCENT", help="A significant change smaller than this is not a regression."
)
@click.option("--markdown", "as_markdown", is_flag=True, help="Markdown for a pull-request comment.")
def compare_cmd(a: str, b: str, db: Path | str | None, threshold: str, as_markdown: bool) -> None:
    """Per cell of both A and B, the change of its ratio to its table's reference (the typical mover), with
    its 95% interval and a z test; the reference's own times with a Mann-Whitney test. A and B: session
    ids (several joined by commas: their pooled result), JSON exports, or git:REV (the latest stored session
    at that revision). Exit code 1 when some cell regressed significantly beyond the threshold or broke."""
    from iorace import compare

    path = db or default_db()
    limit = compare.parse_threshold(threshold)
    side_a = compare.load_side(a, path) if not a.startswith("git:") else None
    side_b = compare.load_side(b, path, side_a)
    side_a = side_a or compare.load_side(a, path, side_b)
    cmp = compare.compare(side_a, side_b, limit)
    if as_markdown:
        click.echo(compare.markdown(cmp), nl=False)
    else:
        console.print(escape(compare.sides_text(cmp)), highlight=False)
        console.print(rich_table(compare.table(cmp)))
        console.print(escape(compare.summary(cmp)), highlight=False)
        for line in compare.what_else_changed(cmp) + compare.other_lines(cmp):
            console.print(f"[yellow]•[/] {escape(line)}", highlight=False, soft_wrap=True)
    for line in cmp.regressions:
        err_console.print(f"regressed: {escape(line)}", highlight=False, soft_wrap=True)
    sys.exit(1 if cmp.regressions else 0)


@cli.command("dimension")
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

    from iorace import dimension

    path = db or default_db()
    if not stored:
        path = _local(path, "dimension's pilot sessions (--from reads stored ones from a server)")
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
            run_session(opts, quiet, err_console)
            ids.append(Store(path).session_ids()[-1])
    store = Store(path)
    loaded = [store.load(i) for i in ids]
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
    session_var = statistics.median(lv.session_var for lv in found)
    round_s, session_s = dimension.costs(loaded)
    best = dimension.optimal_rounds(round_var, session_var, round_s, session_s)
    console.print(
        escape(
            f"median sd between rounds {math.sqrt(round_var):.2%}, between sessions {math.sqrt(session_var):.2%}; a round "
            f"takes {round_s:.2f} s, a session {session_s:.1f} s besides its rounds (sessions {', '.join(map(str, ids))})"
        ),
        highlight=False,
    )
    if best is None:
        n = dimension.rounds_needed(round_var, precision)
        console.print(
            escape(
                f"nothing measurable moves between sessions here: one session of {n} rounds reaches "
                f"+-{precision:.1%} (about {n * round_s / 60:.0f} minutes of rounds)"
            ),
            highlight=False,
        )
        return
    for r in dict.fromkeys([best, runs]):
        k = dimension.sessions_needed(round_var, session_var, r, precision)
        label = "the rounds that buy most precision for the time" if r == best else "as the pilots ran"
        console.print(
            escape(
                f"{r} rounds per session ({label}): "
                + (f"{k} sessions reach +-{precision:.1%}" if k else f"more than 100 sessions for +-{precision:.1%}")
            ),
            highlight=False,
        )


@cli.command("history")
@click.argument("suite")
@click.option("--variant", "variants", multiple=True, metavar="GLOB", help="Only these variants. Repeatable.")
@click.option("--dataset", "datasets", multiple=True, metavar="NAME", help="Only this dataset. Repeatable.")
@click.option("--last", type=click.IntRange(1), default=8, show_default=True, help="Show the last N sessions.")
@click.option("--threshold", default="5%", show_default=True, metavar="PERCENT", help="Flag a significant change beyond this.")
@DB_OPTION
def history_cmd(suite: str, variants: tuple[str, ...], datasets: tuple[str, ...], last: int, threshold: str, db: Path | str | None) -> None:
    """Each cell's primary metric (median) across the stored sessions of SUITE, by date and git revision;
    a significant change from the cell's previous session is flagged (▲ slower, ▼ faster)."""
    from iorace import compare
    from iorace.history import history, history_table

    store = open_existing(db or default_db())
    sessions, series, breaks = history(store, suite, list(variants), list(datasets), compare.parse_threshold(threshold), last)
    console.print(rich_table(history_table(suite, sessions[-last:], series)))
    for line in breaks:  # a changed machine or context under one name: its points are not compared across it
        console.print(f"[yellow]•[/] {escape(line)}", highlight=False, soft_wrap=True)
    flagged = sum(1 for ser in series for p in ser.points if p.flag)
    console.print(
        f"{len(series)} cells, {len(sessions)} sessions; {flagged} significant changes beyond {threshold} flagged", highlight=False
    )


@cli.command("machines")
@DB_OPTION
@click.option("--markdown", "as_markdown", is_flag=True, help="A Markdown table.")
def machines_cmd(db: Path | str | None, as_markdown: bool) -> None:
    """The machines a store has seen: name, fingerprint, CPU model, cores, how many sessions, the first and
    the last. One name with two fingerprints is two rows: the machine changed under its name."""
    from iorace.export.markdown import draw_table
    from iorace.fleet import machines_table

    table = machines_table(open_existing(db or default_db()))
    if as_markdown:
        click.echo(draw_table(table))
    else:
        console.print(rich_table(table))


@cli.command("compare-machines")
@click.argument("suite")
@DB_OPTION
@click.option("--markdown", "markdown_path", type=click.Path(path_type=Path), metavar="FILE", help="Also write it as Markdown to FILE.")
def compare_machines_cmd(suite: str, db: Path | str | None, markdown_path: Path | None) -> None:
    """Which rankings hold across machines: the latest session of each machine that has SUITE; per pair of
    cells of each table, whether their order HOLDS on every machine, FLIPS (significant both ways on
    different machines; what differs between them is named) or is UNRESOLVED; and the rank correlation
    between each two machines."""
    from iorace import fleet

    if markdown_path is not None and not markdown_path.resolve().parent.is_dir():
        raise UsageError(f"--markdown {markdown_path}: folder {markdown_path.resolve().parent} does not exist")
    cmp = fleet.compare_machines(open_existing(db or default_db()), suite)
    console.print(rich_table(fleet.pairs_table(cmp)))
    if cmp.correlations:
        corr = fleet.correlation_table(cmp)
        console.print(rich_table(corr))
        if corr.caption:
            console.print(escape(corr.caption), highlight=False)
    for line in fleet.summary_lines(cmp):
        console.print(escape(line), highlight=False, soft_wrap=True)
    if markdown_path is not None:
        markdown_path.write_text(fleet.markdown(cmp))
        console.print(escape(f"wrote {markdown_path}"), highlight=False)


@cli.command("push")
@click.argument("sessions", type=int, nargs=-1)
@click.option("--to", "target", type=Database(), required=True, help="The shared store: a postgresql:// URL (or a SQLite file).")
@click.option("--all", "every", is_flag=True, help="Every finished session of --db (those already there are skipped).")
@DB_OPTION
def push_cmd(sessions: tuple[int, ...], target: Path | str, every: bool, db: Path | str | None) -> None:
    """Copy stored sessions (the latest by default) with their cells, runs and counters to a shared store,
    each in one transaction there: all of it or nothing. A session is known by its uuid: one already there
    is skipped, so pushing again changes nothing. A session is measured into a local file (no network
    between rounds) and pushed once finished; show, report, compare and history read the store with --db."""
    if every and sessions:
        raise UsageError("push: session ids or --all, not both")
    source = open_existing(db or default_db())
    ids = source.session_ids() if every else list(sessions) or [source.latest()]
    to = Store(target)
    for sid in ids:
        try:
            done = source.push(sid, to)
        except StillRunning as e:
            if not every:
                raise
            err_console.print(f"[yellow]warning:[/] {escape(str(e))}: not pushed", highlight=False, soft_wrap=True)
            continue
        runs = sum(len(c.runs) for c in done.session.cells)
        what = (
            f"pushed as session {done.there} ({len(done.session.cells)} cells, {runs} runs)"
            if done.copied
            else f"already there as session {done.there} (uuid {done.session.uuid}): skipped"
        )
        console.print(escape(f"session {sid} -> {to.where}: {what}"), highlight=False, soft_wrap=True)


def _local(db: Path | str, what: str) -> Path:
    """A command that measures writes to a local SQLite file: a URL is refused, with what to do instead."""
    if isinstance(db, str):
        raise UsageError(
            f"{what} measures into a local SQLite file (no network between rounds), not {dialect.redact(db)}: "
            "pass --db FILE (or unset IORACE_DB), then `iorace push --to URL`"
        )
    return db


def _stop_like_ctrl_c(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _catch_stop_signals() -> None:
    """kill, a closed terminal or a batch system's time limit end a session the way Ctrl-C does: what was
    measured is stored and the session is marked interrupted, not left "running" forever (only SIGKILL
    cannot be caught)."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop_like_ctrl_c)


def main() -> None:
    """Entry point: usage errors and bad input end with one line on stderr and exit code 2."""
    _catch_stop_signals()
    try:
        code = cli.main(standalone_mode=False)
        sys.exit(code or 0)
    except click.exceptions.NoArgsIsHelpError as e:  # bare `iorace`: show help, like git does
        click.echo(e.ctx.get_help())
        sys.exit(0)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        ctx = getattr(e, "ctx", None)
        hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
        print(f"iorace: error: {e.format_message()}{hint}", file=sys.stderr)
        sys.exit(2)
    except UsageError as e:
        print(f"iorace: error: {e}", file=sys.stderr)
        sys.exit(UsageError.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt):
        print("iorace: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    except Exception as e:  # a bug in iorace itself: one line, the traceback on request
        if (line := dialect.user_error(e)) is not None:  # the server's or the user's: a lost connection, a denied permission
            print(f"iorace: error: {line}", file=sys.stderr)
            sys.exit(2)
        if os.environ.get("IORACE_DEBUG"):
            raise
        print(f"iorace: internal error: {type(e).__name__}: {e} (set IORACE_DEBUG=1 for the traceback)", file=sys.stderr)
        sys.exit(3)
