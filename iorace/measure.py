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

import random
from collections.abc import Callable
from dataclasses import dataclass

from iorace.cells import OK, Cell
from iorace.runner import SINK_NULL, Job, Run, Runner, page_replacer, run_batch
from iorace.verify import Recorder, env_for, judge_run

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


def _jobs(
    cells: list[Cell], timeout: float, sink: str, randomize: Randomize, rng: random.Random
) -> tuple[list[Job], list[list[int]], list[int]]:
    """The chunk's jobs: per cell, ENV_PADS copies with random paddings (or one, unpadded); then the page
    re-placer over every input file. Returns the jobs, each cell's job numbers, and each job's padding."""
    jobs: list[Job] = []
    pads: list[int] = []
    per_cell: list[list[int]] = []
    for c in cells:
        mine = []
        for _ in range(ENV_PADS if randomize.env else 1):
            pad = rng.randrange(ENV_PAD_MAX) if randomize.env else 0
            env = env_for(c)
            if randomize.env:
                env["IORACE_PAD"] = "x" * pad
            mine.append(len(jobs))
            jobs.append(Job(c.argv, timeout, sink or SINK_NULL, env, str(c.build_dir)))
            pads.append(pad)
        per_cell.append(mine)
    files = sorted({str(c.dataset.path) for c in cells if c.dataset.path is not None})
    if randomize.pages and files:
        jobs.append(Job([page_replacer(), *files], timeout, SINK_NULL))
        pads.append(0)
    return jobs, per_cell, pads


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
) -> None:
    """Warm-up rounds, then `runs` counted rounds, each chunk of rounds made by runner (the launcher by
    default); the recorder (the session's store) gets every run made and is committed after every chunk.

    A cell whose timed run fails, times out or changes its answer drops out of the later rounds
    (cell_changed is told), and the others go on. The order of every round is drawn up front from
    the seed: a round's order is a shuffle of the cells still ok when its chunk starts. With `randomize`,
    each round first re-places the input files' cached pages, and each run gets a random padding of its
    environment (recorded with the run as `env_pad`).
    """
    rng = random.Random(seed)
    pad_rng = random.Random(f"{seed}:pads")  # its own stream: the rounds' order does not depend on randomize
    phases = [("warmup", i) for i in range(warmup)] + [("measure", i) for i in range(runs)]
    round_s = 0.0  # seconds a round takes, from the last chunk; the first chunk is one round
    index = {id(c): i for i, c in enumerate(cells)}
    done = 0
    while done < len(phases):
        ok = [c for c in cells if c.status == OK]
        if not ok:
            return
        # Rounds until the next check: shuffles of the cells ok now (a later failure skips its runs).
        chunk = []
        for phase, round_no in phases[done : done + _chunk_rounds(round_s)]:
            order = list(ok)
            rng.shuffle(order)
            chunk.append((phase, round_no, order))
        jobs, per_cell, pads = _jobs(cells, timeout, sink, randomize, pad_rng)
        replacer = [len(jobs) - 1] if len(jobs) > sum(map(len, per_cell)) else []  # the page re-placer, when there is one
        schedule = [j for _, _, order in chunk for j in replacer + [pad_rng.choice(per_cell[index[id(c)]]) for c in order]]
        records, interrupted = runner(jobs, schedule)
        k = 0
        for phase, round_no, order in chunk:
            k += len(replacer)  # the page re-placer's run is no cell's
            for cell in order:
                run = records[k]
                if run is not None:
                    run.env_pad = pads[schedule[k]] if randomize.env else None
                k += 1
                advance(cell.label)
                if run is None or cell.status != OK:  # skipped by the launcher after a failure, or interrupted
                    continue
                recorder.add_run(cell, phase, round_no, run)
                check_run(cell, run)
                if cell.status != OK:
                    cell_changed(cell)
        recorder.commit()
        walls = [r.wall_ns for r in records if r is not None]  # the page re-placer's time too: it is part of a round
        round_s = sum(walls) / 1e9 / len(chunk) if walls else 0.0
        if interrupted:
            raise KeyboardInterrupt
        done += len(chunk)


def _chunk_rounds(round_s: float) -> int:
    """How many rounds the launcher runs before the harness looks at them (at least one)."""
    if round_s <= 0:
        return 1
    return max(1, int(CHUNK_S / round_s))
