"""A contended figure is never silent: runs that waited for the CPU are counted and repeated, a session on a
busy machine is marked in every format, exported all the same, and flagged by its own exit code unless the user
accepts it."""

from __future__ import annotations

import dataclasses
import json

import pytest
from fakes import FakeRunner, ListRecorder, record, toy_cells
from sessions import MS, session, toy_session

from iorace.analyse.contention import BUSY_CPUS, contention
from iorace.export import export_all
from iorace.export.json_export import document
from iorace.report.document import build
from iorace.report.markdown import render
from iorace.run.measure import measure
from iorace.run.race import Plan


def with_host(s, others_cpus: float):
    """The session's runs as if /proc/stat said other processes used `others_cpus` CPUs meanwhile."""
    for c in s.cells:
        c.runs = [dataclasses.replace(r, host_busy_ns=int(r.user_ns + r.sys_ns + others_cpus * r.wall_ns), host_steal_ns=0) for r in c.runs]
    return s


def test_a_quiet_session_is_quiet_and_a_busy_one_contended():
    assert not contention(with_host(toy_session(), 0.02)).contended
    busy = contention(with_host(toy_session(), 1.3))
    assert busy.contended and busy.others_cpus == pytest.approx(1.3, abs=0.01)
    assert "contended" in busy.line and "1.30 CPUs" in busy.line
    assert contention(with_host(toy_session(), BUSY_CPUS - 0.01)).contended is False


def test_displaced_runs_make_a_session_contended_beyond_five_percent():
    s = with_host(toy_session(), 0.0)
    runs = s.cells[0].runs
    runs[0] = dataclasses.replace(runs[0], phase="displaced")
    assert contention(s).displaced_runs == 1 and not contention(s).contended  # 1 of 20 timed runs: 5%, within
    runs[1] = dataclasses.replace(runs[1], phase="displaced")
    assert contention(s).contended  # 2 of 20: beyond


def test_an_old_session_is_judged_by_its_cpu_share():
    s = toy_session()  # no /proc/stat figures: stored before the launcher read them
    assert contention(s).others_cpus is None and not contention(s).contended  # shares of 0.9
    for c in s.cells:
        c.runs = [dataclasses.replace(r, user_ns=r.wall_ns // 2) for r in c.runs]
    assert contention(s).contended and "judged by its CPU share" in contention(s).line


def test_every_format_says_so_and_a_contended_session_is_exported_marked(tmp_path):
    report = build(with_host(toy_session(), 1.0))
    assert render(report).count("contended") >= 1
    assert json.loads(json.dumps(document(report)))["iorace"]["contention"]["contended"] is True
    out = tmp_path / "r.md"
    assert export_all(report, {"export_markdown": out}, print) is True  # written, and the command exits 4
    assert "contended" in out.read_text()  # the measured results are kept, marked
    out.unlink()
    assert export_all(report, {"export_markdown": out}, print, allow_contended=True) is False  # accepted: exit as usual
    assert "contended" in out.read_text()
    assert export_all(report, {}, print) is False  # nothing exported: nothing to flag
    quiet = build(with_host(toy_session(), 0.0))
    assert export_all(quiet, {"export_markdown": out}, print) is False  # a quiet session is exported as before
    assert "Machine: quiet" in out.read_text()


def test_the_exit_code_of_a_contended_export_is_its_own_and_yields_to_a_bad_cell():
    from iorace.cli.common import exit_code
    from iorace.core.errors import EXIT_BAD_CELL, EXIT_CONTENDED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE

    assert EXIT_CONTENDED not in (EXIT_OK, EXIT_BAD_CELL, EXIT_USAGE, 3, EXIT_INTERRUPTED)
    assert exit_code(EXIT_OK, True) == EXIT_CONTENDED
    assert exit_code(EXIT_OK, False) == EXIT_OK
    assert exit_code(EXIT_BAD_CELL, True) == EXIT_BAD_CELL
    assert exit_code(EXIT_INTERRUPTED, True) == EXIT_INTERRUPTED


def measured(cells, fake: FakeRunner, rounds: int) -> ListRecorder:
    """measure() over the fake runner: one warm-up round, then `rounds` counted ones (and any repeated)."""
    recorder = ListRecorder()
    measure(
        cells,
        runs=rounds,
        warmup=1,
        timeout=5.0,
        sink="null",
        recorder=recorder,
        seed=1,
        advance=lambda _: None,
        cell_changed=lambda _: None,
        runner=fake,
        plan=Plan(min_rounds=rounds),
    )
    return recorder


def test_a_displaced_run_is_stored_apart_and_its_round_repeated(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b"))
    waited = dataclasses.replace(record(wall_ms=100.0), user_ns=int(30 * MS))  # ran 30 of its 100 ms
    recorder = measured(cells, FakeRunner(wall_ms=100.0, script={("a", 3): waited}), rounds=4)
    assert len(recorder.of("a", "displaced")) == 1
    assert len(recorder.of("a")) == 4 and len(recorder.of("b")) == 5  # one round more, a's displaced run not counted


def test_runs_of_their_own_level_are_not_displaced(tmp_path):
    """A program that always runs at half a CPU (it waits on something of its own) is not displaced."""
    cells = toy_cells(tmp_path, ("a",))
    half = dataclasses.replace(record(wall_ms=100.0), user_ns=int(50 * MS))
    recorder = measured(cells, FakeRunner(wall_ms=100.0, script={("a", n): half for n in range(20)}), rounds=5)
    assert not recorder.of("a", "displaced") and len(recorder.of("a")) == 5


def test_a_session_of_one_cell_without_runs_is_not_contended():
    assert not contention(session([])).contended


def test_compare_names_a_side_measured_on_a_busy_machine():
    from iorace.compare.draw import other_lines
    from iorace.compare.judge import compare
    from iorace.compare.sides import side_from_session

    quiet, busy = with_host(toy_session(), 0.0), with_host(toy_session(), 1.2)
    assert not [line for line in other_lines(compare(side_from_session(quiet), side_from_session(quiet))) if "busy" in line]
    lines = other_lines(compare(side_from_session(quiet), side_from_session(busy, "session 2")))
    assert any(line.startswith("session 2 was measured on a busy machine: contended") for line in lines)


def test_history_marks_a_contended_session_and_leaves_it_out_of_the_series():
    from iorace.compare.history import cell_series

    quiet, busy = with_host(toy_session(), 0.0), with_host(toy_session(), 1.2)
    busy.id = quiet.id + 1
    (ser, *_) = cell_series([quiet, busy])
    assert [p.contended for p in ser.points] == [False, True]
