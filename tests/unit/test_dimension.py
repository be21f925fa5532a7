"""Dimensioning (iorace.analyse.dimension, Kalibera & Jones): the variance at each level is recovered from pilot
sessions whose levels are known, and the counts follow the formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sessions import cell, save, session

from iorace.analyse.dimension import levels, optimal_rounds, rounds_needed, sessions_needed


def pilots(k: int, rounds: int, sd_round: float, sd_session: float, seed: int = 1):
    """k sessions of two cells: b is 2x a, times a per-session factor (sd_session) and per-round noise
    (sd_round, on the log ratio)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(k):
        offset = rng.normal(0, sd_session)
        a = [10.0] * rounds
        b = [20 * math.exp(offset + rng.normal(0, sd_round)) for _ in range(rounds)]
        out.append(session([cell("a", inner=a), cell("b", inner=b)], sid=i + 1))
    return out


def test_each_level_is_recovered():
    (lv,) = levels(pilots(12, 20, sd_round=0.03, sd_session=0.02))
    assert math.sqrt(lv.round_var) == pytest.approx(0.03, rel=0.15)
    assert math.sqrt(lv.session_var) == pytest.approx(0.02, rel=0.5)
    (quiet,) = levels(pilots(12, 20, sd_round=0.03, sd_session=0.0, seed=2))
    assert math.sqrt(quiet.session_var) < 0.006  # nothing moves between sessions: only a little sampling noise


def test_the_counts_follow_kalibera_and_jones():
    # r = sqrt(c_s / c_r * s_r^2 / s_s^2): a costly session or noisy rounds call for more rounds per session
    assert optimal_rounds(0.03**2, 0.01**2, round_s=1.0, session_s=100.0) == 30
    assert optimal_rounds(0.03**2, 0.0, 1.0, 100.0) is None  # nothing moves between sessions: one long session
    assert rounds_needed(0.03**2, 0.01) == math.ceil((1.96 * 0.03 / math.log(1.01)) ** 2)
    few, many = sessions_needed(0.03**2, 0.01**2, 30, 0.02), sessions_needed(0.03**2, 0.01**2, 30, 0.005)
    assert few is not None and few < (many or 101)


def test_the_command_reads_stored_sessions(iorace_inprocess, tmp_path):
    db = tmp_path / "s.sqlite"
    for s in pilots(3, 10, 0.03, 0.02):
        save(db, s)
    out = iorace_inprocess("dimension", "--from", "1,2,3", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "between rounds" in out.stdout and ("sessions reach" in out.stdout or "one session of" in out.stdout)
    bad = iorace_inprocess("dimension", "--from", "1,x", "--db", str(db))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_stored_sessions_are_read_for_the_suites_named_only(iorace_inprocess, tmp_path):
    """A make bench session holds every suite: `dimension readbytes --from ...` dimensions readbytes alone."""
    db = tmp_path / "s.sqlite"
    rng = np.random.default_rng(5)
    for s in pilots(3, 10, 0.03, 0.0):
        other = [40 * math.exp(rng.normal(0, 0.5)) for _ in range(10)]  # a noisy suite beside it
        s.cells += [cell("c", inner=[20.0] * 10, suite="other"), cell("d", inner=other, suite="other")]
        save(db, s)
    both = iorace_inprocess("dimension", "--from", "1,2,3", "--db", str(db))
    toy = iorace_inprocess("dimension", "toy", "--from", "1,2,3", "--db", str(db))
    assert both.returncode == toy.returncode == 0, both.stderr + toy.stderr
    assert "other " in both.stdout and "other " not in toy.stdout
    bad = iorace_inprocess("dimension", "nosuch", "--from", "1,2,3", "--db", str(db))
    assert bad.returncode == 2 and bad.stderr.strip() == "iorace: error: --from: session 1 has no cell of suite nosuch"


def test_a_raced_forecast_times_only_the_top_cells_past_the_third_round():
    from iorace.analyse.dimension import Levels, raced_forecast

    found = [
        Levels("t a2", 0.10**2, 0.0, 2, 10, top=True, run_s=0.05),
        Levels("t a3", 0.20**2, 0.0, 2, 10, top=True, run_s=0.05),
        Levels("t slow", 0.30**2, 0.0, 2, 10, top=False, run_s=4.0),  # beyond the top three: stops at round 3
    ]
    f = raced_forecast(found, {"t": 0.05}, round_s=4.2, half_width=0.05, min_rounds=3)
    assert f is not None
    assert f.rounds == rounds_needed(0.20**2, 0.05) and f.median_rounds == rounds_needed((0.10**2 + 0.20**2) / 2, 0.05)
    assert f.top_round_s == pytest.approx(0.05 + 0.05 + 2 * 0.05)  # the fastest and its A/A twin too
    assert f.seconds == pytest.approx(3 * 4.2 + (f.rounds - 3) * f.top_round_s)
    assert raced_forecast([found[2]], {}, 4.2, 0.05, 3) is None


def test_the_pilots_mark_each_tables_fastest_three():
    rng = np.random.default_rng(5)
    sessions = []
    for i in range(2):
        cells = [
            cell(name, inner=[c * math.exp(rng.normal(0, 0.01)) for _ in range(8)])
            for name, c in (("a", 10), ("b", 11), ("c", 12), ("d", 30))
        ]
        sessions.append(session(cells, sid=i + 1))
    found = {lv.cell.split()[-1]: lv for lv in levels(sessions)}
    assert {k.split("/")[-1].split("@")[0]: v.top for k, v in found.items()} == {"b": True, "c": True, "d": False}


def test_the_session_level_is_fitted_where_each_cells_own_estimate_would_clip_to_zero(iorace_inprocess, tmp_path):
    """Two sessions of 60 cells, 4 rounds each at 10% a round, each cell moved by 4% between them: every cell's
    own estimate (the variance of its two means less the rounds' share) is below zero more often than not, so
    their median said 'between sessions 0.00%'; the fit on the changes' median finds the 4%."""
    import re

    rng = np.random.default_rng(5)
    db = tmp_path / "s.sqlite"
    for sid in (1, 2):
        cells = [cell("a", inner=[10.0] * 4)]
        for i in range(60):
            level = 20 * math.exp(rng.normal(0, 0.04))
            cells.append(cell(f"c{i}", inner=[level * math.exp(rng.normal(0, 0.10)) for _ in range(4)]))
        save(db, session(cells, sid=sid))
    out = iorace_inprocess("dimension", "--from", "1,2", "--db", str(db), "--precision", "5")
    assert out.returncode == 0, out.stderr
    found = re.search(r"between sessions (\d+\.\d+)%", out.stdout)
    assert found is not None, out.stdout
    assert 2.0 < float(found.group(1)) < 8.0


def test_the_forecast_says_when_one_session_cannot_reach_the_precision(iorace_inprocess, tmp_path):
    """A session's intervals carry the session level (analyse/session_spread.py): where it alone is wider than
    --precision, no count of rounds in one session reaches it, and the forecast says so and what does."""
    db = tmp_path / "s.sqlite"
    for s in pilots(6, 10, 0.03, 0.05, seed=4):
        save(db, s)
    out = iorace_inprocess("dimension", "--from", "1,2,3,4,5,6", "--db", str(db), "--precision", "2")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "cannot reach +-2.0%: sessions pooled can" in text and "`iorace show A,B,...` pools them" in text, text
    wide = iorace_inprocess("dimension", "--from", "1,2,3,4,5,6", "--db", str(db), "--precision", "30")
    assert "cannot reach" not in " ".join(wide.stdout.split())
