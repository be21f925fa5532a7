"""One `iorace run`: manifest -> build -> data -> verify -> measure -> store -> report/export."""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import os
import random
import shlex
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape
from rich.progress import TaskID

from iorace import __version__
from iorace.analyse.stats import NO_LEVEL
from iorace.core import machine
from iorace.core.errors import UsageError
from iorace.core.layout import LayoutSet
from iorace.core.options import RunOptions
from iorace.core.paths import REPO_SUITES, default_db
from iorace.core.status import BAD_STATES, Status
from iorace.manifest import seeds
from iorace.manifest.cells import OK, PLANNED, SKIPPED, Cell, dataset_refs, expand
from iorace.manifest.suites import load_suites
from iorace.run import build, counters, datasets, prior, reference
from iorace.run.calibrate import calibrate, probe
from iorace.run.encoded import size_encodings
from iorace.run.hotspot import hotspot
from iorace.run.layouts import balance, layouts_for
from iorace.run.measure import Randomize, measure
from iorace.run.progress import Stages, stages_for
from iorace.run.race import Plan
from iorace.run.recording import SessionRecorder
from iorace.run.spinners import idle_spinners
from iorace.run.verify import verify_all
from iorace.store.db import Store

EXIT_OK, EXIT_CELLS_FAILED, EXIT_INTERRUPTED = 0, 1, 130


def _now() -> str:
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")


def plan(opts: RunOptions) -> list[Cell]:
    cells = _seed_cells(opts) if opts.seeds else _suite_cells(opts)
    if opts.metric:
        for cell in cells:
            cell.metric = opts.metric
    return cells


def _suite_cells(opts: RunOptions) -> list[Cell]:
    suites = load_suites(opts.suites, opts.suite_dirs)
    named = {v.split("=", 1)[0] for v in opts.sizes if "=" in v}
    if unknown := named - {s.name for s in suites}:
        raise UsageError(f"--size {sorted(unknown)[0]}=...: that suite is not part of this run")
    inputs = [datasets.check_user_file(p) for p in opts.inputs]
    cells: list[Cell] = []
    for suite in suites:
        refs = dataset_refs(suite, opts.sizes, inputs)
        cells += expand(suite, refs, opts.variants, opts.toolchains, opts.profiles, opts.params)
    if not cells:
        what = " ".join(
            [
                *(f"--variant {v}" for v in opts.variants),
                *(f"--toolchain {t}" for t in opts.toolchains),
                *(f"--profile {p}" for p in opts.profiles),
            ]
        )
        raise UsageError(f"no cell matches {what or 'the selection'} (see `iorace list`)")
    return cells


def _seed_cells(opts: RunOptions) -> list[Cell]:
    """`iorace seeds`: the cells each seed's rows name, at the seed's size unless --size says otherwise."""
    chosen = seeds.select(load_suites([], opts.suite_dirs), opts.seeds)
    named = {v.split("=", 1)[0] for v in opts.sizes if "=" in v}
    if unknown := named - {s.name for s, _ in chosen}:
        raise UsageError(f"--size {sorted(unknown)[0]}=...: that suite is not part of this run")
    cells: list[Cell] = []
    if opts.seed_rows and not any(seeds.rows_matching(suite, opts.seed_rows) for suite, _ in chosen):
        labels = [r.label for suite, _ in chosen for r in suite.manifest.seed_rows()]
        shown = ", ".join(labels[:6]) + (f", ... ({len(labels)} rows)" if len(labels) > 6 else "")
        raise UsageError(f"--row {' --row '.join(opts.seed_rows)}: no seed row matches (rows: {shown})")
    for suite, _ in chosen:
        cells += seeds.cells(suite, opts.sizes or [], opts.seed_rows)
    return cells


@dataclass
class Finished:
    """A session run to its end (or interrupted): where it is stored, and the exit code `iorace run` gives."""

    store: Store
    session_id: int
    exit_code: int


