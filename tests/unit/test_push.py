"""`iorace push`: a session measured into a local file is copied to a shared store whole, once, and read
from there as from the file. Here the shared store is another SQLite file (`push_target`);
tests/test_pgstore.py runs these tests again with a real PostgreSQL server as the target."""

from __future__ import annotations

import dataclasses
import socket

import pytest
from sessions import cell, save, session, toy_session

from iorace.core.errors import UsageError
from iorace.store.db import Store


@pytest.fixture
def push_target(tmp_path):
    """The shared store (tests/test_pgstore.py: a fresh database on a real PostgreSQL server)."""
    return tmp_path / "shared.sqlite"


def counted(store: Store) -> dict[str, int]:
    """Rows in each table of a store."""
    return {t: store.db.execute(f"SELECT count(*) AS n FROM {t}").fetchone()["n"] for t in ("sessions", "cells", "runs", "counters")}


def numbered_out(s):
    """A session less the numbers a store gives it (its id, its cells' ids)."""
    return dataclasses.replace(s, id=0, cells=[dataclasses.replace(c, id=0) for c in s.cells])


def with_counters():
    s = toy_session()
    s.cells[2].counters = {"perf:cycles": 5.0e6, "perf:instructions": 7.5e6}
    s.cells[2].counter_notes = {"perf:branch-misses": "no hardware counters here"}
    return s


def test_a_pushed_session_is_there_whole_numbered_anew(tmp_path, push_target):
    local = Store(tmp_path / "local.sqlite")
    first, second = local.add_session(toy_session()), local.add_session(with_counters())
    shared = Store(push_target)
    for n in range(2):  # other machines' sessions were there first
        shared.add_session(session([cell(f"other{n}", inner=[1, 2, 3])]))
    done = local.push(second, shared)
    assert done.copied and done.there != second
    original = local.load(second)
    there = shared.load(done.there)
    assert numbered_out(there) == numbered_out(original)  # every field of it, its cells, runs, counters, uuid
    # its cells are numbered by the shared store (their runs and counters follow them)
    assert [c.id for c in there.cells] == [3, 4, 5, 6, 7] and [c.id for c in original.cells] == [6, 7, 8, 9, 10]
    assert local.push(first, shared).there == done.there + 1


def test_pushing_twice_changes_nothing(tmp_path, push_target):
    local = Store(tmp_path / "local.sqlite")
    sid = local.add_session(with_counters())
    shared = Store(push_target)
    first = local.push(sid, shared)
    before = counted(shared)
    again = local.push(sid, Store(push_target))
    assert (again.copied, again.there) == (False, first.there)
    assert counted(Store(push_target)) == before
    assert before["counters"] == 3  # the counter notes too


def test_push_command_copies_the_latest_then_says_what_is_there(iorace_inprocess, tmp_path, push_target):
    local = tmp_path / "local.sqlite"
    save(local, toy_session())
    save(local, with_counters())
    out = iorace_inprocess("push", "--db", str(local), "--to", str(push_target))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("session 2 -> ") and "pushed as session 1 (5 cells, 20 runs)" in out.stdout, out.stdout
    out = iorace_inprocess("push", "--all", "--db", str(local), "--to", str(push_target))
    assert out.returncode == 0, out.stderr
    uuid = Store(local).load(2).uuid
    assert out.stdout.splitlines()[0].endswith("pushed as session 2 (5 cells, 20 runs)"), out.stdout
    assert out.stdout.splitlines()[1].endswith(f"already there as session 1 (uuid {uuid}): skipped"), out.stdout
    # and the shared store is read like the file: the same report, but for the session's number there
    here, there = (iorace_inprocess("show", str(n), "--db", str(db)).stdout for n, db in ((2, local), (1, push_target)))
    assert "c/slow" in here and "session 2 on toy-box, host Toy CPU (family unknown) (done" in here
    assert there == here.replace("session 2 on", "session 1 on")


def test_a_session_still_running_is_not_pushed(iorace_inprocess, tmp_path, push_target):
    local = tmp_path / "local.sqlite"
    save(local, toy_session())
    store = Store(local)
    running = store.begin_session("t", "iorace run toy", {}, {}, {}, "abc", "0.1")
    with pytest.raises(UsageError, match="still running"):
        store.push(running, Store(push_target))
    out = iorace_inprocess("push", "--db", str(local), "--to", str(push_target))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "session 2 of" in out.stderr and "still running" in out.stderr
    out = iorace_inprocess("push", "--all", "--db", str(local), "--to", str(push_target))
    assert out.returncode == 0 and "pushed as session 1" in out.stdout and "still running" in out.stderr
    assert Store(push_target).session_ids() == [1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one_line_error(out, *needles: str) -> str:
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("iorace: error: "), out.stderr
    assert "Traceback" not in out.stderr and "secret" not in out.stderr  # the password is never shown
    for n in needles:
        assert n in out.stderr, out.stderr
    return out.stderr


@pytest.mark.parametrize(
    ("url", "needles"),
    [
        ("mysql://u:secret@127.0.0.1/db", ["not a postgresql:// URL"]),
        ("postgresql://u:secret@127.0.0.1:notaport/db", ["cannot connect", "u:***@"]),
        ("postgresql://u:secret@127.0.0.1:{port}/db", ["cannot connect", "refused"]),
        ("postgresql://u:secret@[::1/db", ["cannot connect", 'in URI: "postgresql://u:***@[::1/db"']),  # libpq quotes it
    ],
)
def test_a_bad_url_or_a_refused_connection_is_one_line_and_exit_2(iorace_inprocess, tmp_path, url, needles):
    pytest.importorskip("psycopg", reason="the pg extra: pip install 'iorace[pg]' (scripts/setup installs it)")
    save(tmp_path / "local.sqlite", toy_session())
    url = url.format(port=free_port())  # nothing listens there
    one_line_error(iorace_inprocess("push", "--db", str(tmp_path / "local.sqlite"), "--to", url), *needles)
    one_line_error(iorace_inprocess("show", "--db", url), *needles)


def test_without_the_driver_a_url_says_what_to_install(iorace_inprocess, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "psycopg", None)  # import psycopg fails
    one_line_error(iorace_inprocess("history", "toy", "--db", "postgresql://u:secret@127.0.0.1/db"), "pip install 'iorace[pg]'")


def test_run_measures_into_a_file_only(iorace_inprocess, monkeypatch):
    one_line_error(iorace_inprocess("run", "readbytes", "--db", "postgresql://u:secret@h/db"), "local SQLite file", "iorace push")
    monkeypatch.setenv("IORACE_DB", "postgresql://u:secret@h/db")
    one_line_error(iorace_inprocess("run", "readbytes"), "unset IORACE_DB")
