"""The pipeline's side of the store: a live cell becomes its stored record here, and only here.

The store knows records (iorace.store.db.CellData), not the pipeline's cells: this module is the one mapping
from an iorace.manifest.cells.Cell (with what building, verifying and counting filled in) to the row, and
keeps each cell's row id so that its runs are stored under it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from iorace.manifest.cells import Cell
from iorace.store.db import CellData, Store
from iorace.store.run import Run


def cell_record(cell: Cell) -> CellData:
    """The row of a cell as it stands now (id 0 until it was first saved)."""
    return CellData(
        id=cell.db_id or 0,
        suite=cell.suite.name,
        title=cell.suite.manifest.title,
        metric=cell.metric,
        dataset=cell.dataset.name,
        dataset_sha256=cell.dataset.sha256,
        input_path=str(cell.dataset.path or ""),
        params=cell.params,
        variant=cell.variant.name,
        language=cell.variant.language,
        kind=cell.variant.kind,
        description=cell.variant.description,
        toolchain=cell.toolchain.name,
        toolchain_version=cell.toolchain_version,
        profile=cell.profile,
        build_key=cell.build_key,
        command=cell.argv,
        status=cell.status,
        detail=cell.detail,
        answer=cell.answer,
        expected=cell.expected,
        units=cell.units,
        known_wrong=cell.known_wrong,
        instructions=cell.instructions,
        instructions_note=cell.instructions_note,
        estimated_cycles=cell.estimated_cycles,
        extra=cell.extra,
        timing_note=cell.timing_note,
        sizing_note=cell.sizing_note,
        layout_names=list(cell.layouts.names),
        layout_note=cell.layouts.note,
        cpus=list(cell.cpus),
        cpus_note=cell.cpus_note,
        counters=cell.counters,
        counter_notes=cell.counter_notes,
    )


class SessionRecorder:
    """One session's cells and runs into a store: what verify and measure record to (their Recorder)."""

    def __init__(self, store: Store, session_id: int):
        self.store, self.session_id = store, session_id
        self._deferring = False

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        """Commits within it wait for its end, one commit then: for a loop that saves many cells and waits for
        nothing (the build's plan, the data's answers, the sizes kept), where a commit a cell, a sync to disk each,
        cost make bench about 2,600 syncs. A loop that waits on runs or builds commits as it goes: a transaction
        left open across minutes would keep another session writing to the same SQLite file locked out."""
        outer, self._deferring = self._deferring, True
        try:
            yield
        finally:
            self._deferring = outer
            if not outer:
                self.store.commit()

    def save(self, cell: Cell) -> None:
        """Insert or update the cell's row (its status, answer, counters, ... as they stand)."""
        cell.db_id = self.store.save_cell(self.session_id, cell_record(cell))

    def add_run(self, cell: Cell, phase: str, round_no: int, run: Run) -> None:
        assert cell.db_id is not None, f"{cell.label}: a run is stored under a saved cell"
        self.store.add_run(cell.db_id, phase, round_no, run)

    def commit(self) -> None:
        if not self._deferring:
            self.store.commit()
