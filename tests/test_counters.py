"""run --counters (perf stat) and --instructions (cachegrind with branch simulation): parsed, stored,
reported; and what is unavailable is said with the reason."""

from __future__ import annotations

import pytest

from conftest import TEST_SUITES
from iorace.run import counters
from iorace.store.db import Store

# The parsers' tests (the fast tier): tests/unit/test_counters_unit.py.


def test_counters_are_recorded_stored_and_reported(iorace, tmp_path):
    r = iorace(
        [
            "run",
            "broken",
            "--suite-dir",
            str(TEST_SUITES),
            "--size",
            "tiny",
            "--variant",
            "good",
            "--runs",
            "1",
            "--counters",
            "--instructions",
            "--no-aa",  # one cell, so that its counters are the only ones
        ]
    )
    assert r.returncode == 0, r.stderr
    (cell,) = Store(tmp_path / "iorace.sqlite").load().cells
    status = counters.perf_status()
    for event in counters.PERF_EVENTS:  # each perf counter: a value, or the reason it has none
        key = counters.perf_key(event)
        assert (key in cell.counters) != bool(cell.counter_notes.get(key)), (key, cell.counters, cell.counter_notes)
        if status[event]:
            assert cell.counter_notes[key] == status[event]
    if not status["task-clock"]:
        assert cell.counters["perf:task-clock"] > 0 and cell.counters["perf:page-faults"] > 0
    if counters.why_unavailable() == "":
        assert cell.instructions > 0
        assert 0 < cell.counters[counters.CG_BRANCH_MISSES] < cell.counters[counters.CG_BRANCHES] < cell.instructions
    assert "counters of one run per cell" in r.stdout
    for why in {w for w in status.values() if w}:
        assert why in r.stdout


def test_estimated_cycles_are_recorded_exact_and_compared(iorace, tmp_path):
    """--instructions also runs cachegrind's cache simulation: estimated cycles for the cell, the same in two
    sessions (exact), shown per unit beside the instructions, and compared exactly."""
    if counters.why_unavailable():
        pytest.skip(counters.why_unavailable())
    args = ["run", "broken", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--variant", "good", "--runs", "1", "--instructions"]
    for _ in range(2):
        r = iorace([*args, "--no-aa"])
        assert r.returncode == 0, r.stderr
    store = Store(tmp_path / "iorace.sqlite")
    (one,), (two,) = store.load(1).cells, store.load(2).cells
    assert one.estimated_cycles is not None and one.estimated_cycles > one.instructions > 0
    assert (one.estimated_cycles, one.instructions) == (two.estimated_cycles, two.instructions)
    hits = [one.counters[k] for k in ("cachegrind:l1-hits", "cachegrind:ll-hits", "cachegrind:ram-hits")]
    assert one.estimated_cycles == hits[0] + 5 * hits[1] + 35 * hits[2]
    out = iorace(["compare", "1", "2", "--db", str(tmp_path / "iorace.sqlite")])
    assert "est. cycles" in out.stdout and "+0.00%" in out.stdout, out.stdout
