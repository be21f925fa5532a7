"""Work per run sized for precision (`iorace run --target-ms MS`).

A run's noise on this kind of machine does not shrink with its length (a memory-bound program's sd of log
time per run was 0.13 at 82 ms and 0.19 at 370 ms), so within a fixed budget shorter runs give more rounds
and narrower intervals, down to where start-up dominates. pyperf calibrates its loops to a target time the
same way. A suite names the parameter(s) that scale a run's work without changing its data's footprint
(`work_param`, among its `scale_params`: readbytes' passes, serialize's op counts). Each cell is first
verified at a tenth of its manifest's work (`probe`: its answer checked, its binary and data warmed, and its
time per unit of work seen, at a tenth of the cost), then sized from that run so that a run takes about MS ms
on the cell's metric (`calibrate`), and verified again at that size: the run before the timed rounds is
always at their size and doubles as their warm-up. A cell whose run at its new size is still far off the target
(a first pass dearer than the next) is sized again from that run (RESIZE_STEPS). Cells sized differently share their table and compare
per unit of work (the suite's `throughput`), as a 1-pass Python loop and a 10-pass C loop already do."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from iorace.core.ids import CellId
from iorace.manifest.cells import OK, Cell
from iorace.run import build, reference
from iorace.run.prior import StoredSizes
from iorace.run.verify import Recorder, verify_all

KEEP_WITHIN = 0.2  # a size within 20% of the target's is kept: a second verification would buy nothing
MAX_FACTOR = 1000  # a run far shorter than the target (start-up only) grows at most this much
PROBE_FRACTION = 10  # the first verification runs 1/10 of the manifest's work (at least 1): it only has to be timed
REUSE_WITHIN = 2.5  # a size from an earlier session stands while a run at it takes 1/2.5 to 2.5 x the target
RESIZE_STEPS = 2  # a cell whose run at its new size is still that far off is sized again, at most this often


def scale_factor(run_ns: int, target_ms: float) -> float:
    """How much more (or less) work makes a run of `run_ns` take about `target_ms`."""
    return min(MAX_FACTOR, target_ms * 1e6 / max(run_ns, 1))


def sized(value: int, run_ns: int, target_ms: float) -> int:
    """The work parameter's value that makes a run of `run_ns` at `value` take about `target_ms`."""
    return max(1, round(value * scale_factor(run_ns, target_ms)))


def _work(cell: Cell) -> dict[str, int]:
    """The cell's work parameters and their values (those it has, as integers)."""
    out = {}
    for name in cell.suite.manifest.work_params:
        value = cell.params.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            out[name] = value
    return out


def _resize(cell: Cell, values: dict[str, int]) -> None:
    """Give the cell new work parameter values, with the answer, units and command line that follow."""
    cell.params = {**cell.params, **values}  # its own dict: cells of one sweep share theirs
    if cell.dataset.path is not None:  # materialized (always, in a session: before verification)
        cell.expected = reference.expected(cell.suite, cell.dataset, cell.params)
        cell.units = reference.units(cell.suite, cell.dataset, cell.params)
        cell.argv = build.run_argv(cell, cell.dataset.path)


def ident(cell: Cell) -> CellId:
    """The cell across sessions: its scale parameters left out (each session may size it anew)."""
    m = cell.suite.manifest
    return CellId.of(cell.suite.name, cell.dataset.name, cell.params, cell.variant.key, cell.toolchain.name, cell.profile, m.scale_params)


