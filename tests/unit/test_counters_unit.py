"""run --counters (perf stat) and --instructions (cachegrind): perf's CSV and cachegrind's summary parsed,
IPC, and `iorace doctor`'s line for every event (a value or why not). A real run with both: tests/test_counters.py
(slow)."""

from __future__ import annotations

import shutil

from iorace.analyse import counter_keys
from iorace.run import counters

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
    assert counter_keys.ipc({"perf:instructions": 300.0, "perf:cycles": 100.0}) == 3.0
    assert counter_keys.ipc({"perf:instructions": 300.0}) is None


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
