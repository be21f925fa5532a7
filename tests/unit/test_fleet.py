"""Many machines, one store: the machine's context kept apart, history broken by a changed
machine or context, `iorace machines`, compare's other changes, `iorace compare-machines` (hand-built
sessions, no toolchain)."""

import re

import numpy as np
import pytest
from sessions import save, session
from test_compare import BASE, cell, scaled, table_rows

from iorace.compare import fleet
from iorace.core import machine
from iorace.store.db import Store


@pytest.fixture
def fleet_db(tmp_path):
    """The store of these tests: a file (tests/test_pgstore.py: a PostgreSQL server's database)."""
    return tmp_path / "fleet.sqlite"


# --- the context: what breaks a history, apart from what does not ---------------------------------


def test_the_context_holds_what_breaks_a_history_and_not_the_load_or_the_clock():
    kept = {"kernel": "6.1", "mitigations": {"meltdown": "Not affected"}, "data_fs": "ext4 on /dev/sda1"}
    facts = {**kept, "load": [1, 1, 1], "cpu_mhz": 3000}
    ctx = machine.context(facts, {"gcc": "gcc 12"})
    assert ctx == {**kept, "toolchains": {"gcc": "gcc 12"}}
    fp = machine.context_fingerprint(ctx)
    calm = machine.context({**facts, "load": [9, 9, 9], "cpu_mhz": 800}, {"gcc": "gcc 12"})
    assert machine.context_fingerprint(calm) == fp != ""
    for other in ({"kernel": "6.12"}, {"mitigations": {"meltdown": "Vulnerable"}}, {"data_fs": "tmpfs on tmpfs"}):
        assert machine.context_fingerprint(machine.context({**facts, **other}, {})) != fp, other
    assert machine.context_changes(ctx, machine.context({**facts, "kernel": "6.12"}, {"gcc": "gcc 13"})) == [
        "kernel 6.1 -> 6.12",
        "toolchain gcc: gcc 12 -> gcc 13",
    ]


def test_this_machine_knows_its_mitigations_and_the_data_folders_filesystem(tmp_path):
    facts = machine.info()
    assert isinstance(facts["mitigations"], dict) and re.fullmatch(r"\S+ on \S+|unknown", facts["data_fs"])
    assert machine.data_filesystem(tmp_path) != "unknown"


def test_a_session_stores_its_context_and_an_older_one_gets_it_on_opening(tmp_path, fleet_db):
    db = fleet_db
    store = Store(db)
    facts = {"cpu_model": "X", "cores": 2, "memory_gb": 4, "kernel": "6.1", "mitigations": {"l1tf": "Not affected"}}
    facts["data_fs"] = "ext4 on /dev/x"
    sid = store.begin_session("2026-11-23T00:00:00", "iorace run", {}, facts, {}, "abc", "0.1")
    store.set_toolchains(sid, {"gcc": "gcc 12"})
    store.db.commit()
    s = store.load(sid)
    assert s.machine_context == machine.context(facts, {"gcc": "gcc 12"})
    assert s.context_fingerprint == machine.context_fingerprint(s.machine_context) != ""
    store.db.execute("UPDATE sessions SET machine_context = '{}', context_fingerprint = NULL")  # as an older iorace left it
    store.db.commit()
    store.close()
    again = Store(db).load(sid)
    assert again.machine_context == machine.context(facts, {"gcc": "gcc 12"}) and again.context_fingerprint == s.context_fingerprint


# --- history: a changed machine or context under one name starts a new history ----------------------


def sessions_of(db, n: int, factors: dict[str, float], seed: int, first: int = 1, toolchain_version: str = "", **kw) -> None:
    """n sessions (days first, first + 1, ...) of the given cells, each `factor` times BASE with 3% noise a round."""
    rng = np.random.default_rng(seed)
    for i in range(first, first + n):
        cells = []
        for name, factor in factors.items():
            tc = "clang" if name.endswith("@clang") else "gcc"
            cells.append(cell(name.split("@")[0], [t * factor * float(np.exp(rng.normal(0, 0.03))) for t in BASE], toolchain=tc))
            if toolchain_version and tc == "gcc":
                cells[-1].toolchain_version = toolchain_version
        save(db, session(cells, git=f"{i:07d}", started=f"2026-11-{i:02d}T08:00:00+00:00", **kw))


