"""tools/pair_timer.py: a row over code layouts counts each layout once, so placement is inside its interval;
and its failure paths end in one line, not a stack trace."""

from __future__ import annotations

import math
import subprocess
import sys
import types
from pathlib import Path

import pytest
from tool_scripts import TOOLS, load_tool

SCRIPT = TOOLS / "pair_timer.py"


def _script() -> types.ModuleType:
    return load_tool("pair_timer")


def test_a_ratio_over_layouts_carries_the_layouts_spread() -> None:
    timer = _script()
    # Four layouts, each timed exactly (every pair the same), two 10% faster and two 10% slower: the layouts'
    # ratio is 1.00, and its interval must hold the placement, where the pairs pooled would say +-0.
    per_layout = [[math.log(1.1)] * 8, [math.log(1 / 1.1)] * 8] * 2
    ratio, lo, hi = timer.over_layouts(per_layout)
    assert ratio == pytest.approx(1.0)
    assert lo < 0.95 and hi > 1.05
    pooled = timer.interval([x for logs in per_layout for x in logs])
    assert pooled[2] / pooled[1] < (hi / lo)  # the pooled pairs' interval is the narrower, wrongly


def test_each_sides_spread_over_layouts() -> None:
    timer = _script()
    ours = [[(1.0, 1.0)] * 3, [(1.0, 1.0)] * 3]
    theirs = [[(1.0, 1.0)] * 3, [(1.2, 1.2)] * 3]
    assert timer.spread_over_layouts(ours, 1) == 0
    assert timer.spread_over_layouts(theirs, 1) == pytest.approx(math.log(1.2) / math.sqrt(2))


def _table(tmp_path: Path, ours: str, original: str) -> Path:
    table = tmp_path / "pairs.tsv"
    table.write_text(f"label\tours\toriginal\tunits\nrow\t{ours}\t{original}\t1000\n")
    return table


def _timer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def test_layouts_are_each_timed_and_kept(tmp_path: Path) -> None:
    table = _table(tmp_path, "true ours-{layout}", "true original-{layout}")
    per_layout = tmp_path / "layouts.tsv"
    done = _timer(str(table), "--layouts", "3", "--pairs", "2", "--warmup", "0", "--per-layout", str(per_layout))
    assert done.returncode == 0, done.stderr
    line = done.stdout.splitlines()[1].split("\t")
    assert line[0] == "row" and line[1] == "2 x 3" and line[6] == "3" and float(line[9]) <= 1.5
    assert [r.split("\t")[1] for r in per_layout.read_text().splitlines()[1:]] == ["1", "2", "3"]


@pytest.mark.parametrize(
    ("ours", "args", "said"),
    [
        ("true {layout}", [], "give --layouts K"),
        ("/nonexistent/ours-{layout}", ["--layouts", "2"], "failed (status 127)"),
        ("true", ["--pairs", "1"], "--pairs must be at least 2"),
    ],
)
def test_what_cannot_be_timed_says_so_in_one_line(tmp_path: Path, ours: str, args: list[str], said: str) -> None:
    done = _timer(str(_table(tmp_path, ours, "true")), "--warmup", "0", "--pairs", "2", *args)
    assert done.returncode != 0
    assert said in done.stderr and "Traceback" not in done.stderr


def test_a_plain_row_says_its_cpu_share_too(tmp_path: Path) -> None:
    done = _timer(str(_table(tmp_path, "true", "true")), "--pairs", "2", "--warmup", "0")
    assert done.returncode == 0, done.stderr
    header, line = done.stdout.splitlines()
    assert header.split("\t")[-1] == "median CPU share" and line.split("\t")[1] == "2"
    assert 0 <= float(line.split("\t")[-1]) <= 1.5
