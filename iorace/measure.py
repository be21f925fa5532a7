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

from iorace.cells import OK, Cell
from iorace.runner import SINK_NULL, Job, Run, Runner, run_batch
from iorace.verify import Recorder, env_for, judge_run

CHUNK_S = 2.0  # aim: the harness wakes about this often while measuring (never within a round)


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
) -> None:
    """Warm-up rounds, then `runs` counted rounds, each chunk of rounds made by runner (the launcher by
    default); the recorder (the session's store) gets every run made and is committed after every chunk.

    A cell whose timed run fails, times out or changes its answer drops out of the later rounds
    (cell_changed is told), and the others go on. The order of every round is drawn up front from
    the seed: a round's order is a shuffle of the cells still ok when its chunk starts.
    """
    rng = random.Random(seed)
    phases = [("warmup", i) for i in range(warmup)] + [("measure", i) for i in range(runs)]
    round_s = 0.0  # seconds a round takes, from the last chunk; the first chunk is one round
    jobs = [Job(c.argv, timeout, sink or SINK_NULL, env_for(c), str(c.build_dir)) for c in cells]
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
        schedule = [index[id(c)] for _, _, order in chunk for c in order]
        records, interrupted = runner(jobs, schedule)
        k = 0
        for phase, round_no, order in chunk:
            for cell in order:
                run = records[k]
                k += 1
                advance(cell.label)
                if run is None or cell.status != OK:  # skipped by the launcher after a failure, or interrupted
                    continue
                recorder.add_run(cell, phase, round_no, run)
                check_run(cell, run)
                if cell.status != OK:
                    cell_changed(cell)
        recorder.commit()
        walls = [r.wall_ns for r in records if r is not None]
        round_s = sum(walls) / 1e9 / len(chunk) if walls else 0.0
        if interrupted:
            raise KeyboardInterrupt
        done += len(chunk)


def _chunk_rounds(round_s: float) -> int:
    """How many rounds the launcher runs before the harness looks at them (at least one)."""
    if round_s <= 0:
        return 1
    return max(1, int(CHUNK_S / round_s))