def run_session(opts: RunOptions, cells: list[Cell], console: Console, err: Console, on_suite_done: SuiteDone | None = None) -> Finished:
    """Build `cells` (from plan(opts), which raises every usage error before anything is built or stored),
    then verify, count and measure them suite by suite, storing everything as it goes. Prints progress and
    warnings; the report is the caller's (the stored session, shown as `iorace show` shows it), suite by
    suite through on_suite_done as each is measured, then whole at the end."""
    machine_name = machine.name(opts.machine_name)
    seed = opts.seed if opts.seed is not None else random.SystemRandom().randrange(2**31)
    m = machine.info()
    for w in machine.warnings(m, []):
        err.print(f"[yellow]warning:[/] {escape(w)}", highlight=False)
    store = Store(opts.db or default_db())
    command_line, revision = shlex.join(["iorace", *sys.argv[1:]]), machine.git_revision(REPO_SUITES.parent)
    session_id = store.begin_session(_now(), command_line, opts.stored(seed), m, {}, revision, __version__, machine_name=machine_name)
    for suite in {c.suite.name: c.suite for c in cells}.values():
        store.save_suite_settings(session_id, suite.name, suite.manifest.analysis_settings())
    store.commit()
    status, busy = "done", ""
    recorder = SessionRecorder(store, session_id)
    try:
        busy = _execute(cells, opts, recorder, seed, console, on_suite_done)
    except KeyboardInterrupt:
        status = "interrupted"
    finally:
        for cell in cells:
            if cell.status == PLANNED:  # never reached: say so instead of leaving it looking pending
                cell.status, cell.detail = SKIPPED, "not reached: the session was interrupted"
            recorder.save(cell)
        store.set_toolchains(session_id, {c.toolchain.name: c.toolchain_version for c in cells if c.toolchain_version})
        store.finish_session(session_id, _now(), status)
    if busy:  # one line: the machine was busy while measuring
        err.print(f"[yellow]warning:[/] {escape(busy)}", highlight=False, soft_wrap=True)
    if status == "interrupted":
        return Finished(store, session_id, EXIT_INTERRUPTED)
    bad = [c for c in cells if c.status in BAD_STATES and not (c.known_wrong and c.status == Status.WRONG)]
    return Finished(store, session_id, EXIT_CELLS_FAILED if bad else EXIT_OK)


SuiteDone = Callable[[Store, int, str], None]
"""Called with the store, the session's id and a suite's name as soon as that suite is measured (or verified,
when nothing of it is timed): its tables can be shown while the next suite runs."""


def confine(cells: list[Cell], one_cpu: bool) -> None:
    """Give each cell of its suite's [one_cpu] its CPU: the last one this process may use (the harness sleeps in
    wait4 while a run goes on, wherever it is), so a pipe config's client and server share it. With
    --no-one-cpu (or one CPU only) they stay free, and the note says so."""
    allowed = sorted(os.sched_getaffinity(0))
    for c in cells:
        if not (why := c.one_cpu_why):
            continue
        if one_cpu and len(allowed) > 1:
            c.cpus, c.cpus_note = (allowed[-1],), f"on one CPU ({why})"
        else:
            c.cpus, c.cpus_note = (), "any CPU (--no-one-cpu)" if not one_cpu else "any CPU (this machine gives one)"


def build_jobs(opts: RunOptions) -> int:
    """How many builds run at once: --build-jobs, else one per CPU."""
    return opts.build_jobs or os.cpu_count() or 1


