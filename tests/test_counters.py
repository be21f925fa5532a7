"""run --counters (perf stat) and --instructions (cachegrind with branch simulation): parsed, stored,
reported; and what is unavailable is said with the reason."""
from __future__ import annotations

import shutil

import pytest

from conftest import TEST_SUITES
from iorace import counters
from iorace.store import Store

PERF_CSV = """# started on Sun Nov 22 07:03:06 2026

2.50,msec,task-clock,2498564,100.00,0.220,CPUs utilized
1,,context-switches,2498564,100.00,400.230,/sec
106,,page-faults,2498564,100.00,42.424,K/sec
<not supported>,,cycles,0,100.00,,
123456,,instructions:u,0,100.00,,
<not counted>,,branches,0,100.00,,
"""


def test_perf_csv_values_and_reasons():
    values, missing = counters.parse_perf_csv(PERF_CSV)
    assert values == {"task-clock": 2.5, "context-switches": 1, "page-faults": 106, "instructions": 123456}
    assert missing["cycles"] == counters.NOT_SUPPORTED
    assert missing["branches"].startswith("not counted")


def test_ipc_needs_both_counts():
    assert counters.ipc({"perf:instructions": 300.0, "perf:cycles": 100.0}) == 3.0
    assert counters.ipc({"perf:instructions": 300.0}) is None


def test_cachegrind_summary_by_event_name(tmp_path):
    out = tmp_path / "cg.out"
    out.write_text("desc: I1 cache\ncmd: /bin/true\nevents: Ir Bc Bcm Bi Bim\nfl=x\nsummary: 127731 25337 3169 279 150\n")
    assert counters._cachegrind_summary(str(out)) == {"Ir": 127731, "Bc": 25337, "Bcm": 3169, "Bi": 279, "Bim": 150}


def test_doctor_says_every_event_or_why_not():
    status = counters.perf_status()
    assert set(status) == set(counters.PERF_EVENTS)
    text = "\n".join(counters.doctor_lines())
    for event in counters.PERF_EVENTS:
        assert event in text
    if shutil.which("perf") is None:
        assert "perf not found" in text


@pytest.mark.slow
def test_counters_are_recorded_stored_and_reported(iorace, tmp_path):
    r = iorace(["run", "broken", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--variant", "good", "--runs", "1",
                "--counters", "--instructions"])
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
