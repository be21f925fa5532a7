"""Deliberately broken variants (tests/suites/broken): each gets its own status, the good one is still
measured, the session exits 1, and nothing the hanging or the daemon-starting variant started is left running."""

from pathlib import Path

import pytest

from conftest import TEST_SUITES, run_iorace


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("broken")
    pidfile = tmp / "pids"  # the hang and daemon variants append the pid of every process they start
    result = run_iorace(
        ["run", "broken", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--runs", "3", "--precision", "none", "--timeout", "3"],
        tmp,
        env={"IORACE_TEST_PIDFILE": str(pidfile)},
    )
    result.pids = [int(p) for p in pidfile.read_text().split()] if pidfile.exists() else []
    return result


def alive(pid: int) -> bool:
    """A live (not zombie) process with that pid that is still a variant's program (not a reused pid)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z" and b"/prog\0" in cmdline


def status_of(result, variant):
    (cell,) = result.cells(variant=variant)
    return cell


def test_exit_code_is_1_when_some_cell_failed(broken):
    assert broken.returncode == 1, broken.stderr


def test_good_variant_is_measured_despite_the_others(broken):
    cell = status_of(broken, "good")
    assert cell["status"] == "ok"
    assert len(cell["times"]) == 3 and all(t > 0 for t in cell["times"])
    assert cell["answer"] == cell["expected"] == 1000


@pytest.mark.parametrize(
    "variant, status, evidence",
    [
        ("crash", "failed", "SIGSEGV"),
        ("hang", "timeout", "timed out"),
        ("wrong", "wrong", "answered 1001, expected 1000"),
        ("exit-nonzero", "failed", "exit code 3: exit-nonzero: the input is not what I expected"),
        ("no-result", "failed", "no iorace-result line"),
        ("build-fails", "build-failed", "error"),
        ("missing-toolchain", "skipped", "iorace-no-such-compiler not found"),
    ],
)
def test_each_broken_variant_has_its_own_status(broken, variant, status, evidence):
    cell = status_of(broken, variant)
    assert cell["status"] == status
    assert evidence in cell["detail"]
    assert cell["times"] == []  # failed cells are never timed


def test_problems_are_listed_in_the_report(broken):
    assert "c/crash@gcc:release[passes=1]: failed: killed by SIGSEGV" in broken.stdout
    assert "c/hang@gcc:release[passes=1]: timeout" in broken.stdout


def test_daemon_variant_is_right_and_measured(broken):
    cell = status_of(broken, "daemon")
    assert cell["status"] == "ok", cell["detail"]
    assert len(cell["times"]) == 3


def test_nothing_a_run_started_outlives_it(broken):
    # hang: itself and its forked child (2 pids); daemon: one setsid() daemon per run (verify, 3 runs; the
    # verification run is the warm-up)
    assert len(broken.pids) >= 2 + 4, broken.pids
    survivors = [pid for pid in broken.pids if alive(pid)]
    assert not survivors, f"still running after the session: {survivors}"


def test_two_sessions_write_to_one_sqlite_file_at_once(tmp_path):
    """A session verifying a slow cell (the hanging variant, up to its timeout) keeps no write transaction
    open, so a second session started meanwhile into the same file runs and is stored (it used to stop on
    'database is locked' after sqlite's 5 s)."""
    import os
    import subprocess
    import sys
    import time

    from conftest import REPO

    db = tmp_path / "shared.sqlite"
    env = {**os.environ, "IORACE_CACHE": str(REPO / ".cache"), "IORACE_TEST_PIDFILE": str(tmp_path / "pids")}
    base = [sys.executable, "-m", "iorace", "run", "broken", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--db", str(db)]
    slow = subprocess.Popen([*base, "--variant", "c/hang", "--check-only", "--timeout", "12"], cwd=REPO, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.monotonic() + 120
    while not (tmp_path / "pids").exists() and time.monotonic() < deadline:  # the hanging program has started
        time.sleep(0.2)
    fast = subprocess.run([*base, "--variant", "c/good", "--check-only"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    _, err = slow.communicate(timeout=300)
    assert fast.returncode == 0, fast.stderr
    assert slow.returncode == 1, err  # its one cell timed out
    assert "locked" not in fast.stderr + err
    show = [sys.executable, "-m", "iorace", "show", "--db", str(db), "1"]
    listing = subprocess.run(show, cwd=REPO, env=env, capture_output=True, text=True)
    assert listing.returncode in (0, 1) and "session 1" in listing.stdout