def test_a_changed_kernel_under_one_machine_name_starts_a_new_history_and_says_so(iorace_inprocess, tmp_path, fleet_db):
    db = fleet_db
    sessions_of(db, 5, {"a": 1.0, "b": 1.0}, seed=1)
    sessions_of(db, 5, {"a": 1.2, "b": 1.0}, seed=2, first=6, facts={"kernel": "6.12"})  # a 20% slower on the new kernel
    sessions_of(db, 3, {"a": 3.0, "b": 1.0}, seed=3, first=11, machine_name="other-box")
    out = iorace_inprocess("history", "demo", "--db", str(db))
    assert out.returncode == 0, out.stderr
    # five sessions a side would show a's step as a change point; across another kernel they are not one series
    assert "▲" not in out.stdout and "0 change points" in out.stdout, out.stdout
    breaks = [line for line in out.stdout.splitlines() if "a new history" in line]
    assert len(breaks) == 1 and "machine toy-box: a new history from session 6 on (kernel 6.1 -> 6.12)" in breaks[0], out.stdout


# --- iorace machines ------------------------------------------------------------------------------


def test_machines_lists_each_machine_with_its_sessions(iorace_inprocess, tmp_path, fleet_db):
    db = fleet_db
    save(db, session([cell("a", BASE)], started="2026-11-20T08:00:00+00:00"))
    save(db, session([cell("a", BASE)], started="2026-11-21T09:30:00+00:00"))
    save(
        db,
        session([cell("a", BASE)], started="2026-11-22T10:00:00+00:00", machine_name="arm-1", facts={"cpu_model": "Neoverse", "cores": 64}),
    )
    save(db, session([cell("a", BASE)], started="2026-11-23T11:00:00+00:00", facts={"cores": 4}))  # toy-box, changed
    out = iorace_inprocess("machines", "--db", str(db))
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines() if line.strip().startswith(("toy-box", "arm-1"))]
    toy, arm = machine.fingerprint({"cpu_model": "Toy CPU", "cores": 2}), machine.fingerprint({"cpu_model": "Neoverse", "cores": 64})
    toy4 = machine.fingerprint({"cpu_model": "Toy CPU", "cores": 4})
    assert rows == [
        ["toy-box", toy, "Toy", "CPU", "(family", "unknown)", "2", "2", "2026-11-20", "08:00", "2026-11-21", "09:30"],
        ["arm-1", arm, "Neoverse", "(family", "unknown)", "64", "1", "2026-11-22", "10:00", "2026-11-22", "10:00"],
        ["toy-box", toy4, "Toy", "CPU", "(family", "unknown)", "4", "1", "2026-11-23", "11:00", "2026-11-23", "11:00"],
    ], out.stdout
    md = iorace_inprocess("machines", "--db", str(db), "--markdown").stdout
    assert md.splitlines()[0] == "| machine | fingerprint | host | cores | sessions | first session | last session |"
    assert f"| arm-1 | {arm} | Neoverse (family unknown) | 64 | 1 | 2026-11-22 10:00 | 2026-11-22 10:00 |" in md


# --- compare: what changed besides the code -------------------------------------------------------


def test_compare_says_what_changed_besides_the_code(iorace_inprocess, tmp_path, fleet_db):
    db = fleet_db
    save(db, session([cell("a", BASE), cell("b", BASE), cell("c", BASE)], options={"runs": 10, "seed": 1}))
    save(
        db,
        session(
            [cell("a", scaled(1.3)), cell("b", BASE), cell("c", BASE)],
            options={"runs": 20, "seed": 2},
            facts={"kernel": "6.12"},
            toolchains={"gcc": "gcc 13.1", "clang": "clang 14"},
        ),
    )
    store = Store(db)  # the cells' own toolchain version moved with the compiler upgrade
    store.db.execute("UPDATE cells SET toolchain_version = 'gcc 13.1' WHERE session_id = 2")
    store.db.commit()
    store.close()
    out = iorace_inprocess("compare", "1", "2", "--db", str(db))
    assert out.returncode == 1 and "regressed: demo tiny c/a@" in out.stderr, out.stderr
    lines = [line.strip("• ") for line in out.stdout.splitlines() if "changed besides the code" in line]
    assert lines == [
        "changed besides the code: kernel 6.1 -> 6.12",
        "changed besides the code: toolchain gcc: gcc 1.0 -> gcc 13.1",
        "changed besides the code: option runs: 10 -> 20",
    ], out.stdout
    md = iorace_inprocess("compare", "1", "2", "--db", str(db), "--markdown").stdout
    assert "- changed besides the code: toolchain gcc: gcc 1.0 -> gcc 13.1" in md
    same = iorace_inprocess("compare", "1", "1", "--db", str(db))
    assert "changed besides the code" not in same.stdout


