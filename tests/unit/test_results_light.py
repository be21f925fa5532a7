"""docs/results/ stays light: no SQLite store is tracked under it (a study keeps its figures in text; its store
is in git history, named by its study.toml's [[stores]]), a large JSON or TSV export is kept gzipped (NAME.json.gz,
the same text, which every reader in the repository takes: iorace/core/gzfile.py), and its tracked files stay
under a size a clone can afford."""

from __future__ import annotations

import gzip
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RESULTS = "docs/results"
# About 18 MB (16.5 until 2026-11-28-make-bench-warm's two sessions): with the JSON and TSV exports over
# GZIP_OVER gzipped (the make bench exports of 2.7-2.9 MB
# each are 0.3-0.6 MB so), the exports and outputs weigh about 16 MB, the formats grid's sessions among them.
LIMIT_BYTES = 18_000_000
GZIP_OVER = 100_000  # a plain JSON or TSV export larger than this is committed gzipped (`gzip -n -9 NAME`)
SQLITE_MAGIC = b"SQLite format 3\x00"
STORE_SUFFIXES = (".sqlite", ".sqlite3", ".db")


def _git(*args: str) -> str:
    try:
        out = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return out.stdout


def tracked() -> list[Path]:
    return [REPO / name for name in _git("ls-files", "-z", RESULTS).split("\0") if name]


def head(path: Path) -> bytes:
    """A file's first 16 bytes, a gzipped file's once gunzipped."""
    with open(path, "rb") as f:
        first = f.read(16)
    if first[:2] == b"\x1f\x8b":
        with gzip.open(path, "rb") as g:
            return g.read(16)
    return first


def test_no_store_is_tracked_under_docs_results():
    stores = []
    for path in tracked():
        if not path.is_file():
            continue
        if path.name.removesuffix(".gz").endswith(STORE_SUFFIXES) or head(path) == SQLITE_MAGIC:  # by name or by content, gzipped too
            stores.append(path.relative_to(REPO).as_posix())
    assert not stores, f"a store is tracked (keep it in git history, named in study.toml's [[stores]]): {stores}"


def test_a_large_export_is_kept_gzipped_and_a_gzipped_one_reads_whole():
    plain = [
        f"{p.relative_to(REPO).as_posix()} ({p.stat().st_size / 1e6:.1f} MB)"
        for p in tracked()
        if p.is_file() and p.suffix in (".json", ".tsv") and p.stat().st_size > GZIP_OVER
    ]
    assert not plain, f"gzip these (gzip -n -9 FILE; rename them in study.toml; or --export-json NAME.json.gz): {plain}"
    for path in tracked():
        if path.is_file() and path.name.endswith(".gz"):
            with open(path, "rb") as f:
                assert f.read(2) == b"\x1f\x8b", f"{path.relative_to(REPO)}: named .gz, not gzip"
            with gzip.open(path, "rb") as g:
                g.read()  # a truncated or corrupt one fails here


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
