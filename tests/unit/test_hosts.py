"""Answers per host (core/host.py): one machine name (`vm`) is served by hosts whose ratios differ beyond their
intervals, so sessions of two hosts show as two groups, are never pooled, fit no session level together, and
the round planner looks at this host's sessions only."""

from __future__ import annotations

import math

import numpy as np
from sessions import cell, save, session

from iorace.analyse import session_spread
from iorace.analyse.pool import pool
from iorace.core.host import host_of
from iorace.core.ids import TableId
from iorace.run import prior
from iorace.store.db import Store

INTEL = {"cpu_model": "Intel(R) Xeon(R) Processor", "cpu_stepping": "cpu family 6, model 207, stepping 2", "cores": 2}
ZEN4 = {"cpu_model": "AMD EPYC", "cpu_stepping": "cpu family 25, model 17, stepping 1", "cores": 2}
SUITES = {"toy": {"baseline_languages": ["c"], "scale_params": [], "throughput": "bytes", "same_language_reference": None}}
TABLE = TableId.of("toy", "tiny", {"mode": "count"}, [])


def test_a_host_is_labelled_by_its_cpu_family_and_model_and_an_older_session_by_what_it_holds():
    assert host_of(INTEL, "vm").label == "Intel Xeon (6/207)"
    assert host_of(ZEN4, "vm").label == "AMD EPYC Zen 4 (25/17)"
    assert host_of({**ZEN4, "cpu_stepping": "cpu family 26, model 2, stepping 0"}).label == "AMD EPYC Zen 5 (26/2)"
    assert host_of({**ZEN4, "cpu_stepping": "cpu family 25, model 1, stepping 1"}).label == "AMD EPYC Zen 3 (25/1)"
    older = host_of({"cpu_model": "AMD EPYC", "cores": 2}, "vm")  # stored before family and model were
    assert older.label == "AMD EPYC (family unknown)" and older.vendor == "AMD" and older != host_of(ZEN4, "vm")
    assert host_of(INTEL, "vm") != host_of(ZEN4, "vm") and host_of(INTEL, "vm") == host_of({**INTEL, "memory_gb": 4}, "vm")


def toy(sid: int, facts: dict, shift: float = 0.0, seed: int = 0, machine_name: str = "vm"):
    """One table of nine cells, 10 rounds at 1% noise; on this host every cell but the fastest costs `shift`
    (its log, alternating in sign) more: another host's ratios."""
    rng = np.random.default_rng(seed + sid)
    cells = [cell("a", inner=[10.0 * math.exp(rng.normal(0, 0.01)) for _ in range(10)])]
    for i, name in enumerate("bcdefghi"):
        moved = shift * (1 if i % 2 else -1)
        cells.append(cell(name, inner=[(12.0 + i) * math.exp(moved + rng.normal(0, 0.01)) for _ in range(10)]))
    return session(cells, SUITES, {"runs": 10, "target_ms": 20.0}, sid=sid, machine_name=machine_name, facts=facts)


