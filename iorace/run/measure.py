"""Timed runs, interleaved: each round runs every cell once in a fresh random order.

Interleaving spreads the machine's drift (other load, thermal state, page
cache) over all cells alike instead of letting it land on whichever cell
happened to run during a noisy minute.

The rounds of a suite are handed to the launcher (iorace-spawn) as one list,
in chunks of whole rounds lasting about CHUNK_S seconds (the first chunk is
one round, which times the rest): the harness sleeps while a chunk runs, and only between chunks
does Python store runs, judge them and update the progress bar.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from iorace.analyse.analysis import AA_SUFFIX
from iorace.analyse.contention import displaced, usual_share
from iorace.core.ids import TableId
from iorace.core.kind import Kind
from iorace.manifest.cells import OK, Cell
from iorace.run.launcher import SINK_NULL, Job, Run, Runner, page_replacer, run_batch
from iorace.run.layouts import TWIN_SEEDS, balance, layouts_for, use_order
from iorace.run.race import Plan, Race
from iorace.run.verify import Recorder, env_for, judge_run

CHUNK_S = 2.0  # aim: the harness wakes about this often while measuring (never within a round)
ENV_PAD_MAX = 4096  # a padding of 0..4095 bytes moves the initial stack through every alignment within a page
ENV_PADS = 16  # paddings drawn per cell and chunk: each run takes one of them at random


@dataclass(frozen=True)
class Randomize:
    """What every round draws anew instead of holding it fixed for the whole session, so that the rounds
    sample it and the interval over rounds covers it (Mytkowicz et al. 2009 for the environment's size,
    Hocko & Kalibera 2010 for where a file's pages sit). ASLR, the kernel's own randomisation of the
    process layout, stays on (machine.py warns when it is off)."""

    pages: bool = False  # re-place each input file's cached pages before each round (iorace-replace-pages)
    env: bool = False  # pad each run's environment (IORACE_PAD) by a random length
    rivals: bool = False  # a round's order puts each table's cells side by side (round_order), not a shuffle


@dataclass
class _Jobs:
    """A chunk's jobs for the launcher: per cell and layout, copies with random paddings (or one, unpadded),
    then the page re-placer over every input file; and what each job is (its padding, its layout)."""

    jobs: list[Job]
    per_cell: list[dict[int | None, list[int]]]  # cell -> layout index (None: the as-linked build) -> job numbers
    pads: list[int]
    layouts: list[int | None]
    replacer: list[int] = field(default_factory=list)  # the page re-placer's job, when there is one

    def schedule(self, chunk: list, index: dict[int, int], pad_rng: random.Random, layout_rng: random.Random) -> list[int]:
        """The job of every run of a chunk, round after round: the page re-placer first, then each cell in the
        round's order, in the layout it runs next (next_layout), with one of that layout's paddings."""
        return [
            j
            for phase, _, order in chunk
            for j in self.replacer + [pad_rng.choice(self.per_cell[index[id(c)]][next_layout(c, phase, layout_rng)]) for c in order]
        ]

    def label(self, run: Run, job: int, padded: bool) -> None:
        """What a run of job `job` records of how it ran: its layout, and its padding when runs are padded."""
        run.layout = self.layouts[job]
        if padded:
            run.env_pad = self.pads[job]


def _jobs(cells: list[Cell], timeout: float, sink: str, randomize: Randomize, rng: random.Random) -> _Jobs:
    out = _Jobs([], [], [], [])
    for c in cells:
        mine: dict[int | None, list[int]] = {}
        layouts: list[int | None] = list(range(len(c.layouts))) or [None]
        copies = max(1, ENV_PADS // len(layouts)) if randomize.env else 1  # about ENV_PADS jobs a cell either way
        for layout in layouts:
            argv = c.argv if layout is None else c.layouts.argv(c.argv, layout)
            for _ in range(copies):
                pad = rng.randrange(ENV_PAD_MAX) if randomize.env else 0
                env = env_for(c)
                if randomize.env:
                    env["IORACE_PAD"] = "x" * pad
                mine.setdefault(layout, []).append(len(out.jobs))
                out.jobs.append(Job(argv, timeout, sink or SINK_NULL, env, str(c.build_dir), c.cpus))
                out.pads.append(pad)
                out.layouts.append(layout)
        out.per_cell.append(mine)
    files = sorted({str(c.dataset.path) for c in cells if c.dataset.path is not None})
    if randomize.pages and files:
        out.replacer.append(len(out.jobs))
        out.jobs.append(Job([page_replacer(), *files], timeout, SINK_NULL))
        out.pads.append(0)
        out.layouts.append(None)
    return out


def _own_layouts(cell: Cell, count: int, rng: random.Random, relink: bool = True) -> None:
    """The order a cell uses its layouts in; with relink (an A/A twin, a copy of its reference), layouts of its
    own first, linked with seeds of its own, so that its ratio to its reference holds the placement floor (two
    sets of random layouts of one program), not only the runs' noise."""
    if relink and cell.layouts:
        made = layouts_for(cell, count, seed_base=TWIN_SEEDS)
        cell.layouts = balance(cell, made, cell.hot_symbol, cell.hot_symbol) if cell.hot_symbol else made
    elif cell.layout_order:
        return
    cell.layout_order, cell.layout_runs, cell.layout_redo = use_order(cell.layouts, rng), 0, []


def next_layout(cell: Cell, phase: str, rng: random.Random) -> int | None:
    """The layout a cell's next run uses: a timed run the next in its order (balanced: layouts.use_order), a
    warm-up any; None for a cell of one layout."""
    if not cell.layouts:
        return None
    if phase != "measure":
        return rng.randrange(len(cell.layouts))
    if cell.layout_redo:  # a displaced run's layout runs again: every layout keeps its share of the counted runs
        return cell.layout_redo.pop(0)
    layout = cell.layout_order[cell.layout_runs % len(cell.layout_order)]
    cell.layout_runs += 1
    return layout


def round_order(timed: list[Cell], race: Race, rng: random.Random, rivals: bool, round_index: int) -> list[Cell]:
    """A round's order: a fresh shuffle, or (rivals) the tables in a shuffled order, each table's cells side by
    side from the fastest so far (by the race's median cost; unmeasured ones last, shuffled), the direction
    alternating with the round, so a cell runs next to its nearest rivals and neither of two always goes first."""
    order = list(timed)
    rng.shuffle(order)  # the tie-breaker, and the whole order without rivals
    if not rivals:
        return order
    tables: dict[TableId, list[Cell]] = {}
    for c in order:
        tables.setdefault(c.table, []).append(c)
    out: list[Cell] = []
    for cells in tables.values():
        cells.sort(key=lambda c: race.median_cost(c))
        out += cells if round_index % 2 == 0 else cells[::-1]
    return out


def check_run(cell: Cell, run: Run) -> None:
    """A timed run must still succeed and, where it reports one, give the verified answer."""
    v = judge_run(run, expected=cell.expected, answer_kind=cell.suite.manifest.answer, timed=True)
    if v.status != OK:
        cell.status, cell.detail = v.status, v.detail


def measure(
    cells: list[Cell],
    *,
    runs: int,
    warmup: int,
    timeout: float,
    sink: str,
    recorder: Recorder,
    seed: int,
    advance: Callable[[str], None],
    cell_changed: Callable[[Cell], None],
    runner: Runner = run_batch,
    randomize: Randomize = Randomize(),
    aa: bool = False,
    plan: Plan | None = None,
    layouts: int = 1,
) -> None:
    """Warm-up rounds, then counted rounds (`runs`, or as `plan` decides: race.Plan), each chunk of rounds
    made by runner (the launcher by default); the recorder (the session's store) gets every run made and
    is committed after every chunk.

    A cell whose timed run fails, times out or changes its answer drops out of the later rounds
    (cell_changed is told), and the others go on. A round's order is a shuffle, drawn from the seed, of the
    cells still timed when its chunk starts (round_order; with randomize.rivals, by table). A counted run
    that waited for the CPU instead of running is stored as "displaced" and its round repeated (_record_chunk).
    With `randomize`, each round first re-places the input files'
    cached pages, and each run gets a random padding of its environment (recorded with the run as
    `env_pad`). With `aa`, the first round picks each table's fastest cell and adds its twin (the A/A cell:
    the same program, a cell of its own, kind control) to every later round. With a plan that races, a cell
    whose place is settled stops being timed; a cell's `timing_note` says why it stopped, or that it did not
    reach the precision asked. cell_changed is told of every cell added or changed. A cell with code layouts
    (cell.layouts, made at build time) runs the next of them in each timed run, each in turn
    (layouts.use_order); its A/A twin gets `layouts` of its own. Each run records its layout.
    """
    rng = random.Random(seed)
    pad_rng = random.Random(f"{seed}:pads")  # its own stream: the rounds' order does not depend on randomize
    layout_rng = random.Random(f"{seed}:layouts")  # and another: the order each cell uses its layouts in
    for c in cells:
        _own_layouts(c, layouts, layout_rng, relink=False)
    race = Race(plan or Plan(min_rounds=runs))
    round_s = 0.0  # seconds a round takes, from the last chunk; the first chunk is one round
    index = {id(c): i for i, c in enumerate(cells)}
    warmed = measured = 0
    while True:
        ok = [c for c in cells if c.status == OK]
        timed = [c for c in ok if id(c) not in race.stopped]
        # judged on every ok cell, stopped ones too, as settle and the final notes judge them: a table's
        # fastest is chosen among all its cells, and a reference chosen among the timed ones alone could differ
        phases = _next_rounds(_chunk_rounds(round_s), warmup - warmed, measured, race, ok)
        if not timed or not phases:
            break
        chunk = []
        for phase, number in phases:
            round_no = warmed + number if phase == "warmup" else measured + number
            chunk.append((phase, round_no, round_order(timed, race, rng, randomize.rivals, warmed + measured + number)))
        made = _jobs(cells, timeout, sink, randomize, pad_rng)
        replacer = made.replacer
        schedule = made.schedule(chunk, index, pad_rng, layout_rng)
        records, interrupted = runner(made.jobs, schedule)
        _record_chunk(chunk, records, schedule, made, randomize.env, len(replacer), recorder, race, advance, cell_changed)
        recorder.commit()
        walls = [r.wall_ns for r in records if r is not None]  # the page re-placer's time too: it is part of a round
        round_s = sum(walls) / 1e9 / len(chunk) if walls else 0.0
        if interrupted:
            raise KeyboardInterrupt
        if aa and warmed == measured == 0:
            for twin in aa_twins([c for c in cells if c.status == OK], chunk_costs(chunk, records, len(replacer))):
                _own_layouts(twin, layouts, layout_rng)
                cells.append(twin)
                index[id(twin)] = len(cells) - 1
                cell_changed(twin)
        warmed += sum(phase == "warmup" for phase, _ in phases)
        measured += sum(phase == "measure" for phase, _ in phases)
        for cell in race.settle([c for c in cells if c.status == OK], measured):
            cell.timing_note = race.stopped[id(cell)]
            cell_changed(cell)
    for cell, width in race.too_wide([c for c in cells if c.status == OK]):
        cell.timing_note = f"precision {race.plan.precision:.1%} not reached: +-{width:.1%} after {measured} rounds"
        cell_changed(cell)


def _next_rounds(wanted: int, warmups_left: int, measured: int, race: Race, cells: list[Cell]) -> list[tuple[str, int]]:
    """The rounds of the next chunk, as (phase, number within this chunk): warm-ups first, then counted
    rounds up to the plan's minimum, then more only while the plan asks for them (checked between chunks).
    `cells`: the ok cells, stopped ones too (the race knows which are still timed)."""
    out = [("warmup", i) for i in range(min(wanted, warmups_left))]
    if len(out) == wanted:
        return out
    target = race.min_rounds if measured < race.min_rounds else max(race.most_rounds, race.floor_target(cells))
    if measured >= race.min_rounds and not race.more_rounds(cells, measured):
        return out
    if measured >= race.min_rounds and measured >= target:  # only a turn of the layouts left to finish (Race.more_rounds)
        target = measured + (-measured) % race.plan.block
    return out + [("measure", i) for i in range(min(wanted - len(out), target - measured))]


def _record_chunk(
    chunk: list,
    records: list[Run | None],
    schedule: list[int],
    made: _Jobs,
    padded: bool,
    skip: int,
    recorder: Recorder,
    race: Race,
    advance: Callable[[str], None],
    cell_changed: Callable[[Cell], None],
) -> None:
    """Store, judge and count every run of a chunk (the page re-placer's, `skip` per round, are no cell's).

    A counted run that was displaced (its CPU share well below its cell's usual share: analyse.contention)
    is stored as phase "displaced", which no statistic reads, and its round is run again (Race.repeat_round,
    within a limit)."""
    for run, cell in _chunk_runs(chunk, records, skip):  # the shares first: a cell's usual share is judged on all of them
        if run is not None and run.exit_code == 0 and (share := run.cpu_share) is not None:
            race.shares.setdefault(id(cell), []).append(share)
    k = 0
    for phase, round_no, order in chunk:
        k += skip
        repeat = False
        for cell in order:
            run = records[k]
            if run is not None:
                made.label(run, schedule[k], padded)
            k += 1
            advance(cell.label)
            if run is None or cell.status != OK:  # skipped by the launcher after a failure, or interrupted
                continue
            repeat |= _record_run(cell, run, phase, round_no, recorder, race, cell_changed)
        if repeat:
            race.repeat_round()


def _record_run(
    cell: Cell, run: Run, phase: str, round_no: int, recorder: Recorder, race: Race, cell_changed: Callable[[Cell], None]
) -> bool:
    """Store, check and count one run; True when it was displaced (its round is to run again, and its layout)."""
    usual = usual_share(race.shares.get(id(cell), []))
    was_displaced = phase == "measure" and displaced(run.wall_ns, run.cpu_share, usual)
    recorder.add_run(cell, "displaced" if was_displaced else phase, round_no, run)
    check_run(cell, run)
    if cell.status != OK:
        cell_changed(cell)
    elif phase == "measure" and not was_displaced:
        race.add(cell, round_no, _cost(cell, run), run.wall_ns / 1e9, run.layout)
    if was_displaced and run.layout is not None:
        cell.layout_redo.append(run.layout)
    return was_displaced


def _chunk_runs(chunk: list, records: list[Run | None], skip: int) -> list[tuple[Run | None, Cell]]:
    """(run, cell) of each cell's run in a chunk, in the order the launcher made them."""
    out = []
    k = 0
    for _, _, order in chunk:
        k += skip
        for cell in order:
            out.append((records[k], cell))
            k += 1
    return out


def _cost(cell: Cell, run: Run) -> float:
    """What the analysis compares: the program's inner time where the suite compares it (else the wall
    time), per unit of work in a suite whose cells differ in scale (1 pass against 10)."""
    value = run.metric_ns(cell.metric)
    cost = float(value if value is not None else run.wall_ns)
    m = cell.suite.manifest
    per = cell.units.get(m.throughput) if m.scale_params else None
    return cost / per if per else cost


def chunk_costs(chunk: list, records: list[Run | None], skip: int) -> dict[int, float]:
    """Each cell's cost in a chunk's last round (id(cell) -> what the analysis compares: measure._cost)."""
    costs: dict[int, float] = {}
    for run, cell in _chunk_runs(chunk, records, skip):
        if run is not None and run.exit_code == 0:
            costs[id(cell)] = _cost(cell, run)
    return costs


def aa_twins(cells: list[Cell], costs: dict[int, float]) -> list[Cell]:
    """The A/A cell of each table: a twin of the table's fastest compared cell in `costs` (the first round).

    A table is the cells of one dataset and one set of parameters, scale parameters aside (as the analysis
    groups them). The twin runs the same program with the same arguments as a cell of its own (variant
    NAME~aa, kind control): the ratio of the two over the rounds must cover 1.00, or the intervals claim more
    than the session knows.
    """
    tables: dict[TableId, Cell] = {}
    for c in cells:
        if not Kind.of(c.variant.kind).compared or id(c) not in costs:
            continue
        if c.table not in tables or costs[id(c)] < costs[id(tables[c.table])]:
            tables[c.table] = c
    twins = []
    for ref in tables.values():
        twin = copy.copy(ref)
        twin.variant = ref.variant.model_copy(update={"name": f"{ref.variant.name}{AA_SUFFIX}", "kind": Kind.CONTROL})
        twin.db_id = None
        twins.append(twin)
    return twins


def _chunk_rounds(round_s: float) -> int:
    """How many rounds the launcher runs before the harness looks at them (at least one)."""
    if round_s <= 0:
        return 1
    return max(1, int(CHUNK_S / round_s))
