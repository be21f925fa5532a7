"""docs/results/2026-11-28-schemaless-sizes/sizes_check.py reads the real corpus files from ../shared, never
committed: without them it writes nothing and exits 0 (so no test depends on them), and its published figures are
nlohmann's, which its committed sizes.tsv must still show."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

STUDY = Path(__file__).resolve().parents[2] / "docs" / "results" / "2026-11-28-schemaless-sizes"


def test_without_the_corpus_nothing_is_written(tmp_path: Path) -> None:
    before = (STUDY / "sizes.tsv").read_bytes()
    proc = subprocess.run(
        [sys.executable, str(STUDY / "sizes_check.py"), "--corpus", str(tmp_path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "nothing written" in proc.stderr
    assert (STUDY / "sizes.tsv").read_bytes() == before


def test_the_committed_table_holds_nlohmann_s_figures_and_every_difference_is_explained() -> None:
    rows = list(csv.DictReader((STUDY / "sizes.tsv").open(), delimiter="\t"))
    assert {r["file"] for r in rows} == {"citm_catalog.json", "canada.json", "twitter.json"}
    for r in rows:
        assert int(r["our_bytes"]) - int(r["nlohmann_bytes"]) == int(r["difference"]), r
        assert ("not explained" in r["why"]) is False, r
        if r["encoder"].startswith("C++ nlohmann"):
            assert r["difference"] == "+0", r  # the same library as the published figures: the same bytes
