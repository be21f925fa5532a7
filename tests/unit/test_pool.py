"""Several sessions as one result (pool.pool + stats' hierarchical interval): what stays fixed within a
session and moves between sessions widens the pooled interval, as it should."""

from __future__ import annotations

import numpy as np
from sessions import cell, save, session

from iorace.analyse.analysis import analyse
from iorace.analyse.pool import pool


def one(seed: int, session_effect: float, sid: int):
    """Two cells over 10 rounds; cell b is 2x a, times a factor that holds for the whole session (where its
    input's pages landed, say), with 1% noise per run."""
    rng = np.random.default_rng(seed)
    a = [10 * float(np.exp(rng.normal(0, 0.01))) for _ in range(10)]
    b = [20 * session_effect * float(np.exp(rng.normal(0, 0.01))) for _ in range(10)]
    return session([cell("a", inner=a), cell("b", inner=b)], sid=sid)


def ratio_of_b(s):
    (g,) = analyse(s)
    return next(r for r in g.rows if r.cell.variant == "b").vs_fastest


def test_pooled_sessions_hold_the_spread_between_sessions():
    effects = (0.94, 1.0, 1.06)
    sessions = [one(i, e, sid=i + 1) for i, e in enumerate(effects)]
    alone = [ratio_of_b(s) for s in sessions]
    assert sum(r.low <= 2.0 <= r.high for r in alone) == 1  # each session's interval sees only its own rounds
    pooled = ratio_of_b(pool(sessions))
    assert pooled.low < 2.0 < pooled.high and abs(pooled.value - 2.0) < 0.02
    assert pooled.n == 30 and pooled.high / pooled.low > max(r.high / r.low for r in alone)


def test_show_and_compare_take_several_sessions(iorace_inprocess, tmp_path):
    db = tmp_path / "s.sqlite"
    for i, e in enumerate((0.97, 1.0, 1.03, 0.99)):
        save(db, one(i, e, sid=i + 1))
    out = iorace_inprocess("show", "1", "2", "3", "--db", str(db))
    assert out.returncode == 0 and "sessions 1, 2, 3 pooled" in out.stdout, out.stderr
    out = iorace_inprocess("compare", "1,2", "3,4", "--db", str(db))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "sessions 1, 2 (pooled)" in out.stdout and "sessions 3, 4 (pooled)" in out.stdout
