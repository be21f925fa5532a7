"""A session is stored in SQLite, shown again by `iorace show`, and exported as hyperfine JSON, TSV, Markdown."""

import contextlib
import hashlib
import json
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, TEST_SUITES, run_iorace
from iorace.core import machine
from iorace.report.document import build

HYPERFINE_FIELDS = {
    "command",
    "mean",
    "stddev",
    "median",
    "user",
    "system",
    "min",
    "max",
    "times",
    "memory_usage_byte",
    "exit_codes",
    "parameters",
}


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("session")
    result = run_iorace(
        [
            "run",
            "broken",
            "--suite-dir",
            str(TEST_SUITES),
            "--size",
            "tiny",
            "--variant",
            "good",
            "--variant",
            "wrong",
            "--runs",
            "4",
            "--precision",
            "none",  # exactly 4 rounds
            "--no-aa",
            "--machine",
            "test-box",
            "--warmup",
            "1",
            "--export-tsv",
            str(tmp / "runs.tsv"),
            "--export-markdown",
            str(tmp / "report.md"),
        ],
        tmp,
    )
    return tmp, result


def test_json_has_hyperfine_schema_and_iorace_fields(session):
    _, result = session
    good = result.cells(variant="good")[0]
    assert set(good) >= HYPERFINE_FIELDS
    assert len(good["times"]) == len(good["memory_usage_byte"]) == len(good["exit_codes"]) == 4
    assert good["exit_codes"] == [0, 0, 0, 0]
    assert good["parameters"] == {"passes": "1"}
    assert min(good["times"]) == good["min"] and max(good["times"]) == good["max"]
    argv = shlex.split(good["command"])  # the exact command a user can repeat: the built program, then its args
    assert argv[0].endswith("/prog") and Path(argv[0]).is_file()
    assert Path(argv[1]).is_file() and hashlib.sha256(Path(argv[1]).read_bytes()).hexdigest() == good["dataset_sha256"]
    assert subprocess.run(argv, capture_output=True, text=True).stderr.splitlines()[-1].startswith("iorace-result ")
    assert good["suite"] == "broken" and good["language"] == "c" and good["toolchain"] == "gcc"
    assert good["ratio"] == 1.0
    assert 0 < good["memory_usage_byte"][0] < 50 * 2**20  # the launcher keeps the harness's RSS out
    doc = result.export["iorace"]
    assert doc["machine"]["cores"] >= 1 and doc["toolchains"]["gcc"].startswith("gcc")
    assert len(result.export["results"][0]["dataset_sha256"]) == 64


def test_tsv_is_one_row_per_timed_run_in_the_seed_layout(session):
    tmp, _ = session
    lines = (tmp / "runs.tsv").read_text().splitlines()
    # the seed's six columns first, then iorace's two: the run's code layout and its cell's placement flag
    assert lines[0].split("\t") == ["test", "elapsed", "user", "system", "cpu_pct", "mem", "layout", "placement"]
    rows = [line.split("\t") for line in lines[1:]]
    assert len(rows) == 4  # the wrong cell is never timed
    good = {round(t, 4) for t in session[1].cells(variant="good")[0]["times"]}
    for test, elapsed, user, system, cpu, mem, layout, placement in rows:
        assert test == "c/good@gcc:release[passes=1]"
        assert layout == placement == ""  # the as-linked build (one layout), not flagged
        assert float(elapsed) in good  # the very runs the JSON holds
        assert float(user) >= 0 and float(system) >= 0 and float(user) + float(system) > 0  # it used some CPU
        # cpu_pct is (user + system) / elapsed of the unrounded run; the file's times are rounded to 0.1 ms
        rounding = 1 + 100 * 3e-4 / float(elapsed)
        assert abs(int(cpu[:-1]) - 100 * (float(user) + float(system)) / float(elapsed)) <= rounding
        assert 0 < int(mem) < 50 * 1024


def test_markdown_has_the_table(session):
    tmp, _ = session
    text = (tmp / "report.md").read_text()
    assert "## broken · tiny · passes=1" in text
    assert "| c/good | gcc | release | ok |" in text
    assert "| c/wrong | gcc | release | wrong |" in text


def test_database_holds_session_cells_and_runs(session):
    tmp, _result = session
    db = sqlite3.connect(tmp / "iorace.sqlite")
    (status, command_line, git) = db.execute("SELECT status, command_line, git_revision FROM sessions").fetchone()
    assert status == "done" and command_line.startswith("iorace run broken") and git
    # which machine measured it: the name given, the fingerprint of this machine's facts
    name, fingerprint = db.execute("SELECT machine_name, machine_fingerprint FROM sessions").fetchone()
    assert (name, fingerprint) == ("test-box", machine.fingerprint(machine.info()))
    # its context apart: this kernel, mitigations and data filesystem, and the toolchains the cells used
    ctx, ctx_fingerprint, toolchains = db.execute("SELECT machine_context, context_fingerprint, toolchains FROM sessions").fetchone()
    ctx = json.loads(ctx)
    here = machine.info()
    assert {k: ctx[k] for k in machine.CONTEXT_FACTS} == {k: here[k] for k in machine.CONTEXT_FACTS}
    assert ctx["toolchains"] == json.loads(toolchains) != {} and ctx_fingerprint == machine.context_fingerprint(ctx) != ""
    phases = dict(db.execute("SELECT phase, count(*) FROM runs GROUP BY phase").fetchall())
    assert phases == {"verify": 2, "warmup": 1, "measure": 4}