def _execute(
    cells: list[Cell], opts: RunOptions, recorder: SessionRecorder, seed: int, console: Console, on_suite_done: SuiteDone | None
) -> str:
    """Build every cell (in parallel), then each suite in turn: data, verify, count, measure, and its tables
    (on_suite_done); returns a warning when the machine was busy around measuring, else ''."""

    def save(cell: Cell) -> None:
        # committed at once, here for every phase: a transaction left open across builds or verification runs
        # (minutes) would keep another session writing to the same SQLite file locked out
        recorder.save(cell)
        recorder.commit()

    confine(cells, opts.one_cpu)
    before: dict | None = None  # the machine before the first suite is measured
    with stages_for(console) as progress:
        _build(cells, progress, save, build_jobs(opts), 1 if opts.check_only else opts.layouts, recorder.deferred)  # checked: as linked
        for suite_name in dict.fromkeys(c.suite.name for c in cells):
            runnable = [c for c in cells if c.suite.name == suite_name and c.status == PLANNED]
            with recorder.deferred():  # data and answers: no wait but the data's generation
                _prepare(runnable, progress, save, f"data {suite_name}")
            _verify(runnable, opts, recorder, progress, save, suite_name)
            if runnable and runnable[0].suite.manifest.encoded_args:
                _size_encodings(runnable, opts, progress, save, suite_name)
            if opts.instructions:
                _count_instructions([c for c in runnable if c.status == OK], opts, progress, save)
            if opts.counters:
                _count_perf([c for c in runnable if c.status == OK], opts, progress, save)
            if not opts.check_only and opts.layouts > 1:
                _balance_layouts([c for c in runnable if c.status == OK and c.layouts], opts, progress, save)
            if not opts.check_only and any(c.status == OK for c in runnable):
                if before is None:
                    before = machine.busy_sample()
                _measure(runnable, opts, recorder, seed, progress, save)
            recorder.commit()
            if on_suite_done is not None:
                on_suite_done(recorder.store, recorder.session_id, suite_name)
        return machine.busy_warning(before, machine.busy_sample()) if before is not None else ""


def _verify(
    runnable: list[Cell], opts: RunOptions, recorder: SessionRecorder, progress: Stages, save: Callable[[Cell], None], suite_name: str
) -> None:
    """Each cell's verification run; with --target-ms (and not --check-only, which checks the manifest's sizes),
    at a tenth of its work first (or at the size this machine's latest session at the same target gave it:
    prior.stored_sizes), then sized from that run and verified again at its size (run/calibrate.py); one
    verification run per CPU at a time (verify.verify_all)."""
    target_ms = None if opts.check_only else opts.target_ms
    manifest_work = {id(c): dict(c.params) for c in runnable}
    stored: tuple[int, set[int]] | None = None
    if target_ms is not None and runnable:
        manifest = runnable[0].suite.manifest
        here = machine.name(opts.machine_name)
        sizes = prior.stored_sizes(
            recorder.store, suite_name, manifest.scale_params, manifest.work_params, here, target_ms, recorder.session_id
        )
        reused = probe(runnable, sizes)
        stored = (sizes.session_id, reused) if sizes is not None else None
    task = progress.add_task(f"verify {suite_name}", total=len(runnable), what="")

    def done(cell: Cell) -> None:
        save(cell)
        progress.update(task, what=cell.label)
        progress.advance(task)

    verify_all(runnable, opts.timeout, recorder, build_jobs(opts), done)
    if target_ms is not None and any(c.status == OK for c in runnable):
        sizing = progress.add_task(f"size {suite_name}", total=len(runnable), what="")

        def advance(label: str) -> None:
            progress.update(sizing, what=label)
            progress.advance(sizing)

        calibrate(runnable, target_ms, opts.timeout, recorder, save, manifest_work, advance, build_jobs(opts), stored)
        progress.stop_task(sizing)


def _size_encodings(runnable: list[Cell], opts: RunOptions, progress: Stages, save: Callable[[Cell], None], suite_name: str) -> None:
    """The size of what each verified cell encodes (run/encoded.py), untimed, before anything is timed."""
    cells = [c for c in runnable if c.status == OK]
    task = progress.add_task(f"sizes {suite_name}", total=len(cells), what="")

    def done(cell: Cell) -> None:
        save(cell)
        progress.update(task, what=cell.label)
        progress.advance(task)

    size_encodings(cells, opts.timeout, done)
    progress.stop_task(task)