def probe(cells: list[Cell], stored: StoredSizes | None = None) -> set[int]:
    """Before verification: a cell with work parameters gets the size it had in this machine's latest session
    at the same target (`stored`: its verification run is then at the rounds' size, and is their warm-up),
    else a tenth of its work, so that its verification run costs a tenth and still times it (calibrate then
    sizes it from that run). Returns the id() of the cells given a stored size."""
    reused = set()
    for cell in cells:
        if work := _work(cell):
            before = stored.work.get(ident(cell)) if stored is not None else None
            if before is not None and before.keys() == work.keys():
                _resize(cell, before)
                reused.add(id(cell))
            else:
                _resize(cell, {k: max(1, v // PROBE_FRACTION) for k, v in work.items()})
    return reused


def calibrate(
    cells: list[Cell],
    target_ms: float,
    timeout: float,
    recorder: Recorder,
    changed: Callable[[Cell], None],
    manifest_work: dict[int, dict],
    advance: Callable[[str], None] = lambda _label: None,
    jobs: int = 1,
    stored: tuple[int, set[int]] | None = None,
) -> None:
    """Size each verified cell of a suite with work parameters, then verify it again at its new size (`jobs`
    at a time, as verification goes: verify.verify_all). `manifest_work` (id(cell) -> values before `probe`)
    names the sizes the note reports the change from; `advance` is told of each cell as it is done.
    `stored` (a session id, the id() of the cells probe gave that session's size): such a cell keeps its size
    while its verification run is within REUSE_WITHIN of the target, and is sized from that run otherwise."""
    session_id, reused = stored if stored is not None else (0, set())
    again = [cell for cell in cells if _size(cell, target_ms, manifest_work, session_id if id(cell) in reused else None)]
    resized = {id(cell) for cell in again}
    # the sizes kept, saved with one commit (a session's recorder defers them: SessionRecorder.deferred)
    with getattr(recorder, "deferred", contextlib.nullcontext)():
        for cell in cells:
            if id(cell) not in resized:
                changed(cell)
                advance(cell.label)

    def done(cell: Cell) -> None:
        changed(cell)
        advance(cell.label)

    verify_all(again, timeout, recorder, jobs, done)
    # A size from one short probe can be far off: a first pass that allocates and faults in its output costs
    # more than the next ones, so one pass timed sized capnp's Rust encode at 2 passes, runs of 1 ms for a
    # 20 ms target, whose first pass then weighed on its time per pass (2026-11-28-formats-instructions). A cell
    # whose run at its new size is still off the target by more than REUSE_WITHIN is sized again from that run.
    for _ in range(RESIZE_STEPS):
        off = [c for c in again if c.status == OK and c.verify_ns is not None and not _near(c.verify_ns, target_ms)]
        again = [c for c in off if _size(c, target_ms, manifest_work)]
        if not again:
            break
        verify_all(again, timeout, recorder, jobs, changed)


def _near(run_ns: int, target_ms: float) -> bool:
    return 1 / REUSE_WITHIN <= run_ns / (target_ms * 1e6) <= REUSE_WITHIN


def _size(cell: Cell, target_ms: float, manifest_work: dict[int, dict], stored_from: int | None = None) -> bool:
    """Give the cell its size for the target; whether it must be verified again at it (its probe's size is
    not within KEEP_WITHIN of it). `stored_from`: the session whose size probe gave it, kept while its
    verification run took within REUSE_WITHIN times the target."""
    work = _work(cell)
    if cell.status != OK or not work or cell.verify_ns is None or cell.dataset.path is None:
        return False
    if stored_from is not None and _near(cell.verify_ns, target_ms):
        sizes = ", ".join(f"{k} {v}" for k, v in work.items())
        cell.sizing_note = f"{sizes} as in session {stored_from}, this machine's latest at --target-ms {target_ms:g}"
        return False
    new = {k: sized(v, cell.verify_ns, target_ms) for k, v in work.items()}
    before = manifest_work.get(id(cell), work)  # the manifest's values, before probe()
    note = ", ".join(f"{k} {before.get(k, v)} -> {new[k]}" for k, v in work.items())
    cell.sizing_note = f"{note}: runs of about {target_ms:g} ms (--target-ms)"
    if all(abs(new[k] / v - 1) <= KEEP_WITHIN for k, v in work.items()):
        return False  # its probe size is near the target: its verification run stands
    _resize(cell, new)
    return True
