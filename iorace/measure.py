"""Timed runs, interleaved: each round runs every cell once in a fresh random order.

Interleaving spreads the machine's drift (other load, thermal state, page
cache) over all cells alike instead of letting it land on whichever cell
happened to run during a noisy minute.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from iorace.cells import FAILED, OK, TIMEOUT, WRONG, Cell
from iorace.reference import same_answer
from iorace.runner import SINK_NULL, run_once
from iorace.verify import env_for


def _check_run(cell: Cell, run) -> None:
    """A timed run must still succeed and, where it reports one, give the verified answer."""
    if run.timed_out:
        cell.status, cell.detail = TIMEOUT, "a timed run timed out (process group killed)"
    elif reason := run.failure():
        cell.status, cell.detail = FAILED, f"a timed run failed: {reason}"
    elif cell.suite.manifest.answer == "result" and run.result is not None and "answer" in run.result \
            and not same_answer(run.result["answer"], cell.expected):
        cell.status, cell.detail = WRONG, f"a timed run answered {run.result['answer']!r}, expected {cell.expected!r}"


def measure(cells: list[Cell], *, runs: int, warmup: int, timeout: float, sink: str, store, seed: int,
            advance: Callable[[str], None], cell_changed: Callable[[Cell], None]) -> None:
    """Warm-up rounds, then `runs` counted rounds; the store is committed after every round.

    A cell whose timed run fails, times out or changes its answer drops out of
    the later rounds (cell_changed is told), and the others go on.
    """
    rng = random.Random(seed)
    plan = [("warmup", i) for i in range(warmup)] + [("measure", i) for i in range(runs)]
    for phase, round_no in plan:
        order = [c for c in cells if c.status == OK]
        rng.shuffle(order)
        for cell in order:
            advance(cell.label)
            try:
                run = run_once(cell.argv, timeout=timeout, sink=sink or SINK_NULL, env=env_for(cell),
                               cwd=str(cell.build_dir))
            except OSError as e:
                cell.status, cell.detail = FAILED, f"cannot start: {e}"
                cell_changed(cell)
                continue
            store.add_run(cell, phase, round_no, run)
            _check_run(cell, run)
            if cell.status != OK:
                cell_changed(cell)
        store.commit()