def _build(
    cells: list[Cell],
    progress: Stages,
    save: Callable[[Cell], None],
    jobs: int,
    layouts: int = 1,
    deferred: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext,
) -> None:
    """Every cell's build, `jobs` at a time in threads (a build is a subprocess: the GIL is free meanwhile);
    cells of one build key are built once and share its outcome, and its `layouts` code layouts
    (run/layouts.py: relinked in the same thread; found in the cache when warm). The store and the progress
    are touched in this thread only (a SQLite connection belongs to its thread)."""
    task = progress.add_task("build", total=len(cells), what="")
    by_key: dict[str, list[Cell]] = {}
    with deferred():  # one commit for the plan (recording.SessionRecorder.deferred)
        for cell in cells:  # stored in the plan's order first: the cells' row ids are the reports' order
            if cell.status == PLANNED:  # not a cell the manifest skips on this dataset
                build.prepare(cell)
            if cell.status == PLANNED:
                by_key.setdefault(cell.build_key, []).append(cell)
            else:
                progress.advance(task)
            save(cell)
    if not by_key:
        return
    pool = ThreadPoolExecutor(max_workers=max(1, min(jobs, len(by_key))), thread_name_prefix="iorace-build")
    try:
        running = {pool.submit(_build_and_link, same[0], layouts): same for same in by_key.values()}
        for done in as_completed(running):
            outcome, linked = done.result()
            for cell in running[done]:
                outcome.apply(cell)
                cell.layouts = linked
                progress.update(task, what=cell.label)
                save(cell)
                progress.advance(task)
    except BaseException:  # Ctrl-C: no build starts, the running ones are killed; their cells stay planned
        pool.shutdown(wait=False, cancel_futures=True)
        build.stop_builds()
        raise
    finally:
        pool.shutdown(wait=True)
        build.resume_builds()


def _build_and_link(cell: Cell, layouts: int) -> tuple[build.Outcome, LayoutSet]:
    """A build key's build, then its code layouts (none when it failed, or for --layouts 1)."""
    outcome = build.compile_key(cell)
    if outcome.build_dir is None or layouts < 2:
        return outcome, LayoutSet()
    built = copy.copy(cell)  # the worker thread reads a cell, changes none (the main thread applies outcomes)
    built.build_dir = outcome.build_dir
    return outcome, layouts_for(built, layouts)


def _prepare(runnable: list[Cell], progress: Stages, save: Callable[[Cell], None], stage: str = "data") -> None:
    """Data, expected answers and the exact command line of each cell."""
    refs = {id(c.dataset): c for c in runnable}
    task = progress.add_task(stage, total=len(refs), what="")
    for cell in refs.values():
        progress.update(task, what=f"{cell.suite.name}/{cell.dataset.name}")
        datasets.materialize(cell.suite, cell.dataset)
        progress.advance(task)
    for cell in runnable:
        cell.expected = reference.expected(cell.suite, cell.dataset, cell.params)
        cell.units = reference.units(cell.suite, cell.dataset, cell.params)
        assert cell.dataset.path is not None  # materialized above
        cell.argv = build.run_argv(cell, cell.dataset.path)
        save(cell)