def test_compare_names_another_machine():
    from iorace.compare.draw import what_else_changed
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    a = side_from_session(session([cell("a", BASE), cell("b", BASE)]))
    b = side_from_session(session([cell("a", BASE), cell("b", BASE)], machine_name="arm-1", facts={"cpu_model": "Neoverse"}))
    fa, fb = machine.fingerprint({"cpu_model": "Toy CPU", "cores": 2}), machine.fingerprint({"cpu_model": "Neoverse", "cores": 2})
    assert what_else_changed(compare(a, b)) == [
        f"changed besides the code: machine: toy-box ({fa}) -> arm-1 ({fb}); host Toy CPU (family unknown) -> Neoverse (family unknown)"
    ]


# --- compare-machines: simulated machines ---------------------------------------------------------


def simulated(seed: int, base_ms: dict[str, float], name: str, facts: dict | None = None, rounds: int = 12, **kw):
    """One machine's session: cells of one table whose times are base_ms, over `rounds` rounds; each round
    drifts alike for every cell (5%), each run has its own noise (1%); seeded."""
    rng = np.random.default_rng(seed)
    drift = np.exp(rng.normal(0, 0.05, rounds))
    cells = [cell(v, list(ms / 1000 * drift * np.exp(rng.normal(0, 0.01, rounds)))) for v, ms in base_ms.items()]
    return session(cells, machine_name=name, facts=facts, **kw)


XEON = {"cpu_model": "Xeon 9", "cores": 8}
ARM = {"cpu_model": "Neoverse", "cores": 64, "kernel": "6.12"}


def fleet_rows(text: str) -> dict[tuple[str, str], list[str]]:
    """The pairs table's rows by (cell A's variant, cell B's variant)."""
    out = {}
    for line in text.splitlines():
        m = re.search(r"c/(\w+)@\S+\s+c/(\w+)@\S+\s+(holds|flips|unresolved)\s+(.*)$", line)
        if m:
            out[m[1], m[2]] = [m[3], *re.split(r"\s{2,}", m[4].strip())]
    return out


def test_an_injected_flip_and_a_ranking_that_holds_are_told_apart(iorace_inprocess, tmp_path, fleet_db):
    db = fleet_db
    # a is 30% faster than b everywhere; c is 15% faster than d on the Xeons, 15% slower on the ARM machine;
    # e and f are equal everywhere; g is 20% faster than h on the Xeons, as fast on the ARM machine
    usual = {"a": 10.0, "b": 13.0, "c": 20.0, "d": 23.0, "e": 30.0, "f": 30.0, "g": 40.0, "h": 48.0}
    save(db, simulated(1, usual, "xeon-1", XEON))
    save(db, simulated(2, usual, "xeon-2", XEON))
    save(db, simulated(3, {**usual, "c": 23.0, "d": 20.0, "g": 44.0, "h": 44.0}, "arm-1", ARM))
    save(db, simulated(4, {**usual, "a": 99.0}, "xeon-1", XEON, started="2026-11-21T08:00:00+00:00"))  # older: not taken
    md = tmp_path / "fleet.md"
    out = iorace_inprocess("compare-machines", "demo", "--db", str(db), "--markdown", str(md))
    assert out.returncode == 0, out.stderr
    rows = fleet_rows(out.stdout)
    assert rows["a", "b"] == ["holds", "arm-1, xeon-1, xeon-2", "-", "-"]
    assert rows["c", "d"] == ["flips", "xeon-1, xeon-2", "arm-1", "-"]
    assert rows["e", "f"][0] == "unresolved" and rows["e", "f"][-1] == "arm-1, xeon-1, xeon-2"
    assert rows["g", "h"] == ["unresolved", "xeon-1, xeon-2", "-", "arm-1"]
    flips = {k for k, v in rows.items() if v[0] == "flips"}
    assert flips == {("c", "d")}, rows
    flip = next(line for line in out.stdout.splitlines() if line.startswith("flip:"))
    assert "arm-1 vs xeon-1: fingerprint " in flip, flip
    assert "host Xeon 9 (family unknown) -> Neoverse (family unknown); kernel 6.1 -> 6.12" in flip, flip
    assert "28 pairs of cells on 3 machines (arm-1 #3, xeon-1 #1, xeon-2 #2)" in out.stdout
    text = md.read_text()
    assert "| tiny passes=1 | c/c@gcc:release[passes=1] | c/d@gcc:release[passes=1] | flips | xeon-1, xeon-2 | arm-1 | - |" in text, text
    assert "- flip: tiny c/c@" in text and "Spearman rho" in text


