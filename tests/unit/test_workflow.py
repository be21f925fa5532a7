"""The fleet's CI workflow (.github/workflows/fleet.yml) passes actionlint (scripts/setup installs it into
.venv/bin, pinned), and says what the fleet needs: a self-hosted runner per kind of machine, one job at a
time per machine, measure, then push to the shared store."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "fleet.yml"
CONFIG = REPO / ".github" / "actionlint.yaml"


def actionlint() -> str:
    for candidate in (REPO / ".venv" / "bin" / "actionlint", Path(os.environ.get("VIRTUAL_ENV", "/nonexistent")) / "bin" / "actionlint"):
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("actionlint")
    if found is None:
        pytest.skip("actionlint is not installed (scripts/setup installs it into .venv/bin with go install)")
    return found


def lint(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [actionlint(), "-config-file", str(CONFIG), "-no-color", str(path)], capture_output=True, text=True, timeout=120, check=False
    )


def test_the_fleet_workflow_passes_actionlint():
    out = lint(WORKFLOW)
    assert out.returncode == 0, out.stdout + out.stderr


def test_actionlint_finds_a_broken_workflow(tmp_path):
    # an unknown runner label and a misspelt expression: what the check is there for
    broken = WORKFLOW.read_text().replace("iorace-epyc,", "iorace-epic,").replace("secrets.IORACE_STORE", "secret.IORACE_STORE")
    (tmp_path / "fleet.yml").write_text(broken)
    out = lint(tmp_path / "fleet.yml")
    assert out.returncode == 1 and 'label "iorace-epic" is unknown' in out.stdout and "secret" in out.stdout, out.stdout


def test_the_workflow_measures_one_job_per_machine_then_pushes():
    text = WORKFLOW.read_text()
    assert 'runs-on: [self-hosted, "${{ matrix.machine }}"]' in text
    assert "group: fleet-${{ matrix.machine }}" in text and "cancel-in-progress: false" in text
    assert "run: make bench" in text and 'iorace push --to "$IORACE_STORE"' in text and "${{ secrets.IORACE_STORE }}" in text
    labels = text.split("machine: [", 1)[1].split("]", 1)[0].split(", ")
    assert all(f"- {label}" in CONFIG.read_text() for label in labels)