def _measure(
    runnable: list[Cell], opts: RunOptions, recorder: SessionRecorder, seed: int, progress: Stages, save: Callable[[Cell], None]
) -> None:
    """Timed rounds, interleaved within each suite."""
    for suite_name in dict.fromkeys(c.suite.name for c in runnable):
        suite_cells = [c for c in runnable if c.suite.name == suite_name and c.status == OK]
        if not suite_cells:
            continue
        tables = {c.table for c in suite_cells}
        budget = opts.suite_budget(len(tables))
        max_runs, note = prior.round_cap(
            recorder.store,
            suite_name,
            tables,
            suite_cells[0].suite.manifest.scale_params,
            machine.name(opts.machine_name),
            recorder.session_id,
            opts.max_runs,
            opts.runs,
            opts.precision,
            budget,
        )
        # Known before measuring, so a session interrupted halfway is still reported with it
        level = prior.session_spread(recorder.store, suite_name, machine.name(opts.machine_name), opts.target_ms, recorder.session_id)
        if level is not None:
            settings = suite_cells[0].suite.manifest.analysis_settings()
            recorder.store.save_suite_settings(recorder.session_id, suite_name, {**settings, **level.as_setting()})
            recorder.store.commit()
            scope = " (every suite's: too few cells of its own)" if level.pooled else ""
            note += f" (sd {level.level.text()} between sessions here{scope}, from sessions {', '.join(map(str, level.sessions))})"
            here = machine.name(opts.machine_name)
            if left_out := prior.other_hosts_note(recorder.store, suite_name, here, recorder.session_id, "the session level"):
                note += f" ({left_out})"
        race_plan = Plan(
            opts.runs,
            max_runs,
            opts.precision,
            budget,
            opts.race,
            Plan.floor_of(opts.budget_per_table, opts.max_runs),
            level.level if level is not None else NO_LEVEL,  # the precision is judged as the report will draw it
            opts.layouts if opts.layouts > 1 and not opts.check_only else 1,  # end on whole turns of the layouts: each used alike
        )
        rounds = opts.warmup + race_plan.most_rounds  # at most: racing and precision may stop earlier
        if budget is not None:  # the budget, not a count, ends them: the progress counts 3 x --runs, and grows past it
            rounds = min(rounds, opts.warmup + 3 * opts.runs)
        budgeted = budget is not None
        task = progress.add_task(f"measure {suite_name}{note}", total=rounds * len(suite_cells), what="", open_ended=budgeted)

        def advance(label: str, task: TaskID = task) -> None:
            progress.update(task, what=label)
            progress.advance(task)

        with idle_spinners(opts.idle_spinners):  # a VM's vCPUs kept from halting while it measures
            measure(
                suite_cells,
                runs=opts.runs,
                warmup=opts.warmup,
                timeout=opts.timeout,
                sink=opts.sink,
                recorder=recorder,
                seed=seed,
                advance=advance,
                cell_changed=save,
                randomize=Randomize(pages=opts.replace_pages, env=opts.pad_env, rivals=opts.order == "rivals"),
                aa=opts.aa,
                layouts=opts.layouts,
                plan=race_plan,
            )
        progress.stop_task(task)  # its "done" line before its tables, also when the race ended it early


def _balance_layouts(cells: list[Cell], opts: RunOptions, progress: Stages, save: Callable[[Cell], None]) -> None:
    """Each cell's layouts balanced by its hottest function (layouts.balance): one run under perf record a
    command line (none on a warm cache), then the relinks that put the function in its places in turn."""
    task = progress.add_task("layouts", total=len(cells), what="")

    def balanced(cell: Cell) -> tuple[str, LayoutSet]:
        found = hotspot(cell, cell.layouts.replaces, opts.timeout)
        return found.symbol, balance(cell, cell.layouts, found.symbol, found.text())

    # one cell's profile and relinks a worker (they are waits on perf, nm and lld); cells of one program share
    # their relinks, which are made under a temporary name and renamed (layouts._link): no two workers clash
    by_program: dict[str, list[Cell]] = {}
    for cell in cells:
        by_program.setdefault(cell.layouts.replaces, []).append(cell)
    with ThreadPoolExecutor(max_workers=build_jobs(opts)) as pool:
        for group, done in zip(by_program.values(), pool.map(lambda g: [balanced(c) for c in g], by_program.values()), strict=True):
            for cell, (symbol, layouts) in zip(group, done, strict=True):
                cell.hot_symbol, cell.layouts = symbol, layouts
                progress.update(task, what=cell.label)
                save(cell)
                progress.advance(task)


def _count_perf(cells: list[Cell], opts: RunOptions, progress: Stages, save: Callable[[Cell], None]) -> None:
    """One extra run per verified cell under perf stat: the counters the kernel allows here."""
    task = progress.add_task("counters", total=len(cells), what="")
    for cell in cells:
        progress.update(task, what=cell.label)
        counters.perf_count(cell, opts.timeout)
        save(cell)
        progress.advance(task)


def _count_instructions(cells: list[Cell], opts: RunOptions, progress: Stages, save: Callable[[Cell], None]) -> None:
    """One extra run per verified cell under cachegrind: a count that the machine's noise cannot move."""
    why_not = counters.why_unavailable()
    task = progress.add_task("instructions", total=len(cells), what="")
    for cell in cells:
        progress.update(task, what=cell.label)
        if why_not:
            cell.instructions_note = why_not
        else:
            cell.instructions, cell.instructions_note = counters.count(cell, opts.timeout)
        save(cell)
        progress.advance(task)