def test_a_20_percent_slowdown_of_one_cell_on_one_machine_is_reported_there_only(iorace_inprocess, tmp_path, fleet_db):
    db = fleet_db
    usual = {"a": 10.0, "b": 11.0, "c": 13.0, "d": 16.0, "e": 20.0}
    for i in range(4):
        slow = {**usual, "a": 12.0} if i == 2 else usual  # m2's cell a 20% slower: past b, short of c
        save(db, simulated(10 + i, slow, f"m{i}", XEON))
    out = iorace_inprocess("compare-machines", "demo", "--db", str(db))
    assert out.returncode == 0, out.stderr
    rows = fleet_rows(out.stdout)
    assert rows.pop(("a", "b")) == ["flips", "m0, m1, m3", "m2", "-"]
    assert all(v == ["holds", "m0, m1, m2, m3", "-", "-"] for v in rows.values()), rows
    flip = next(line for line in out.stdout.splitlines() if line.startswith("flip:"))
    assert "m2 vs m0: nothing stored differs" in flip
    rho = {(a, b): r for a, b, r, _ in fleet.compare_machines(Store(db), "demo").correlations}
    assert rho["m0", "m1"] == rho["m0", "m3"] == pytest.approx(1.0) and rho["m0", "m2"] < 0.99 and rho["m1", "m2"] < 0.99


def test_compare_machines_of_an_unknown_suite_is_one_line(iorace_inprocess, tmp_path, fleet_db):
    db = fleet_db
    save(db, simulated(1, {"a": 1.0, "b": 2.0}, "m0"))
    out = iorace_inprocess("compare-machines", "nosuch", "--db", str(db))
    assert out.returncode == 2 and "nosuch: no finished session has this suite (stored: demo)" in out.stderr, out.stderr


def test_history_of_the_last_sessions_reads_those_and_each_ones_machines_previous_only(iorace_inprocess, fleet_db, monkeypatch):
    db = fleet_db
    save(db, session([cell("a", BASE), cell("b", BASE)]))
    save(db, session([cell("a", BASE), cell("b", BASE)], machine_name="other-box"))
    save(db, session([cell("a", scaled(2)), cell("b", BASE)], machine_name="third-box"))
    save(db, session([cell("a", scaled(1.2)), cell("b", BASE)]))  # toy-box again: a 20% slower than in session 1
    loaded = []
    load = Store.load
    monkeypatch.setattr(Store, "load", lambda self, sid=None: loaded.append(sid) or load(self, sid))
    out = iorace_inprocess("history", "demo", "--db", str(db), "--last", "1")
    assert out.returncode == 0, out.stderr
    assert sorted(loaded) == [1, 2, 3, 4], loaded  # --window 30: change points are found over the last 30 sessions
    loaded.clear()
    out = iorace_inprocess("history", "demo", "--db", str(db), "--last", "1", "--window", "1")
    assert out.returncode == 0, out.stderr
    assert sorted(loaded) == [1, 4], loaded
    assert "12.0 ms" in table_rows(out.stdout)["tiny c/a@gcc:release[passes=1]"], out.stdout


