"""Adding a measured value to a run is one declaration, a field of runner.Run (plus, since C measures it,
the line of spawn.c's REPORT_FIELDS that prints it). A Run with one more declared field stands for that
here, given to the store as its run type: the store makes its column and adds it to a database made
without it, stores and loads it by name, the launcher's report maps a header field of that name onto it,
and the JSON export lists it under its json= name. Nothing of the store, the parser or the export is
told about the field itself."""

from __future__ import annotations

import dataclasses
import sqlite3

import pytest
from sessions import toy_session

from iorace.analyse.analysis import analyse
from iorace.export.json_export import result
from iorace.run.launcher import parse_report
from iorace.store.db import Store
from iorace.store.records import column
from iorace.store.run import Run

# ru_inblock: blocks read from the file system, as spawn.c would print it with F(inblock, ru.ru_inblock)
BlocksRun = dataclasses.make_dataclass(
    "BlocksRun", [("inblock", int | None, column("INTEGER", json="blocks_read", default=None))], bases=(Run,), kw_only=True
)

HEADER = "i job wall_ns user_ns sys_ns max_rss_kb minflt majflt nvcsw nivcsw exit_code timed_out leftovers"


def with_blocks(session):
    """The session with each run a BlocksRun that read 10 x its round blocks."""
    for c in session.cells:
        c.runs = [BlocksRun(**{f.name: getattr(r, f.name) for f in dataclasses.fields(Run)}, inblock=10 * r.round) for r in c.runs]
    return session


def columns(path, table="runs") -> list[str]:
    return [r[1] for r in sqlite3.connect(path).execute(f"PRAGMA table_info({table})")]


def test_the_store_makes_the_column_and_keeps_the_value_by_name(tmp_path):
    Store(tmp_path / "new.sqlite", run_type=BlocksRun)
    assert columns(tmp_path / "new.sqlite")[-1] == "inblock"
    store = Store(tmp_path / "s.sqlite", run_type=BlocksRun)
    sid = store.add_session(with_blocks(toy_session()))
    back = Store(tmp_path / "s.sqlite", run_type=BlocksRun).load(sid)
    fast = back.cells[0]
    assert [type(r) for r in fast.runs] == [BlocksRun] * 5
    assert [r.inblock for r in fast.measured()] == [0, 10, 20, 30, 40]
    assert back.cells == with_blocks(dataclasses.replace(toy_session(), id=sid)).cells


def test_a_database_made_without_the_field_gets_its_column(tmp_path):
    path = tmp_path / "s.sqlite"
    old = Store(path).add_session(toy_session())  # today's runs table, no inblock
    assert "inblock" not in columns(path)
    store = Store(path, run_type=BlocksRun)
    assert "inblock" in columns(path)
    assert {r.inblock for c in store.load(old).cells for r in c.runs} == {None}  # runs made before it: NULL
    new = store.add_session(with_blocks(toy_session()))
    assert [r.inblock for r in store.load(new).cells[1].measured()] == [0, 10, 20, 30, 40]


def test_the_launchers_report_is_read_by_field_name():
    report = [
        f"{HEADER} inblock",
        "0 1 5000 3000 1000 2048 100 0 1 2 0 0 0 42",
        "1 0 skipped",
        "2 1 9000 3000 1000 2048 100 0 1 2 -9 1 3 8",
        "3 1 9000 3000",
    ]  # cut short by a kill
    runs = parse_report(report, BlocksRun)
    assert sorted(runs) == [0, 2]
    first, killed = BlocksRun(**runs[0]), BlocksRun(**runs[2])
    assert (first.wall_ns, first.max_rss_kb, first.exit_code, first.timed_out, first.inblock) == (5000, 2048, 0, False, 42)
    assert (killed.exit_code, killed.timed_out, killed.leftovers, killed.inblock) == (-9, True, 3, 8)
    # the order of the header is the launcher's, not the declaration's
    swapped = parse_report(["i job inblock exit_code wall_ns", "0 1 42 3 5000"], BlocksRun)
    assert swapped[0] == {"inblock": 42, "exit_code": 3, "wall_ns": 5000}
    # a value the launcher prints that Run does not declare is an error, not silently dropped
    with pytest.raises(RuntimeError, match="report names inblock, which Run does not declare"):
        parse_report(report, Run)


def exported(session) -> dict[str, dict]:
    """The JSON export's entry of each cell, by variant and toolchain."""
    return {f"{r.cell.variant}@{r.cell.toolchain}": result(r) for g in analyse(session) for r in g.rows}


def test_the_json_export_lists_a_field_declared_with_a_json_name(tmp_path):
    store = Store(tmp_path / "s.sqlite", run_type=BlocksRun)
    slow = exported(store.load(store.add_session(with_blocks(toy_session()))))["slow@gcc"]
    assert slow["blocks_read"] == [0, 10, 20, 30, 40]
    assert list(slow)[-1] == "blocks_read"  # after every field the export has today
    assert "blocks_read" not in exported(toy_session())["slow@gcc"]
