"""The session level (analyse/session_spread.py): how much a ratio moves from one session to the next beyond
its rounds, fitted on this machine's earlier sessions, and carried into the intervals, the exports and compare."""

from __future__ import annotations

import math

import numpy as np
from sessions import cell, save, session

from iorace.analyse import session_spread
from iorace.analyse.analysis import analyse
from iorace.analyse.stats import Level, Ratio, paired_ratio
from iorace.compare.judge import ratio_change
from iorace.report.document import build
from iorace.report.markdown import render
from iorace.run import prior
from iorace.store.db import Store

SUITES = {"toy": {"baseline_languages": ["c"], "scale_params": [], "throughput": "bytes", "same_language_reference": None}}


def synthetic_changes(
    tau: float, n: int = 600, seed: int = 3, changed: float = 0.0, k: float = 0.0, rounds: int = 10
) -> list[session_spread.RatioStep]:
    """n cells in two sessions of `rounds` rounds each: a cell's per-round sd of its log ratio is 3-9%, each session
    moves a ratio by N(0, tau), or by N(0, k x its per-round sd); a share `changed` of the cells also really
    changed by 30% between the two sessions. Each session's mean and standard error come from its own rounds."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        sigma = rng.uniform(0.03, 0.09)
        level = math.hypot(tau, k * sigma)
        means, ses = [], []
        for session_no in range(2):
            moved = rng.normal(0, level) + (0.3 if session_no and i < changed * n else 0.0)
            logs = moved + rng.normal(0, sigma, rounds)
            means.append(float(logs.mean()))
            ses.append(float(logs.std(ddof=1) / math.sqrt(rounds)))
        out.append(session_spread.RatioStep(means[1] - means[0], ses[0], rounds, ses[1], rounds))
    return out


def test_the_fit_finds_the_session_level_and_zero_where_the_rounds_explain_the_changes():
    assert abs(session_spread.fit(synthetic_changes(0.04)) - 0.04) < 0.006
    assert abs(session_spread.fit(synthetic_changes(0.10, seed=4)) - 0.10) < 0.015
    assert session_spread.fit(synthetic_changes(0.0)) < 0.008


def test_a_few_cells_whose_code_changed_move_the_fit_little():
    """A nightly's commits change some cells between two sessions: fitted on the median, a tenth of them moved
    by 30% take tau from 4% to under 5%; a mean of squares would take them for session noise, nearly 8%."""
    pairs = synthetic_changes(0.04, changed=0.1)
    assert abs(session_spread.fit(pairs) - 0.04) < 0.009
    mean_fit = math.sqrt(max(0.0, float(np.mean([c.d * c.d - c.s2 for c in pairs])) / 2))
    assert mean_fit > 0.07


def test_raced_cells_three_rounds_are_not_taken_for_a_session_level():
    """make bench races most cells to 3 rounds: each standard error rests on 2 degrees of freedom and d / s has
    Student's tails, which a fit judging by the normal takes for a level; judged as compare tests a change (each
    change's p), sessions that differ by their rounds alone fit none, and a real level is found."""
    found = synthetic_changes(0.0, n=4000, rounds=3)
    assert 0.45 < float(np.median([c.p(0.0) for c in found])) < 0.56  # Welch's degrees of freedom err a little wide
    assert session_spread.fit(found) < 0.006
    assert abs(session_spread.fit(synthetic_changes(0.04, n=4000, rounds=3, seed=5)) - 0.04) < 0.01


def test_the_relative_fit_finds_the_level_in_units_of_a_rounds_sd():
    assert abs(session_spread.fit(synthetic_changes(0.0, k=0.3), relative=True) - 0.3) < 0.05
    assert session_spread.fit(synthetic_changes(0.0), relative=True) < 0.12  # a third of the rounds' se: the absolute fit's slack


def test_a_ratio_with_a_session_level_has_the_wider_interval_and_keeps_its_rounds_error():
    a = {r: 11.0 * (1 + 0.01 * ((-1) ** r)) for r in range(10)}
    b = {r: 10.0 for r in range(10)}
    alone, with_level = paired_ratio(a, b), paired_ratio(a, b, Level(0.04))
    assert alone is not None and with_level is not None
    assert with_level.se_log == alone.se_log and with_level.value == alone.value and with_level.between == 0.04
    assert with_level.se_total == math.hypot(alone.se_log, 0.04)
    assert alone.half_width < 0.02 < 0.08 < with_level.half_width < 0.11
    pooled = paired_ratio({**a, **{1_000_000 + r: v for r, v in a.items()}}, {**b, **{1_000_000 + r: v for r, v in b.items()}}, Level(0.04))
    assert pooled is not None and pooled.between == 0.0  # pooled sessions measure their own session level
    relative = paired_ratio(a, b, Level(per_round=0.5))  # half a round's sd: se x sqrt(10) / 2
    assert relative is not None and math.isclose(relative.between, 0.5 * alone.se_log * math.sqrt(10))


def test_compare_adds_each_sides_session_level():
    ra, rb = Ratio(1.0, 0.97, 1.03, 0.015, 10), Ratio(1.1, 1.07, 1.13, 0.015, 10)
    _, p_alone = ratio_change(ra, rb)
    assert p_alone < 0.001
    with_levels = ratio_change(Ratio(1.0, 0.9, 1.1, 0.015, 10, 0.05), Ratio(1.1, 1.0, 1.2, 0.015, 10, 0.05))
    assert with_levels[1] > 0.05 and math.isclose(with_levels[0].se_log, math.sqrt(2 * 0.015**2 + 2 * 0.05**2))


