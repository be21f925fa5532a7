"""A session measured beside a busy loop on each core is marked contended in every format, never silently:
the terminal says so, the session is stored and exported all the same, each export carrying the mark, and the
command exits 4 (one warning line) unless --allow-contended accepts it; `show` and `report --html` alike. And
the same session with the machine left alone is quiet (others below the limit) and exports as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import TEST_SUITES, run_iorace

# Alone, after the other tests (make test): its sessions must be quiet, or it loads every core itself.
pytestmark = pytest.mark.serial

# exactly 5 rounds (--precision none): the mark is what is tested, and a busy machine never reaches a precision
SPIN = ["run", "spin", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--runs", "5", "--warmup", "1", "--no-aa", "--precision", "none"]


def busy_loops(n: int) -> list[subprocess.Popen]:
    """n processes that spin until killed (bounded: each gives up after 10 minutes on its own)."""
    code = "import time\nend = time.monotonic() + 600\nwhile time.monotonic() < end: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]


def test_a_session_beside_a_busy_loop_on_each_core_is_exported_marked_with_its_own_exit_code(tmp_path):
    loops = busy_loops(os.cpu_count() or 2)
    try:
        md = tmp_path / "report.md"
        res = run_iorace([*SPIN, "--export-markdown", str(md)], tmp_path, export=False, allow_contended=False)
    finally:
        for p in loops:
            p.kill()
            p.wait()
    assert res.returncode == 4, res.stderr
    assert "contended" in res.stdout and "stored in" in res.stdout  # shown and kept, not lost
    assert "Traceback" not in res.stderr
    warning = res.stderr.strip().splitlines()[-1]  # after the warnings that the machine was busy
    assert warning.startswith("iorace: warning: session 1 was measured on a busy machine")
    assert "exported all the same, marked contended (exit 4)" in warning
    assert "contended" in md.read_text()  # the 48 s of measuring are not lost
    db = str(tmp_path / "iorace.sqlite")
    again = run_iorace(["show", "--db", db, "--export-json", str(tmp_path / "e.json")], tmp_path, allow_contended=False)
    assert again.returncode == 4, again.stderr
    assert json.loads((tmp_path / "e.json").read_text())["iorace"]["contention"]["contended"] is True
    accepted = run_iorace(["show", "--db", db, "--export-markdown", str(md)], tmp_path)  # --allow-contended
    assert accepted.returncode == 0, accepted.stderr
    html = tmp_path / "r.html"
    page = run_iorace(["report", "--db", db, "--html", str(html)], tmp_path, allow_contended=False)
    assert page.returncode == 4, page.stderr
    assert "contended" in html.read_text()
