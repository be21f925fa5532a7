"""Work per run sized for precision (`iorace run --target-ms MS`).

A run's noise on this kind of machine does not shrink with its length (a memory-bound program's sd of log
time per run was 0.13 at 82 ms and 0.19 at 370 ms), so within a fixed budget shorter runs give more rounds
and narrower intervals, down to where start-up dominates. pyperf calibrates its loops to a target time the
same way. A suite names the parameter that scales a run's work without changing its data's footprint
(`work_param`, one of its `scale_params`: readbytes' passes); each cell's value is set from its verification
run so that a run takes about MS ms, and the cell is verified again at that size (its answer checked before
anything is timed, and a warm-up). Cells sized differently share their table and compare per unit of work
(the suite's `throughput`), as a 1-pass Python loop and a 10-pass C loop already do."""

from __future__ import annotations

from collections.abc import Callable

from iorace.manifest.cells import OK, Cell
from iorace.run import build, reference
from iorace.run.verify import Recorder, verify

KEEP_WITHIN = 0.2  # a size within 20% of the target's is kept: a second verification would buy nothing
MAX_FACTOR = 1000  # a run far shorter than the target (start-up only) grows at most this much


def sized(value: int, wall_ns: int, target_ms: float) -> int:
    """The work parameter's value that makes a run of `wall_ns` at `value` take about `target_ms`."""
    factor = min(MAX_FACTOR, target_ms * 1e6 / max(wall_ns, 1))
    return max(1, round(value * factor))


def calibrate(cells: list[Cell], target_ms: float, timeout: float, recorder: Recorder, changed: Callable[[Cell], None]) -> None:
    """Size each verified cell of a suite with a work_param, then verify it again at its new size."""
    for cell in cells:
        param = cell.suite.manifest.work_param
        if cell.status != OK or not param or cell.verify_wall_ns is None or cell.dataset.path is None:
            continue
        old = cell.params.get(param)
        if not isinstance(old, int) or isinstance(old, bool):
            continue
        new = sized(old, cell.verify_wall_ns, target_ms)
        if abs(new / old - 1) <= KEEP_WITHIN:
            continue
        cell.params = {**cell.params, param: new}  # its own dict: cells of one sweep share theirs
        cell.expected = reference.expected(cell.suite, cell.dataset, cell.params)
        cell.units = reference.units(cell.suite, cell.dataset, cell.params)
        cell.argv = build.run_argv(cell, cell.dataset.path)
        cell.sizing_note = f"{param} {old} -> {new}: runs of about {target_ms:g} ms (--target-ms)"
        verify(cell, timeout, recorder)
        changed(cell)
