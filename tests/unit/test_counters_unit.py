"""run --counters (perf stat) and --instructions (cachegrind): perf's CSV and cachegrind's summary parsed,
IPC, and `iorace doctor`'s line for every event (a value or why not). A real run with both: tests/test_counters.py
(slow)."""

from __future__ import annotations

import shutil

import pytest

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


def test_estimated_cycles_from_the_cache_simulation_as_iai_callgrind_counts_them(tmp_path):
    from iorace.analyse.counter_keys import cache_hits, estimated_cycles

    out = tmp_path / "cg.out"
    events = "Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw Bc Bcm Bi Bim"
    out.write_text(f"events: {events}\nsummary: 1000 20 5 400 30 10 200 10 2 50 5 1 0\n")
    summary = counters._cachegrind_summary(str(out))
    ram = 5 + 10 + 2  # ILmr + DLmr + DLmw
    ll = 20 + 30 + 10 - ram  # I1mr + D1mr + D1mw - RAM hits
    l1 = 1000 + 400 + 200 - ll - ram
    assert cache_hits(summary) == (l1, ll, ram) == (1540, 43, 17)
    assert estimated_cycles(l1, ll, ram) == 1540 + 5 * 43 + 35 * 17 == 2350
    assert cache_hits({"Ir": 1000, "Bc": 5}) is None  # no cache simulation: no estimate


def test_each_table_says_how_well_the_exact_costs_rank_its_cells_against_time():
    from sessions import cell, session

    from iorace.analyse.analysis import analyse

    cells = [cell(name, inner=[t] * 5, instructions=i) for name, t, i in (("a", 10, 100), ("b", 20, 150), ("c", 30, 120), ("d", 40, 400))]
    for c, cycles in zip(cells, (1000, 2000, 3000, 4000), strict=True):
        c.estimated_cycles = cycles
    (g,) = analyse(session(cells))
    agreement = g.rank_agreement()
    assert agreement["estimated cycles"] == (1.0, 4)  # ranks the cells as time does
    assert agreement["instructions"][0] == pytest.approx(0.8) and agreement["instructions"][1] == 4  # b and c swapped
    assert analyse(session(cells[:2]))[0].rank_agreement() == {}  # two cells rank nothing
