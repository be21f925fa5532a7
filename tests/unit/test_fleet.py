"""Many machines, one store (issue 21): the machine's context kept apart, history broken by a changed
machine or context, `iorace machines`, compare's other changes, `iorace compare-machines` (hand-built
sessions, no toolchain)."""

import re

from sessions import save, session
from test_compare import BASE, cell, scaled, table_rows

from iorace import machine
from iorace.store import Store

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


def test_a_session_stores_its_context_and_an_older_one_gets_it_on_opening(tmp_path):
    db = tmp_path / "db.sqlite"
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


def test_a_changed_kernel_under_one_machine_name_starts_a_new_history_and_says_so(iorace_inprocess, tmp_path):
    db = tmp_path / "db.sqlite"
    save(db, session([cell("a", BASE), cell("b", BASE)], git="1111111"))
    save(db, session([cell("a", scaled(1.2)), cell("b", BASE)], git="2222222", facts={"kernel": "6.12"}))
    save(db, session([cell("a", scaled(1.44)), cell("b", BASE)], git="3333333", facts={"kernel": "6.12"}))
    save(db, session([cell("a", scaled(3)), cell("b", BASE)], git="4444444", machine_name="other-box"))
    out = iorace_inprocess("history", "demo", "--db", str(db))
    assert out.returncode == 0, out.stderr
    a = table_rows(out.stdout)["tiny c/a@gcc:release[passes=1]"]
    # session 2 is not compared with session 1 (another kernel), session 3 is with 2; other-box is not with either
    assert "12.0 ms ▲" not in a and "14.4 ms ▲+20%" in a and "30.0 ms ▲" not in a, a
    breaks = [line for line in out.stdout.splitlines() if "a new history" in line]
    assert len(breaks) == 1 and "machine toy-box: a new history from session 2 on (kernel 6.1 -> 6.12)" in breaks[0], out.stdout
    assert "1 significant changes" in out.stdout


# --- iorace machines ------------------------------------------------------------------------------


def test_machines_lists_each_machine_with_its_sessions(iorace_inprocess, tmp_path):
    db = tmp_path / "db.sqlite"
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
        ["toy-box", toy, "Toy", "CPU", "2", "2", "2026-11-20", "08:00", "2026-11-21", "09:30"],
        ["arm-1", arm, "Neoverse", "64", "1", "2026-11-22", "10:00", "2026-11-22", "10:00"],
        ["toy-box", toy4, "Toy", "CPU", "4", "1", "2026-11-23", "11:00", "2026-11-23", "11:00"],
    ], out.stdout
    md = iorace_inprocess("machines", "--db", str(db), "--markdown").stdout
    assert md.splitlines()[0] == "| machine | fingerprint | CPU model | cores | sessions | first session | last session |"
    assert f"| arm-1 | {arm} | Neoverse | 64 | 1 | 2026-11-22 10:00 | 2026-11-22 10:00 |" in md


# --- compare: what changed besides the code -------------------------------------------------------


def test_compare_says_what_changed_besides_the_code(iorace_inprocess, tmp_path):
    db = tmp_path / "db.sqlite"
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
    from iorace.compare import compare, side_from_session, what_else_changed

    a = side_from_session(session([cell("a", BASE), cell("b", BASE)]))
    b = side_from_session(session([cell("a", BASE), cell("b", BASE)], machine_name="arm-1", facts={"cpu_model": "Neoverse"}))
    fa, fb = machine.fingerprint({"cpu_model": "Toy CPU", "cores": 2}), machine.fingerprint({"cpu_model": "Neoverse", "cores": 2})
    assert what_else_changed(compare(a, b)) == [
        f"changed besides the code: machine: toy-box ({fa}) -> arm-1 ({fb}); CPU Toy CPU -> Neoverse"
    ]
