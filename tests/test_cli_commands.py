"""`iorace list`, `iorace doctor` and `--sink pipe` from a user's point of view."""

import shutil

from conftest import TEST_SUITES


def test_list_shows_cells_and_why_they_cannot_run(iorace):
    out = iorace(["list", "broken", "--suite-dir", str(TEST_SUITES)])
    assert out.returncode == 0, out.stderr
    assert "c/good" in out.stdout and "ready" in out.stdout
    assert "iorace-no-such-compiler not found" in out.stdout


def test_list_all_suites(iorace):
    out = iorace(["list"])
    assert out.returncode == 0, out.stderr
    assert "readbytes" in out.stdout and "cpp/mmap" in out.stdout


def test_doctor_reports_toolchains_and_machine(iorace):
    out = iorace(["doctor"])
    assert out.returncode == 0, out.stderr
    assert "g++" in out.stdout and "cpu_model" in out.stdout and "governor" in out.stdout
    if shutil.which("dmd") is None:  # looked for, reported missing with what would install it
        assert "dmd not found (not packaged by Debian 12" in out.stdout
    else:
        assert "DMD" in out.stdout


def test_sink_pipe_is_recorded(iorace):
    out = iorace(["run", "broken", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--variant", "good", "--runs", "2", "--sink", "pipe"])
    assert out.returncode == 0, out.stderr
    assert out.export["iorace"]["options"]["sink"] == "pipe"
    assert "a pipe drained by iorace" in out.stdout


def test_bracketed_text_is_printed_as_is(iorace):
    out = iorace(["run", "broken", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--variant", "crash", "--check-only"])
    assert "c/crash@gcc:release[passes=1]: failed: killed by SIGSEGV" in out.stdout  # not eaten as markup
