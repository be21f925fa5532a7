"""Suite-wide [defaults], and the variant kit's place in a manifest ({kit}) and in the build key (no builds)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_manifest_and_cells import make_suite

from iorace.core.errors import UsageError
from iorace.core.paths import VARIANT_KIT
from iorace.manifest import schema
from iorace.manifest.cells import dataset_refs, expand
from iorace.manifest.suites import load_suite
from iorace.run.build import build_key

HEAD = """
name = "toy"
title = "A toy job"
[params]
passes = 3
[datasets.tiny]
"""
VARIANTS = """
[[variants]]
name = "fast"
language = "c"
description = "the fast one"
sources = ["c/fast.c"]
[[variants]]
name = "script"
language = "python"
description = "in Python"
sources = ["python/script.py"]
[[variants]]
name = "slow"
language = "c"
description = "the slow one"
sources = ["c/slow.c"]
args = ["{input}", "own"]
"""


def variants(tmp_path: Path, defaults: str) -> dict[str, schema.Variant]:
    suite = load_suite(make_suite(tmp_path, HEAD + defaults + VARIANTS))
    return {v.name: v for v in suite.manifest.variants}


def test_suite_wide_defaults_apply_to_every_language_under_its_own_and_a_variants(tmp_path):
    got = variants(tmp_path, '[defaults]\nargs = ["{input}", "{passes}"]\nflags = "-DALL"\n[defaults.c]\nflags = "-DC"\n')
    assert got["script"].args == ["{input}", "{passes}"] and got["script"].flags == "-DALL"  # the suite's
    assert got["fast"].args == ["{input}", "{passes}"] and got["fast"].flags == "-DC"  # its language's over the suite's
    assert got["slow"].args == ["{input}", "own"]  # its own over both


@pytest.mark.parametrize(
    ("defaults", "message"),
    [
        ('[defaults.all]\nargs = ["{input}"]\n', r"defaults: \[defaults.all\] is now \[defaults\] itself"),
        ('[defaults]\narg = ["{input}"]\n', r"defaults: 'arg' is neither a field every variant takes \(args, "),
        ("[defaults.c]\nargz = 1\n", r"defaults.c: unknown key 'argz' \(did you mean 'args'\?\)"),
    ],
)
def test_a_bad_defaults_table_is_one_line_naming_it(tmp_path, defaults, message):
    with pytest.raises(UsageError, match=message) as e:
        variants(tmp_path, defaults)
    assert "\n" not in str(e.value)


def test_kit_in_a_variants_fields_is_the_kits_folder(tmp_path):
    got = variants(tmp_path, '[defaults.c]\nflags = "-I{kit}/c -DX={1}"\ndeps = ["{kit}/c"]\nenv = { K = "{kit}" }\n')
    assert got["fast"].flags == f"-I{VARIANT_KIT}/c -DX={{1}}"  # only {kit}: the rest keeps its braces
    assert got["fast"].deps == [f"{VARIANT_KIT}/c"] and got["fast"].env == {"K": str(VARIANT_KIT)}
    assert (VARIANT_KIT / "c" / "iorace_kit.h").is_file()


def test_a_change_to_the_kit_changes_the_build_key_and_bytecode_does_not(tmp_path, monkeypatch):
    kit = tmp_path / "kit"
    shutil.copytree(VARIANT_KIT / "c", kit / "c")
    monkeypatch.setattr(schema, "VARIANT_KIT", kit)
    suite = load_suite(make_suite(tmp_path, HEAD + '[defaults.c]\ndeps = ["{kit}/c"]\n' + VARIANTS))
    [cell] = [c for c in expand(suite, dataset_refs(suite, ["tiny"], []), ["c/fast"], ["gcc"], [], []) if c.profile == "release"]
    before = build_key(cell)
    (kit / "c" / "__pycache__").mkdir()
    (kit / "c" / "__pycache__" / "x.pyc").write_bytes(b"what a run leaves behind")
    assert build_key(cell) == before
    (kit / "c" / "iorace_kit.h").write_text((kit / "c" / "iorace_kit.h").read_text() + "/* changed */\n")
    assert build_key(cell) != before
