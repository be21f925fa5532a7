"""docs/results/ stays light: no SQLite store is tracked under it (a study keeps its figures in text; its store
is in git history, named by its study.toml's [[stores]]), and its tracked files stay under a size a clone
can afford."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RESULTS = "docs/results"
# The goal is about 15 MB; without the stores the exports and outputs still weigh about 28 MB (the largest:
# four make bench JSON exports of 2.7-2.9 MB each), so the bound holds what is there and stops growth.
LIMIT_BYTES = 30_000_000
SQLITE_MAGIC = b"SQLite format 3\x00"


def _git(*args: str) -> str:
    try:
        out = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return out.stdout


def tracked() -> list[Path]:
    return [REPO / name for name in _git("ls-files", "-z", RESULTS).split("\0") if name]


def test_no_store_is_tracked_under_docs_results():
    stores = []
    for path in tracked():
        if not path.is_file():
            continue
        with open(path, "rb") as f:
            if path.suffix in (".sqlite", ".db") or f.read(16) == SQLITE_MAGIC:  # by name or by content
                stores.append(path.relative_to(REPO).as_posix())
    assert not stores, f"a store is tracked (keep it in git history, named in study.toml's [[stores]]): {stores}"


def test_docs_results_stays_under_its_size():
    size = sum(p.stat().st_size for p in tracked() if p.is_file())
    assert size <= LIMIT_BYTES, f"{RESULTS} tracks {size / 1e6:.1f} MB, over {LIMIT_BYTES / 1e6:.0f} MB"


def test_each_store_a_study_names_is_in_git_history():
    if _git("rev-parse", "--is-shallow-repository").strip() == "true":
        pytest.skip("a shallow clone lacks the history the stores are in")
    for toml in sorted((REPO / RESULTS).glob("*/study.toml")):
        for store in tomllib.loads(toml.read_text()).get("stores", []):
            where = f"{toml.parent.relative_to(REPO).as_posix()}/{store['name']}"
            found = subprocess.run(["git", "cat-file", "-e", f"{store['commit']}:{where}"], cwd=REPO, capture_output=True)
            assert found.returncode == 0, f"{toml.relative_to(REPO)}: no {where} at {store['commit']}"
