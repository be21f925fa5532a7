"""The store on a real PostgreSQL server (conftest's pg_server: initdb into a temporary folder, a free port
of 127.0.0.1), the shared store of `iorace push`.

The store's own tests run here again, each on a fresh database of that server instead of a SQLite file
(their fixtures store_db, push_target, golden_db, compare's db and history_db are overridden below), so both backends
pass the same tests; compare's and history's golden outputs are read from sessions pushed to the server.
Then what only a server has: three processes pushing at once, a server killed in the middle of a push,
and a wrong password."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time

import pytest
from sessions import cell, save, session, toy_session

# The store's tests of the fast tier (tests/unit/ is on sys.path: see conftest), imported to be collected
# again in this module, with its fixtures below: on PostgreSQL.
from test_compare import (  # noqa: F401
    test_a_significant_slowdown_beyond_the_threshold_fails_the_comparison,
    test_bad_input_is_one_line_and_exit_2,
    test_git_revision_picks_the_latest_session_made_there,
    test_history_finds_the_change_point_where_a_cell_changed_and_names_its_commits,
    test_history_lists_a_change_of_an_exact_count,
    test_history_names_a_change_of_every_cell_of_a_table_once,
    test_history_of_three_sessions_claims_no_change_point,
    test_history_of_unchanged_code_is_clean,
    test_history_says_a_change_shows_on_every_machine,
    test_history_says_a_change_shows_on_one_machine_only,
    three_sessions,
)
from test_fleet import (  # noqa: F401
    test_a_20_percent_slowdown_of_one_cell_on_one_machine_is_reported_there_only,
    test_a_changed_kernel_under_one_machine_name_starts_a_new_history_and_says_so,
    test_a_session_stores_its_context_and_an_older_one_gets_it_on_opening,
    test_an_injected_flip_and_a_ranking_that_holds_are_told_apart,
    test_compare_says_what_changed_besides_the_code,
    test_history_of_the_last_sessions_reads_those_and_each_ones_machines_previous_only,
    test_machines_lists_each_machine_with_its_sessions,
)
from test_golden import full_session, stored, test_compare_terminal_and_markdown, test_history_terminal  # noqa: F401
from test_push import (  # noqa: F401
    numbered_out,
    test_a_pushed_session_is_there_whole_numbered_anew,
    test_a_session_still_running_is_not_pushed,
    test_push_command_copies_the_latest_then_says_what_is_there,
    test_pushing_twice_changes_nothing,
    with_counters,
)
from test_store_and_exports_unit import (  # noqa: F401
    test_a_cell_and_its_counters_are_updated_in_place,
    test_a_whole_session_is_stored_and_loaded_as_it_was,
    test_round_trip,
    test_unknown_session_is_a_usage_error,
)

from conftest import REPO, run_iorace
from iorace.store.db import Store


@pytest.fixture
def store_db(pg_database):
    return pg_database


@pytest.fixture
def push_target(pg_database):
    return pg_database


def pushed(local, url: str) -> str:
    """Every session of a local file pushed to the server, in order (as `iorace push --all` does)."""
    source, target = Store(local), Store(url)
    for sid in source.session_ids():
        source.push(sid, target)
    return url


@pytest.fixture
def history_db(pg_database):
    return pg_database


@pytest.fixture
def fleet_db(pg_database):
    return pg_database


@pytest.fixture
def golden_db(pg_database, tmp_path):
    return pushed(stored(tmp_path / "local.sqlite"), pg_database)


@pytest.fixture
def db(pg_database, tmp_path):
    return pushed(three_sessions(tmp_path / "local.sqlite"), pg_database)


def count(url: str, table: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "iorace", *args], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_lock_waiters(url: str, n: int, query: str, procs: list[subprocess.Popen], *, wrote: bool = False, timeout: float = 60) -> None:
    """Until n backends wait on a lock at a statement starting with `query` (the pushes got that far), each
    having written rows in its transaction already if `wrote`."""
    import psycopg

    # autocommit: pg_stat_activity is read once per transaction
    with psycopg.connect(url, autocommit=True) as conn:
        _wait(conn, n, query, procs, wrote, timeout)


def _wait(conn, n: int, query: str, procs: list[subprocess.Popen], wrote: bool, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        waiting = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE %s"
            + (" AND backend_xid IS NOT NULL" if wrote else ""),
            (query + "%",),
        ).fetchone()[0]
        if waiting >= n:
            return
        for p in procs:
            if p.poll() is not None:
                pytest.fail(f"a push ended before it reached the lock: exit {p.returncode}: {p.communicate()}")
        time.sleep(0.05)
    pytest.fail(f"fewer than {n} pushes waited at {query!r} within {timeout} s")


def test_three_processes_pushing_at_once_lose_nothing(pg_database, tmp_path):
    """Three machines push at once: A and B both have session `dup` (B got it from A), C its own. Every
    session is there once, whole, and one of A and B says that `dup` was there already."""
    import psycopg

    dup = toy_session()
    locals_ = {name: tmp_path / f"{name}.sqlite" for name in "ABC"}
    save(locals_["A"], dup)
    save(locals_["A"], session([cell("a2", inner=[5, 6, 5])], git="a2"))
    save(locals_["B"], dup)  # the same session (the same uuid)
    save(locals_["B"], session([cell("b2", inner=[7, 7, 8])], git="b2"))
    save(locals_["C"], with_counters())
    save(locals_["C"], session([cell("c2", inner=[9, 9, 9])], git="c2"))
    Store(pg_database)  # the tables are there, for the lock
    hold = psycopg.connect(pg_database)
    hold.execute("LOCK TABLE sessions IN SHARE MODE")  # every push waits at its first INSERT until all three are there
    procs = {name: cli("push", "--all", "--db", str(path), "--to", pg_database) for name, path in locals_.items()}
    try:
        wait_for_lock_waiters(pg_database, 3, "INSERT INTO sessions", list(procs.values()))
    finally:
        hold.commit()  # now all three insert at once
        hold.close()
    outs = {name: p.communicate(timeout=120) for name, p in procs.items()}
    assert all(p.returncode == 0 for p in procs.values()), outs
    skipped = [name for name, (out, _) in outs.items() if "already there" in out]
    assert len(skipped) == 1 and skipped[0] in "AB", outs
    shared = Store(pg_database)
    there = [shared.load(sid) for sid in shared.session_ids()]
    assert sorted(s.uuid for s in there) == sorted({Store(p).load(sid).uuid for p in locals_.values() for sid in (1, 2)})
    by_uuid = {s.uuid: numbered_out(s) for s in there}
    for path in locals_.values():
        for sid in (1, 2):
            mine = Store(path).load(sid)
            assert by_uuid[mine.uuid] == numbered_out(mine)
    assert count(pg_database, "cells") == sum(len(s.cells) for s in there)


def test_stores_opening_a_new_database_at_once_make_its_tables_once(pg_database):
    """Four processes' first push to a new server: each makes the tables it lacks, none fails on another's
    (PostgreSQL's catalog refuses a second CREATE TABLE of the same name while the first is uncommitted)."""
    import threading

    start, errors = threading.Barrier(4), []

    def open_store() -> None:
        start.wait()
        try:
            Store(pg_database)
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert Store(pg_database).session_ids() == []


def test_a_server_killed_in_the_middle_of_a_push_leaves_no_half_session_and_the_retry_completes(tmp_path):
    """The push's transaction has inserted the session, its cells and runs when the server dies (pg_ctl
    stop -m immediate, as a crash): the push says so in one line, exit 2; restarted, the server has no row
    of it; pushed again, it is there whole."""
    import pgserver
    import psycopg

    if why := pgserver.why_not():
        pytest.skip(why)
    server = pgserver.PgServer().init().start()  # its own: this one is killed
    try:
        url = server.new_database()
        local = tmp_path / "local.sqlite"
        s = toy_session()
        for c in s.cells:
            c.runs = c.runs * 40  # 200 runs a timed cell
        s.cells[3].counters = {"perf:cycles": 1.0}  # the 4th cell's counters: the push waits there
        save(local, s)
        Store(url)
        hold = psycopg.connect(url)
        hold.execute("LOCK TABLE counters IN SHARE MODE")
        push = cli("push", "--db", str(local), "--to", url)
        wait_for_lock_waiters(url, 1, "INSERT INTO counters", [push], wrote=True)  # the session, cells, runs
        server.kill()
        with contextlib.suppress(psycopg.Error):
            hold.close()
        out, err = push.communicate(timeout=120)
        assert push.returncode == 2, (out, err)
        assert err.count("\n") == 1 and err.startswith("iorace: error: ") and "Traceback" not in err, err
        assert "race-secret" not in err and f"127.0.0.1:{server.port}" in err, err
        server.start()
        assert {t: count(url, t) for t in ("sessions", "session_suites", "cells", "runs", "counters")} == dict.fromkeys(
            ("sessions", "session_suites", "cells", "runs", "counters"), 0
        )
        again = run_iorace(["push", "--db", str(local), "--to", url], tmp_path)
        assert again.returncode == 0 and "(5 cells, 800 runs)" in again.stdout, (again.stdout, again.stderr)
        shared = Store(url)
        assert numbered_out(shared.load(shared.latest())) == numbered_out(Store(local).load(1))
    finally:
        server.remove()


def test_a_wrong_password_or_database_is_one_line_and_exit_2(pg_server, tmp_path, iorace_inprocess):
    save(tmp_path / "local.sqlite", toy_session())
    for url, needle in (
        (pg_server.url("postgres", password="not-the-one"), "password authentication failed"),
        (pg_server.url("nosuchdb"), 'database "nosuchdb" does not exist'),
    ):
        for args in (["push", "--db", str(tmp_path / "local.sqlite"), "--to", url], ["history", "toy", "--db", url]):
            # the real program once (nothing else prints), the rest in this process (start-up takes seconds)
            r = run_iorace(args, tmp_path) if args[0] == "push" and "not-the-one" in url else iorace_inprocess(*args)
            assert r.returncode == 2, (r.stdout, r.stderr)
            assert r.stderr.count("\n") == 1 and r.stderr.startswith("iorace: error: ") and needle in r.stderr, r.stderr
            assert "Traceback" not in r.stderr and "not-the-one" not in r.stderr and "race-secret" not in r.stderr


def test_show_and_report_read_the_server_as_the_file(pg_database, tmp_path, iorace_inprocess):
    """Two sessions pushed, the second the golden one with every part a report has: show (every column, the
    Markdown export) and the HTML report (of the first: charts take seconds) from the server are those
    from the file."""
    local = tmp_path / "local.sqlite"
    save(local, toy_session())
    save(local, full_session())
    pushed(local, pg_database)
    outs = []
    for db in (str(local), pg_database):
        md, html = tmp_path / "r.md", tmp_path / "r.html"
        show = iorace_inprocess("show", "2", "--db", db, "--export-markdown", str(md))
        report = iorace_inprocess("report", "1", "--db", db, "--html", str(html))
        assert show.returncode == 0 and report.returncode == 0, (show.stderr, report.stderr)
        outs.append((show.stdout.replace(str(md), "MD"), md.read_text(), html.read_text()))
    assert outs[0] == outs[1]
    assert "c/slow" in outs[0][0] and "counters" in outs[0][0]
