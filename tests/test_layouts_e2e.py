"""Code layouts with the real toolchains (iorace/run/layouts.py): a session over layouts records each run's
layout and answers right in every one; the layouts move the program's functions to other places mod 64;
shuffling and shifting leave the instructions a run executes unchanged; Go is relinked by -randlayout,
Java keeps one layout and says why; and --layouts 1 is the as-linked build, as before."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from conftest import REPO, TEST_SUITES, require_toolchains, run_iorace

SPIN = ["run", "spin", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--param", "steps=2000000", "--precision", "none", "--no-aa"]


def layout_dir(cell: dict) -> Path:
    """The cell's layouts in the build cache: beside its as-linked program (its command's first word)."""
    return Path(cell["command"].split()[0]).parent / "layouts"


def symbol(program: Path, name: str) -> int:
    out = subprocess.run(["nm", str(program)], capture_output=True, text=True, check=True).stdout
    (address,) = [int(a, 16) for a, _, sym in (ln.split() for ln in out.splitlines() if len(ln.split()) == 3) if sym == name]
    return address


@pytest.fixture(scope="module")
def spin(tmp_path_factory):
    require_toolchains("gcc")
    return run_iorace([*SPIN, "--layouts", "8", "--runs", "8"], tmp_path_factory.mktemp("spin-layouts"))


def test_each_cell_runs_its_layouts_in_turn_and_answers_right_in_each(spin):
    assert spin.returncode == 0, spin.stdout + spin.stderr
    cells = spin.cells(suite="spin")
    assert len(cells) == 3 and all(c["status"] == "ok" for c in cells)  # every timed run checked, in every layout
    for c in cells:
        # the as-linked build, then seven shuffles, each at the shift that balances the hot function (layouts.balance)
        assert c["layout_names"][0] == "as-linked"
        assert [n.split("+")[0] for n in c["layout_names"][1:]] == [f"s{i}" for i in range(1, 8)], c["layout_names"]
        assert "lld --shuffle-sections" in c["layout_note"]
        used = Counter(
            c["layouts"]
        )  # in turn: as even as the rounds allow (a displaced run takes its layout's turn, and its round runs again)
        assert len(used) >= 8 - c["displaced_runs"] and max(used.values()) - min(used.values()) <= 1 + c["displaced_runs"]
        assert set(used) <= set(range(8))
        assert c["placement"] is not None and c["placement"]["layouts"] >= 2  # layouts with runs beside another cell's


def test_the_layouts_put_the_hot_function_in_its_four_places_mod_64_in_turn(spin):
    """Balanced, not drawn (layouts.balance): perf finds main hot, and layout i puts main's start mod 64 one
    16-byte place on from layout i - 1, starting where the as-linked build has it."""
    cell = spin.cells(variant="loop")[0]
    assert "balanced by its hottest function, main" in cell["layout_note"], cell["layout_note"]
    programs = [Path(cell["command"].split()[0])] + [layout_dir(cell) / name / "prog" for name in cell["layout_names"][1:]]
    places = [symbol(p, "main") % 64 // 16 for p in programs]
    assert places == [(places[0] + i) % 4 for i in range(len(places))], places


def test_a_warm_cache_profiles_and_relinks_nothing(spin, tmp_path):
    """A second session over the same layouts finds the hot function and the balance in the build cache: with a
    perf and an nm that only fail first on PATH, its layouts and notes are the first session's (make bench
    profiled and relinked again each session: about 2 minutes warm)."""
    broken = tmp_path / "broken"
    broken.mkdir()
    for tool in ("perf", "nm"):
        (broken / tool).write_text("#!/bin/sh\necho broken >&2\nexit 1\n")
        (broken / tool).chmod(0o755)
    import os

    again = run_iorace([*SPIN, "--layouts", "8", "--runs", "8"], tmp_path, env={"PATH": f"{broken}:{os.environ['PATH']}"})
    assert again.returncode == 0, again.stdout + again.stderr
    first = {c["variant"]: c for c in spin.cells(suite="spin")}
    for c in again.cells(suite="spin"):
        assert c["layout_names"] == first[c["variant"]]["layout_names"], c["variant"]
        assert c["layout_note"] == first[c["variant"]]["layout_note"], c["layout_note"]


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind (scripts/setup installs it) counts instructions")
def test_layouts_execute_the_same_instructions(spin, tmp_path):
    """Placement moves cycles, not instructions: the layout-immune count the instructions column relies on."""
    cell = spin.cells(variant="loop")[0]
    counts = []
    for name in cell["layout_names"][1:4]:
        out = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={tmp_path / name}",
                str(layout_dir(cell) / name / "prog"),
                "/dev/null",
                "2000000",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        counts.append(int(re.search(r"I\s+refs:\s+([\d,]+)", out.stderr).group(1).replace(",", "")))  # type: ignore[union-attr]
    assert max(counts) - min(counts) <= max(counts) * 1e-4, counts


def test_one_layout_is_the_as_linked_build_as_before(tmp_path):
    require_toolchains("gcc")
    result = run_iorace([*SPIN, "--layouts", "1", "--runs", "3"], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    for c in result.cells(suite="spin"):
        assert c["layout_names"] == [] and set(c["layouts"]) == {None} and c["placement"] is None
        assert c["command"].split()[0].endswith("/prog") and "/layouts/" not in c["command"]


def test_go_is_relinked_by_randlayout_and_java_keeps_one_layout(tmp_path):
    require_toolchains("go", "javac")
    args = ["run", "readbytes", "--size", "tiny", "--runs", "4", "--precision", "none", "--no-aa", "--no-race", "--layouts", "4"]
    result = run_iorace([*args, "--variant", "go/own-buffer", "--variant", "java/own-buffer", "--param", "mode=count"], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    (go,) = result.cells(language="go")
    assert go["layout_names"] == ["as-linked", "go1", "go2", "go3"] and go["status"] == "ok"
    programs = [Path(go["command"].split()[0]).read_bytes()] + [(layout_dir(go) / n / "prog").read_bytes() for n in go["layout_names"][1:]]
    assert len(set(programs)) == 4  # the as-linked build and three relinks: four programs
    (java,) = result.cells(language="java")
    assert java["layout_names"] == [] and "HotSpot" in java["layout_note"]


def test_rust_and_d_are_relinked_from_their_captured_link(tmp_path):
    require_toolchains("cargo", "gdc")
    args = [
        "run",
        "readbytes",
        "--size",
        "tiny",
        "--runs",
        "4",
        "--precision",
        "none",
        "--no-aa",
        "--no-race",  # every cell every round: a cell 10x behind would leave after one
        "--layouts",
        "4",
        "--param",
        "mode=count",
    ]
    result = run_iorace(
        [*args, "--variant", "rust/own-buffer", "--variant", "d/file-slicing", "--toolchain", "cargo", "--toolchain", "gdc"], tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    cells = result.cells(status="ok")
    assert {c["language"] for c in cells} == {"rust", "d"}
    for c in cells:
        assert c["layout_names"][0] == "as-linked", c["layout_note"]
        assert len(set(c["layout_names"])) == 4 and all(re.fullmatch(r"s\d+\+\d+", n) for n in c["layout_names"][1:]), c["layout_note"]
        assert "balanced by its hottest function" in c["layout_note"] or "drawn, not balanced: " in c["layout_note"]
        used = Counter(c["layouts"])
        assert len(used) >= 4 - c["displaced_runs"] and max(used.values()) - min(used.values()) <= 1 + c["displaced_runs"]


def test_no_layout_leaves_the_cache_half_made():
    """Relinking writes each layout under a temporary name and renames it: no temporary is left behind."""
    cache = REPO / ".cache" / "build"
    if not cache.exists():
        pytest.skip("no build cache yet")
    assert not [p for p in cache.glob("*/layouts/**/*.tmp*")]
