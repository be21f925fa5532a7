"""A real session on a store that holds this machine's earlier sessions of the suite fits its session level
on them before measuring (run/prior.py, analyse/session_spread.py), says so, stores it with the suite and
widens its exported intervals by it."""

from __future__ import annotations

import dataclasses
import math
import uuid

import numpy as np
import pytest

from conftest import TEST_SUITES, run_iorace
from iorace.store.db import Store

# Alone, after the other tests (make test): its sessions must be quiet, or it loads every core itself.
pytestmark = pytest.mark.serial

# both gcc profiles: six cells in the table, three disjoint pairs a session, enough changes to fit in five sessions
SPIN = [
    *("run", "spin", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--profile", "release", "--profile", "debug"),
    *("--runs", "3", "--precision", "none", "--no-aa", "--target-ms", "5"),
]


def test_a_session_fits_its_level_on_the_earlier_quiet_sessions_here_and_widens_its_intervals(tmp_path):
    first = run_iorace(SPIN, tmp_path)
    assert first.returncode == 0, first.stderr
    store = Store(tmp_path / "iorace.sqlite")
    real = store.load(1)
    # Five quiet sessions of the same cells on this machine: the first session's runs, each cell's level moved by
    # N(0, 40%) in each (well over what 3 rounds of 5 ms runs can show, 6-12% a ratio, or more on a busy machine),
    # nothing else running beside them
    rng = np.random.default_rng(11)
    for _ in range(5):
        cells = []
        for c in real.cells:
            factor = math.exp(rng.normal(0, 0.40)) if c.variant != "loop" else 1.0
            runs = [dataclasses.replace(r, wall_ns=int(r.wall_ns * factor), host_busy_ns=0, host_steal_ns=0) for r in c.runs]
            cells.append(dataclasses.replace(c, runs=runs))
        store.add_session(dataclasses.replace(real, cells=cells, status="done", uuid=str(uuid.uuid4())))
    store.commit()
    again = run_iorace(SPIN, tmp_path)
    assert again.returncode == 0, again.stderr
    assert "between sessions here, from sessions 2, 3, 4, 5, 6" in again.stdout + again.stderr
    (cell,) = [c for c in again.cells(variant="loop2") if c["profile"] == "release"]
    assert cell["session_sd"] > 0.03 and cell["ratio_se_log"] is not None and cell["ratio_between"] == cell["session_sd"]
    low, high = cell["ratio_ci95"]
    assert math.sqrt(high / low) - 1 > 1.96 * cell["session_sd"] * 0.9  # the interval holds the session level
    assert Store(tmp_path / "iorace.sqlite").load(7).settings("spin").session_sd == cell["session_sd"]
