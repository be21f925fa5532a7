"""Python variants run on the harness's own interpreter (the project venv with the suites' packages),
whatever `python3` comes first on PATH: a fresh machine whose python3 lacks numpy still passes."""

import os
import subprocess
import sys

from conftest import REPO


def bare_python3_first_on_path(tmp_path) -> dict:
    """An environment whose first `python3` on PATH has no site-packages at all (no numpy, no rdbtools)."""
    shim = tmp_path / "bin"
    shim.mkdir()
    real = os.path.realpath(os.path.join(sys.base_prefix, "bin", "python3"))
    (shim / "python3").write_text(f'#!/bin/sh\nexec {real} -I -S "$@"\n')
    (shim / "python3").chmod(0o755)
    env = dict(os.environ, PATH=f"{shim}:{os.environ['PATH']}")
    env.setdefault("IORACE_CACHE", str(REPO / ".cache"))
    return env


def test_rdb_python_cells_do_not_use_the_python3_on_path(tmp_path):
    env = bare_python3_first_on_path(tmp_path)
    probe = subprocess.run(["python3", "-c", "import numpy"], env=env, capture_output=True)
    assert probe.returncode != 0, "the shim python3 must lack numpy for this test to mean anything"
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "iorace",
            "run",
            "rdb",
            "--size",
            "tiny",
            "--variant",
            "python/*",
            "--check-only",
            "--db",
            str(tmp_path / "db.sqlite"),
            "--export-json",
            str(tmp_path / "r.json"),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    import json

    doc = json.loads((tmp_path / "r.json").read_text())
    cells = doc["results"] + doc["iorace_unmeasured"]  # --check-only: nothing timed, every cell unmeasured
    by_variant = {c["variant"]: c for c in cells}
    assert by_variant["reference"]["status"] == "ok", by_variant["reference"]["detail"]  # numpy imported
    # rdbtools refuses RDB 11 (known wrong), but with its own error: it was importable, not missing
    assert "No module named" not in by_variant["peer-rdbtools"]["detail"]
    assert by_variant["reference"]["command"].startswith(sys.executable), out.stdout[-2000:]


def test_doctor_names_the_interpreter(tmp_path):
    env = bare_python3_first_on_path(tmp_path)
    out = subprocess.run([sys.executable, "-m", "iorace", "doctor"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert f"python variants run on {sys.executable}" in out.stdout.replace("\n", " ")