def test_runs_are_interleaved_round_by_round(tmp_path):
    result = run_iorace(
        [
            "run",
            "readbytes",
            "--size",
            "tiny",
            "--variant",
            "c/*",
            "--param",
            "mode=count",
            "--toolchain",
            "gcc",
            "--runs",
            "5",
            "--precision",
            "none",  # exactly 5 rounds of every cell: no racing, no A/A twin joining after the first
            "--no-race",
            "--no-aa",
            "--warmup",
            "0",
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    db = sqlite3.connect(tmp_path / "iorace.sqlite")
    rounds = [r for (r,) in db.execute("SELECT round FROM runs WHERE phase = 'measure' ORDER BY id")]
    cells = len(result.cells())
    assert rounds == sorted(rounds)  # a round ends before the next begins ...
    assert all(rounds.count(r) == cells for r in range(5))  # ... and runs every cell once
    orders = {}
    for r, cell in db.execute("SELECT round, cell_id FROM runs WHERE phase = 'measure' ORDER BY id"):
        orders.setdefault(r, []).append(cell)
    assert len({tuple(o) for o in orders.values()}) > 1  # the order is shuffled


def test_show_prints_the_stored_session_and_exports(session):
    tmp, result = session
    out = run_iorace(["show", "--db", str(tmp / "iorace.sqlite"), "--export-json", str(tmp / "again.json")], tmp)
    assert out.returncode == 0, out.stderr
    assert "c/good" in out.stdout and "wrong: answered 1001, expected 1000" in out.stdout
    again = json.loads((tmp / "again.json").read_text())
    assert again["results"] == result.export["results"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: signal.Signals(s).name)
def test_ctrl_c_or_kill_keeps_what_was_measured(tmp_path, signum):
    db = tmp_path / "iorace.sqlite"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "iorace",
            "run",
            "broken",
            "--suite-dir",
            str(TEST_SUITES),
            "--size",
            "tiny",
            "--variant",
            "good",
            "--runs",
            "100000",
            "--db",
            str(db),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a shell's background job starts with SIGINT ignored, and Python then keeps it ignored: the user's Ctrl-C
        # reaches iorace from a terminal, so the test gives it the terminal's default
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        _interrupt_when_measuring(proc, db, signum)
    finally:
        if proc.poll() is None:  # never left running, to slow the tests after it
            proc.kill()
            proc.wait()


def _interrupt_when_measuring(proc: subprocess.Popen, db, signum: int) -> None:
    deadline = time.time() + 120
    measured = 0
    while time.time() < deadline and measured < 20:  # wait until timed runs are being committed
        time.sleep(0.5)
        if db.exists():
            with contextlib.suppress(sqlite3.OperationalError):
                measured = sqlite3.connect(db).execute("SELECT count(*) FROM runs WHERE phase='measure'").fetchone()[0]
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in out
    con = sqlite3.connect(db)
    assert con.execute("SELECT status FROM sessions").fetchone()[0] == "interrupted"
    assert con.execute("SELECT count(*) FROM runs WHERE phase='measure'").fetchone()[0] >= 20


def test_instruction_counts_are_repeatable(tmp_path):
    args = ["run", "broken", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--variant", "good", "--check-only", "--instructions"]
    first = run_iorace(args, tmp_path)
    second = run_iorace(args, tmp_path)
    assert first.returncode == 0, first.stderr
    (a,), (b,) = first.cells(), second.cells()
    assert a["instructions"] > 10_000
    assert abs(a["instructions"] - b["instructions"]) < 0.01 * a["instructions"]  # not moved by machine noise
    assert "instructions" in first.stdout and "x fewest" in first.stdout


@pytest.fixture(scope="module")
def readbytes_session(tmp_path_factory):
    """A real session of readbytes (tiny, two C variants, gcc and clang): its folder (store) and its run."""
    tmp = tmp_path_factory.mktemp("readbytes")
    result = run_iorace(
        [
            "run",
            "readbytes",
            "--size",
            "tiny",
            "--variant",
            "c/read-64k",
            "--variant",
            "c/getc-unlocked",
            "--toolchain",
            "gcc",
            "--toolchain",
            "clang",
            "--param",
            "mode=count",
            "--runs",
            "3",
        ],
        tmp,
    )
    return tmp, result


@pytest.mark.parametrize("width", [80, 120])
def test_a_real_session_reads_in_a_terminal_of_80_and_120_columns(readbytes_session, width):
    """Every toolchain and every status of a real session is in the compact view, and no line is longer
    than the terminal (a ratio is never cut). One session, shown at each width."""
    import io

    from rich.console import Console

    from iorace.report.terminal import print_session
    from iorace.store.db import Store

    folder, result = readbytes_session
    assert result.returncode == 0, result.stderr
    out = io.StringIO()
    print_session(build(Store(folder / "iorace.sqlite").load()), Console(file=out, width=width, color_system=None), wide=False)
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= width
    for cell in result.cells():
        assert cell["toolchain"] in text and cell["status"] in text
        assert f"{cell['ratio']:.2f}x" in text  # the ratio is there whole
