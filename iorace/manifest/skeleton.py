"""`iorace new`: the files of a new suite that passes `iorace run NAME --check-only` as written.

The skeleton's job is a trivial but real one, counting the newlines of a file (what `wc -l` answers), so that
every part of a suite is there and checked: suite.toml, suite.py (a deterministic generator and an independent
answer), one variant per language built on the variant kit (iorace/variant_kit: the arguments, the passes, the
timer and the result line), optionally an existing program as a peer, a README and a test. The user replaces
each variant's loop and expected() with their own job.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from iorace.core.paths import REPO_SUITES, VARIANT_KIT
from iorace.manifest.skeleton_languages import LANGUAGES, LanguageFiles, language_files, peer_files

__all__ = ["LANGUAGES", "NAME_PATTERN", "files", "kit_path", "peer_problem", "suite_dir_option"]

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_-]{0,39}")


def peer_problem(command: str) -> str:
    """Why `--peer COMMAND` cannot make a peer ('' when it can)."""
    try:
        words = shlex.split(command)
    except ValueError as e:
        return f"--peer {command!r}: {e}"
    if not words:
        return "--peer: an empty command"
    if not re.fullmatch(r"[A-Za-z0-9_.+-]+", Path(words[0]).name):
        return f"--peer {command!r}: {Path(words[0]).name!r} cannot name a toolchain (letters, digits, . _ + - only)"
    return ""


def kit_path(suite_dir: Path) -> str:
    """How the suite's own build files (Cargo.toml, go.mod) name the kit's folder: relative inside this
    checkout (the two move together), absolute from anywhere else (the suite may move on its own)."""
    kit = VARIANT_KIT
    if suite_dir.resolve().is_relative_to(kit.parents[1]):
        return os.path.relpath(kit, suite_dir.resolve() / "rust")  # rust/ and go/ are at the same depth
    return str(kit)


def suite_dir_option(suite_dir: Path) -> str:
    """What `iorace run` needs to find the suite: nothing in the checkout's suites/, else --suite-dir PARENT."""
    parent = suite_dir.parent
    return "" if parent.resolve() == REPO_SUITES.resolve() else f" --suite-dir {parent}"


def files(name: str, languages: list[str], suite_dir: Path, peer: str = "") -> dict[str, str]:
    """Every file of the skeleton, path (relative to the suite's folder) -> text."""
    kit = kit_path(suite_dir)
    parts = [language_files(language, name, kit) for language in languages] + ([peer_files(peer)] if peer else [])
    out = {
        "suite.toml": _manifest(name, parts),
        "suite.py": SUITE_PY,
        "README.md": _readme(name, languages, peer, suite_dir_option(suite_dir)),
        f"tests/test_{name.replace('-', '_')}.py": TEST_PY.replace("NAME", name),
    }
    for part in parts:
        out.update(part.files)
    return out


def _manifest(name: str, parts: list[LanguageFiles]) -> str:
    blocks = "\n".join(part.manifest for part in parts)
    return f"""\
# {name}: made by `iorace new`. Its job counts the newlines of a file: replace each variant's loop (and
# suite.py's expected()) with your own job. The fields: docs/MANIFEST.md.
name = "{name}"
title = "Count the newlines of a file"
answer = "result"          # each program ends with an `iorace-result {{"answer": ...}}` line (the kit prints it)
metric = "inner"           # ratios compare the programs' own time for their passes (the kit's inner_ns)
throughput = "bytes"       # suite.py's units(): the bytes read, shown as MB/s
scale_params = ["passes"]  # cells that differ only in passes share a table, compared per byte
work_param = "passes"      # `iorace run --target-ms` (on by default) sizes each cell's passes

[params]
passes = 3

[datasets.tiny]
description = "2,000 lines of words, the last one without its newline"
[datasets.quick]
description = "400,000 lines of words (about 14 MB)"

[defaults]
args = ["{{input}}", "{{passes}}"]   # every variant: the kit's FILE PASSES [PARAM...]

{blocks}"""


def _readme(name: str, languages: list[str], peer: str, where: str) -> str:
    peer_line = f"- `sh/`: `{peer}` as a peer, through a wrapper (see suite.toml's `[toolchains]`)\n" if peer else ""
    return f"""\
# {name}

Made by `iorace new` with {", ".join(languages)}. The job so far counts the newlines of a file; make it yours:

- each variant (`{"`, `".join(languages)}` folders) is its loop: the variant kit (`iorace/variant_kit/`) parses
  `FILE PASSES [PARAM...]`, runs the loop PASSES times, times it and prints the result line
{peer_line}- `suite.py`: `generate()` writes each dataset, `expected()` answers any input independently
- `suite.toml`: the variants, datasets and parameters (every field: docs/MANIFEST.md)

Check every cell, then measure:

    iorace run {name}{where} --size tiny --check-only
    iorace run {name}{where} --size quick
"""


SUITE_PY = '''\
"""The suite's data and its answers: generate() writes each dataset deterministically, expected() is the
reference answer for any input (datasets and --input files alike), independent of the variants."""

from __future__ import annotations

import random
from pathlib import Path

LINES = {"tiny": 2_000, "quick": 400_000}
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]


def generate(dataset: str, path: Path) -> None:
    rng = random.Random(1)  # seeded: the same bytes on every machine
    lines = [" ".join(rng.choices(WORDS, k=rng.randint(0, 12))) for _ in range(LINES[dataset])]
    path.write_text("\\n".join(lines))  # the last line has no newline: an edge a loop must get right


def expected(path: Path, params: dict) -> int:
    return path.read_bytes().count(b"\\n")


def units(path: Path, params: dict) -> dict[str, int]:
    return {"bytes": path.stat().st_size * int(params["passes"])}
'''

TEST_PY = '''\
"""NAME: every cell answers right on the tiny dataset, through the harness (as `iorace run --check-only`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SUITE = Path(__file__).resolve().parents[1]


def test_every_cell_is_ok(tmp_path: Path) -> None:
    export = tmp_path / "cells.json"
    command = [sys.executable, "-m", "iorace", "run", "NAME", "--suite-dir", str(SUITE), "--size", "tiny"]
    command += ["--check-only", "--db", str(tmp_path / "db.sqlite"), "--export-json", str(export)]
    proc = subprocess.run(command, capture_output=True, text=True, env=os.environ, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    cells = json.loads(export.read_text())["iorace_unmeasured"]
    assert cells and all(c["status"] == "ok" for c in cells), [(c["label"], c["status"], c["detail"]) for c in cells]
'''
