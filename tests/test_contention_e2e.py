"""A session measured beside a busy loop on each core is marked contended in every format, never silently:
the terminal says so, the exports are refused (one line, exit 2) and the session is stored all the same;
exported with --allow-contended, each format carries the mark. And the same session with the machine left
alone is quiet (others below the limit) and exports as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import TEST_SUITES, run_iorace

SPIN = ["run", "spin", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--runs", "5", "--warmup", "1", "--no-aa"]


def busy_loops(n: int) -> list[subprocess.Popen]:
    """n processes that spin until killed (bounded: each gives up after 10 minutes on its own)."""
    code = "import time\nend = time.monotonic() + 600\nwhile time.monotonic() < end: pass"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]


def test_a_session_beside_a_busy_loop_on_each_core_is_marked_and_not_published(tmp_path):
    loops = busy_loops(os.cpu_count() or 2)
    try:
        md = tmp_path / "report.md"
        res = run_iorace([*SPIN, "--export-markdown", str(md)], tmp_path, export=False, allow_contended=False)
    finally:
        for p in loops:
            p.kill()
            p.wait()
    assert res.returncode == 2, res.stderr
    assert "contended" in res.stdout and "stored in" in res.stdout  # shown and kept, not lost
    assert "Traceback" not in res.stderr
    error = res.stderr.strip().splitlines()[-1]  # after the warnings that the machine was busy
    assert error.startswith("iorace: error: session 1 was measured on a busy machine, not exported")
    assert not md.exists()
    again = run_iorace(
        ["show", "--db", str(tmp_path / "iorace.sqlite"), "--export-markdown", str(md), "--export-json", str(tmp_path / "e.json")], tmp_path
    )
    assert again.returncode == 0, again.stderr
    assert "contended" in md.read_text()
    assert json.loads((tmp_path / "e.json").read_text())["iorace"]["contention"]["contended"] is True
