"""A figure a page derives (a mean of two sessions, a quotient, a pooled interval) lives in a study file that a
script of the study writes from the stored exports: study.toml lists the file with `what = "NAME.py's output"`.
Each such script must still write its file as committed, so that the page's figure (test_figures_consistent.py
finds it in that file) follows from the exports, not from a hand."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def derived_files() -> list[tuple[Path, Path]]:
    """(script, the file it writes) for every study file whose `what` names a script's output."""
    out = []
    for study in sorted((REPO / "docs" / "results").glob("*/study.toml")):
        for entry in tomllib.loads(study.read_text()).get("files", []):
            if m := re.fullmatch(r"(\S+\.py)'s output", entry.get("what", "")):
                out.append((study.parent / m.group(1), study.parent / entry["name"]))
    return out


def test_derived_files_are_declared() -> None:
    assert len(derived_files()) >= 5


@pytest.mark.parametrize("script,written", derived_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_derived_file_is_what_its_script_writes_from_the_exports(script: Path, written: Path) -> None:
    assert script.exists(), f"{script.relative_to(REPO)} is named in study.toml but missing"
    committed = written.read_bytes()
    try:
        proc = subprocess.run([sys.executable, str(script)], cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
        assert proc.returncode == 0, f"{script.relative_to(REPO)} failed: {proc.stderr[-1000:]}"
        assert written.read_bytes() == committed, f"{script.relative_to(REPO)} no longer writes {written.name} as committed"
    finally:
        written.write_bytes(committed)