def toy(sid: int, shift: dict[str, float], machine_name: str = "toy-box", target_ms: float | None = 20.0, seed: int = 0):
    """A session of one table: the fastest cell `a` and eight others, 10 rounds each at 1% noise, each cell's
    level moved by `shift` (its log) in this session."""
    rng = np.random.default_rng(seed + sid)
    cells = [cell("a", inner=[10.0 * math.exp(rng.normal(0, 0.01)) for _ in range(10)])]
    for i, name in enumerate("bcdefghi"):
        level = 12.0 + i
        cells.append(cell(name, inner=[level * math.exp(shift.get(name, 0.0) + rng.normal(0, 0.01)) for _ in range(10)]))
    return session(cells, SUITES, {"runs": 10, "target_ms": target_ms}, sid=sid, machine_name=machine_name)


def test_the_level_is_fitted_on_this_machines_quiet_sessions_at_the_same_target(tmp_path):
    rng = np.random.default_rng(7)
    db = tmp_path / "s.sqlite"
    for sid in (1, 2, 3):  # each session moves every ratio by N(0, 6%)
        save(db, toy(sid, {name: float(rng.normal(0, 0.06)) for name in "bcdefghi"}))
    save(db, toy(4, {}, machine_name="elsewhere"))
    store = Store(db)
    level = prior.session_spread(store, "toy", "toy-box", 20.0, this_session=99)
    assert level is not None and level.sessions == (1, 2, 3) and level.changes == 8  # 9 cells: 4 disjoint pairs
    assert 0.025 < level.level.sd < 0.12 and level.level.per_round == 0
    assert prior.session_spread(store, "toy", "toy-box", 50.0, 99) is None  # another --target-ms: other work per run
    assert prior.session_spread(store, "toy", "elsewhere", 20.0, 99) is None  # one session there: nothing to fit
    quiet = tmp_path / "q.sqlite"
    for sid in (1, 2, 3):
        save(quiet, toy(sid, {}))
    level = prior.session_spread(Store(quiet), "toy", "toy-box", 20.0, 99)
    assert level is not None and level.level.sd < 0.01  # sessions that differ by their rounds only


def test_a_session_stored_with_its_level_reports_it_in_its_intervals_and_says_so(tmp_path):
    plain = toy(1, {})
    levelled = toy(1, {})
    levelled.suites = {"toy": {**SUITES["toy"], "session_sd": 0.05, "session_sd_from": [3, 4]}}
    (g_plain,), (g_level,) = analyse(plain), analyse(levelled)
    b_plain = next(r for r in g_plain.rows if r.cell.variant == "b")
    b_level = next(r for r in g_level.rows if r.cell.variant == "b")
    assert b_plain.vs_fastest.half_width < 0.02 and b_level.vs_fastest.half_width > 0.09
    assert g_level.session_level == Level(0.05) and not g_plain.session_level
    report = build(levelled)
    assert "toy 5.0%" in report.spread_line and "toy 5.0%" in render(report)
    assert build(plain).spread_line == ""


def test_a_suite_of_too_few_cells_takes_the_relative_level_of_every_suite_of_its_sessions(tmp_path):
    """spin's case: a quiet pair (1% a run, unmoved between sessions) in a suite of too few cells, beside a noisy
    suite (10% a run) that sessions move by 4%. The pooled level is relative, so the quiet pair gets a level in
    proportion to its own noise, not the noisy suite's 4%, and a planted 10% slowdown of it is still found."""
    rng = np.random.default_rng(9)
    db = tmp_path / "s.sqlite"

    def small(sid: int, slower: float = 1.0) -> list:
        return [
            cell(name, suite="tiny", inner=[level * math.exp(rng.normal(0, 0.01)) for _ in range(10)])
            for name, level in (("x", 10.0), ("y", 20.0 * slower))
        ]

    suites = {**SUITES, "tiny": SUITES["toy"]}
    for sid in (1, 2, 3):
        moved = [
            cell(name, inner=[(10.0 + i) * math.exp(shift + rng.normal(0, 0.10)) for _ in range(10)])
            for i, (name, shift) in enumerate((n, float(rng.normal(0, 0.04)) if n != "a" else 0.0) for n in "abcdefghijklm")
        ]
        save(db, session(moved + small(sid), suites, {"runs": 10, "target_ms": 20.0}, sid=sid))
    store = Store(db)
    own, pooled = prior.session_spread(store, "toy", "toy-box", 20.0, 99), prior.session_spread(store, "tiny", "toy-box", 20.0, 99)
    assert own is not None and not own.pooled and own.level.sd > 0.02
    assert pooled is not None and pooled.pooled and pooled.changes == own.changes + 2
    assert pooled.level.sd == 0 and pooled.level.per_round > 0.1
    assert pooled.as_setting()["session_sd_pooled"] is True and pooled.as_setting()["session_sd_per_round"] == pooled.level.per_round

    def ratio(cells: list, level: Level) -> Ratio:
        x, y = ({r.round: r.inner_ns for r in c.runs if r.phase == "measure"} for c in cells)
        return paired_ratio(y, x, level)

    before, after = small(4), small(5, slower=1.1)
    quiet = ratio(before, pooled.level)
    assert quiet.between < own.level.sd / 2  # in proportion to its 1.4% a round, not the noisy suite's level
    assert ratio_change(quiet, ratio(after, pooled.level))[1] < 0.001
    as_noisy = Level(own.level.sd)
    assert ratio_change(ratio(before, as_noisy), ratio(after, as_noisy))[1] > 0.01  # what the absolute pooled level did
