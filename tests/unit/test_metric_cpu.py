"""--metric cpu: cells compared on user + system time, which a wait for the CPU does not inflate; a cell of
several threads counts them all, and its notes say so."""

from __future__ import annotations

import dataclasses

from sessions import MS, cell, session

from iorace.analyse import fmt
from iorace.analyse.analysis import analyse


def test_the_cpu_metric_reads_user_plus_system_and_ignores_waiting():
    fast = cell("fast", wall=[20, 20, 20, 20, 20], metric="cpu")  # 18 ms of CPU in 20 ms of wall
    waited = cell("waited", wall=[40, 40, 40, 40, 40], metric="cpu")
    waited.runs = [dataclasses.replace(r, user_ns=18 * MS) for r in waited.runs]  # the same work, half of it waiting
    (g,) = analyse(session([fast, waited]))
    rows = {r.cell.variant: r for r in g.rows}
    assert rows["fast"].metric == "cpu" and rows["fast"].primary.median == 0.018
    assert rows["waited"].vs_fastest is not None and abs(rows["waited"].vs_fastest.value - 1.0) < 1e-9


def test_a_cell_of_several_threads_is_named():
    jvm = cell("jvm", wall=[10, 10, 10, 10, 10], metric="cpu")
    jvm.runs = [dataclasses.replace(r, user_ns=25 * MS) for r in jvm.runs]
    (g,) = analyse(session([jvm]))
    assert "several threads (2.5 CPUs), all counted" in fmt.notes(g.rows[0])