def test_fleet_scale_fills_a_store_and_times_the_three_commands(monkeypatch, capsys, tmp_path):
    import runpy

    from test_workflow import REPO

    monkeypatch.setattr(
        "sys.argv", ["fleet-scale", "--machines", "3", "--sessions", "2", "--cells", "4", "--db", str(tmp_path / "s.sqlite")]
    )
    runpy.run_path(str(REPO / "tools" / "fleet_scale.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "filled" in out and "6 sessions, 24 cells, 240 runs" in out, out
    assert re.search(r"^machines: [\d.]+ s  3 machines$", out, re.M), out
    assert re.search(r"^compare-machines readbytes: [\d.]+ s .*6 pairs", out, re.M), out
    assert re.search(r"^history readbytes: [\d.]+ s .*4 cells x 6 sessions", out, re.M), out


def test_the_html_report_lists_the_mitigations_one_by_one():
    from sessions import toy_session

    from iorace.export.html import render
    from iorace.report.document import build

    s = toy_session()
    s.machine = {
        **s.machine,
        "mitigations": {"meltdown": "Not affected", "spectre_v2": "Mitigation: Retpolines"},
        "data_fs": "xfs on /dev/sdb",
    }
    page = render(build(s))
    assert "meltdown: Not affected; spectre_v2: Mitigation: Retpolines" in page and "xfs on /dev/sdb" in page


def test_a_compiler_upgrade_starts_a_new_history_of_its_cells_only(iorace_inprocess, fleet_db):
    db = fleet_db
    sessions_of(db, 5, {"a": 1.0, "b@clang": 1.0}, seed=1)
    sessions_of(
        db,
        5,
        {"a": 1.3, "b@clang": 1.3},
        seed=2,
        first=6,
        toolchain_version="gcc 13.1",
        toolchains={"gcc": "gcc 13.1", "clang": "clang 14"},
    )
    out = iorace_inprocess("history", "demo", "--db", str(db))
    rows = table_rows(out.stdout)
    assert "▲" not in rows["tiny c/a@gcc:release[passes=1]"] and "▲+3" in rows["tiny c/b@clang:release[passes=1]"], out.stdout
    lines = [line for line in out.stdout.splitlines() if "new history" in line]
    assert lines == ["• machine toy-box: from session 6 on, a new history of the cells of toolchain gcc: gcc 12.2 -> gcc 13.1"], out.stdout


def test_compare_machines_markdown_into_a_missing_folder_is_one_line(iorace_inprocess, fleet_db, tmp_path):
    save(fleet_db, simulated(1, {"a": 1.0, "b": 2.0}, "m0"))
    out = iorace_inprocess("compare-machines", "demo", "--db", str(fleet_db), "--markdown", str(tmp_path / "no" / "fleet.md"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--markdown" in out.stderr and "does not exist" in out.stderr, out.stderr


def test_compare_machines_takes_each_host_of_one_name_as_its_own_machine(iorace_inprocess, fleet_db):
    db = fleet_db
    intel = {"cpu_model": "Intel(R) Xeon(R) Processor", "cpu_stepping": "cpu family 6, model 207, stepping 2", "cores": 2}
    zen4 = {"cpu_model": "AMD EPYC", "cpu_stepping": "cpu family 25, model 17, stepping 1", "cores": 2}
    usual = {"a": 10.0, "b": 13.0, "c": 20.0, "d": 40.0}
    save(db, simulated(1, usual, "vm", intel))  # both named vm, as every host of this VM kind is: c and d flip
    save(db, simulated(2, {**usual, "d": 15.0}, "vm", zen4))
    out = iorace_inprocess("compare-machines", "demo", "--db", str(db))
    assert out.returncode == 0, out.stderr
    assert "on 2 machines (vm on AMD EPYC Zen 4 (25/17) #2, vm on Intel Xeon (6/207) #1)" in out.stdout, out.stdout
    flip = next(line for line in out.stdout.splitlines() if line.startswith("flip:"))
    assert "host AMD EPYC Zen 4 (25/17) -> Intel Xeon (6/207)" in flip, flip