def test_show_of_two_hosts_sessions_shows_one_pooled_result_per_host(iorace_inprocess, tmp_path):
    db = tmp_path / "s.sqlite"
    for sid, facts, shift in ((1, INTEL, 0.0), (2, INTEL, 0.0), (3, ZEN4, 0.3), (4, ZEN4, 0.3)):
        save(db, toy(sid, facts, shift))
    out = iorace_inprocess("show", "1", "2", "3", "4", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "host Intel Xeon (6/207): sessions 1, 2" in out.stdout and "host AMD EPYC Zen 4 (25/17): sessions 3, 4" in out.stdout
    assert "sessions 1, 2 pooled" in out.stdout and "sessions 3, 4 pooled" in out.stdout and "1, 2, 3, 4" not in out.stdout
    refused = iorace_inprocess("show", "1", "3", "--db", str(db), "--export-markdown", str(tmp_path / "r.md"))
    assert refused.returncode == 2 and "export one host's sessions at a time" in refused.stderr
    assert "Traceback" not in refused.stderr and len(refused.stderr.strip().splitlines()) == 1


def test_pooling_keeps_the_last_sessions_host_and_says_which_it_left_out():
    pooled = pool([toy(1, INTEL), toy(2, ZEN4, 0.3), toy(3, INTEL)])
    assert pooled.options["pooled"] == [1, 3]
    assert "session 2 (AMD EPYC Zen 4 (25/17)) left out" in pooled.options["host_note"]
    alone = pool([toy(1, INTEL), toy(2, ZEN4, 0.3)])  # one session of the last one's host: itself, said so
    assert alone.id == 2 and "session 1 (Intel Xeon (6/207)) left out" in alone.options["host_note"]


def test_no_session_level_is_fitted_across_hosts(tmp_path):
    intel = [toy(1, INTEL), toy(2, INTEL)]
    zen = toy(3, ZEN4, 0.3)
    level = session_spread.spread([*intel, zen], "toy")
    assert level is None  # the newest session's host has one session: nothing to fit, not a 30% "level"
    level = session_spread.spread([*intel, zen, toy(4, INTEL)], "toy")
    assert level is not None and level.sessions == (1, 2, 4) and level.level.sd < 0.01
    assert "session 3 (AMD EPYC Zen 4 (25/17)) left out" in level.left_out
    db = tmp_path / "s.sqlite"
    for s in (*intel, zen, toy(4, INTEL), toy(5, INTEL)):  # 5: this session, stored as it starts
        save(db, s)
    store = Store(db)
    found = prior.session_spread(store, "toy", "vm", 20.0, this_session=5)
    assert found is not None and found.sessions == (1, 2, 4) and found.level.sd < 0.01
    assert "session 3 (AMD EPYC Zen 4 (25/17)) left out" in prior.other_hosts_note(store, "toy", "vm", 5, "the session level")


def test_the_planner_plans_from_this_hosts_latest_session_not_another_hosts(tmp_path):
    db = tmp_path / "s.sqlite"
    rng = np.random.default_rng(5)

    def noisy(sid: int, facts: dict, sd: float):
        spreads = {"a": 0.0, "b": sd, "c": sd}
        cells = [cell(n, inner=[c * math.exp(rng.normal(0, spreads[n])) for _ in range(12)]) for n, c in (("a", 10), ("b", 11), ("c", 12))]
        return session(cells, SUITES, sid=sid, machine_name="vm", facts=facts)

    save(db, noisy(1, INTEL, 0.20))  # this host's: noisy
    save(db, noisy(2, ZEN4, 0.01))  # the latest, but another host's and quiet: no plan for this one
    save(db, noisy(3, INTEL, 0.0))  # this session, stored as it starts
    store = Store(db)
    found = prior.planned(store, "toy", {TABLE}, [], "vm", 0.02, this_session=3)
    assert found is not None and found.session_id == 1 and found.sd > 0.1
    _, note = prior.round_cap(store, "toy", {TABLE}, [], "vm", 3, None, 5, 0.02, 60.0)
    assert "planned from session 1" in note and "session 2 (AMD EPYC Zen 4 (25/17)) left out" in note


def test_compare_pools_one_host_a_side_and_names_a_change_of_host(iorace_inprocess, tmp_path):
    db = tmp_path / "s.sqlite"
    for sid, facts, shift in ((1, INTEL, 0.0), (2, INTEL, 0.0), (3, ZEN4, 0.3), (4, ZEN4, 0.3)):
        save(db, toy(sid, facts, shift))
    out = iorace_inprocess("compare", "1,3", "4", "--db", str(db))
    assert out.returncode in (0, 1), out.stderr
    assert "session 3" in out.stdout and "sessions 1, 3" not in out.stdout  # side A is session 3 alone
    assert "A: pooling uses only sessions of host AMD EPYC Zen 4 (25/17): session 1 (Intel Xeon (6/207)) left out" in out.stdout
    out = iorace_inprocess("compare", "1", "4", "--db", str(db))
    assert "host Intel Xeon (6/207) -> AMD EPYC Zen 4 (25/17)" in out.stdout, out.stdout


def test_history_starts_again_where_the_host_changed_and_names_both(iorace_inprocess, tmp_path):
    db = tmp_path / "s.sqlite"
    for sid, facts in ((1, INTEL), (2, INTEL), (3, ZEN4)):
        save(db, toy(sid, facts))
    out = iorace_inprocess("history", "toy", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "a new history from session 3 on" in out.stdout and "host Intel Xeon (6/207) -> AMD EPYC Zen 4 (25/17)" in out.stdout


def test_report_of_two_hosts_sessions_pools_the_last_ones_host_and_names_the_rest(iorace_inprocess, tmp_path):
    db = tmp_path / "s.sqlite"
    for sid, facts, shift in ((1, INTEL, 0.0), (2, ZEN4, 0.3), (3, ZEN4, 0.3)):
        save(db, toy(sid, facts, shift))
    page = tmp_path / "r.html"
    out = iorace_inprocess("report", "1", "2", "3", "--html", str(page), "--db", str(db))
    assert out.returncode == 0, out.stderr
    html = page.read_text()
    problems = html[html.index('<section id="problems">') :].split("</section>")[0]  # said where a reader looks
    assert "pooling uses only sessions of host AMD EPYC Zen 4 (25/17): session 1 (Intel Xeon (6/207)) left out" in problems
    assert "vm, AMD EPYC Zen 4 (25/17)" in html  # the machine line names the host


def test_dimension_from_two_hosts_sessions_takes_the_last_ones_host(iorace_inprocess, tmp_path):
    db = tmp_path / "s.sqlite"
    for sid, facts, shift in ((1, ZEN4, 0.3), (2, INTEL, 0.0), (3, INTEL, 0.0)):
        save(db, toy(sid, facts, shift))
    out = iorace_inprocess("dimension", "toy", "--from", "1,2,3", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "dimension uses only sessions of host Intel Xeon (6/207): session 1 (AMD EPYC Zen 4 (25/17)) left out" in out.stderr
    assert "(sessions 2, 3)" in out.stdout, out.stdout
