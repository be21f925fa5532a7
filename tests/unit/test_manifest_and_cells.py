"""Manifest validation and defaults, and the expansion of a suite into cells with filters (no builds)."""

from pathlib import Path

import pytest

from iorace.core.errors import UsageError
from iorace.manifest.cells import SKIPPED, dataset_refs, expand, sizes_for
from iorace.manifest.suites import load_suite

MANIFEST = """
name = "toy"
title = "A toy job"
answer = "result"
metric = "inner"
[params]
mode = ["count", "sum"]
passes = 10
[datasets.tiny]
description = "small"
[datasets.big]
params = { passes = 1 }
[defaults.c]
args = ["{input}", "{mode}", "{passes}"]
deps = ["c/common.h"]
[[variants]]
name = "fast"
language = "c"
description = "the fast one"
sources = ["c/fast.c"]
[[variants]]
name = "slow"
language = "c"
description = "the slow one"
sources = ["c/slow.c"]
profiles = ["release", "debug"]
skip = { big = "one syscall per byte: too slow" }
[[variants]]
name = "script"
language = "python"
description = "in Python"
sources = ["python/script.py"]
params = { passes = 1 }
"""


def make_suite(tmp_path: Path, text: str = MANIFEST) -> Path:
    d = tmp_path / "toy"
    for f in ("c/fast.c", "c/slow.c", "c/common.h", "python/script.py"):
        (d / f).parent.mkdir(parents=True, exist_ok=True)
        (d / f).write_text("/* strategy */\n")
    (d / "suite.toml").write_text(text)
    (d / "suite.py").write_text("def generate(name, path): path.write_bytes(b'x')\ndef expected(path, params): return 1\n")
    return d


def cells(tmp_path, sizes=("tiny",), variants=(), toolchains=(), profiles=(), params=(), text=MANIFEST):
    suite = load_suite(make_suite(tmp_path, text))
    return expand(suite, dataset_refs(suite, list(sizes), []), list(variants), list(toolchains), list(profiles), list(params))


def test_language_defaults_fill_variants(tmp_path):
    suite = load_suite(make_suite(tmp_path))
    fast = next(v for v in suite.manifest.variants if v.name == "fast")
    assert fast.args == ["{input}", "{mode}", "{passes}"] and fast.deps == ["c/common.h"]
    script = next(v for v in suite.manifest.variants if v.name == "script")
    assert script.args == [] and script.params == {"passes": 1}


def test_sweep_toolchains_and_profiles(tmp_path):
    got = cells(tmp_path)
    labels = sorted(c.label for c in got)
    # fast: 2 modes x 2 C toolchains; slow: x 2 profiles; script: 2 modes x python3, passes overridden to 1
    assert len(got) == 4 + 8 + 2
    assert "c/slow@clang:debug[mode=sum,passes=10]" in labels
    assert "python/script@python3:release[mode=count,passes=1]" in labels


def test_filters(tmp_path):
    assert {c.variant.name for c in cells(tmp_path, variants=["c/f*"])} == {"fast"}
    assert {c.toolchain.name for c in cells(tmp_path, toolchains=["clang"])} == {"clang"}
    assert {c.profile for c in cells(tmp_path, profiles=["debug"])} == {"debug"}
    assert {c.params["mode"] for c in cells(tmp_path, params=["mode=sum"])} == {"sum"}
    assert {c.params["passes"] for c in cells(tmp_path, variants=["fast"], params=["passes=3"])} == {3}
    twice = cells(tmp_path, variants=["fast"], params=["passes=3", "passes=4", "mode=sum"])
    assert sorted((c.params["passes"], c.params["mode"]) for c in twice) == [(3, "sum"), (3, "sum"), (4, "sum"), (4, "sum")]  # gcc, clang


def test_dataset_overrides_and_skips(tmp_path):
    got = cells(tmp_path, sizes=["big"], variants=["slow"])
    assert {c.params["passes"] for c in got} == {1}
    assert {c.status for c in got} == {SKIPPED}
    assert "one syscall per byte" in got[0].detail


def test_skip_params_leaves_out_a_parameter_value(tmp_path):
    text = MANIFEST.replace(
        'sources = ["python/script.py"]\n', 'sources = ["python/script.py"]\nskip_params = { mode = { sum = "no sum here" } }\n'
    )
    got = {c.params["mode"]: c for c in cells(tmp_path, variants=["script"], text=text)}
    assert got["sum"].status == SKIPPED and got["sum"].detail == "not run with mode=sum: no sum here (suite.toml)"
    assert got["count"].status != SKIPPED
    assert all(c.status != SKIPPED for c in cells(tmp_path, sizes=["tiny"], variants=["fast"], text=text))


@pytest.mark.parametrize(
    "skip, needle",
    [('{ colour = { red = "x" } }', "no parameter 'colour'"), ('{ mode = { product = "x" } }', "mode never is 'product'")],
)
def test_skip_params_typos_are_usage_errors(tmp_path, skip, needle):
    text = MANIFEST.replace('sources = ["python/script.py"]\n', f'sources = ["python/script.py"]\nskip_params = {skip}\n')
    with pytest.raises(UsageError, match=needle):
        cells(tmp_path, text=text)


def test_size_per_suite():
    class S:
        name = "rdb"

    assert sizes_for(S, ["quick", "rdb=seed"]) == ["seed"]  # type: ignore[arg-type]
    assert sizes_for(S, ["tiny"]) == ["tiny"]  # type: ignore[arg-type]
    assert sizes_for(S, []) == ["quick"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "args, needle",
    [
        ({"params": ["speed=fast"]}, "no such parameter"),
        ({"params": ["passes=many"]}, "not a valid int"),
        ({"params": ["passes"]}, "expected KEY=VALUE"),
        ({"sizes": ["huge"]}, "no dataset 'huge'"),
    ],
)
def test_bad_selections_are_usage_errors(tmp_path, args, needle):
    with pytest.raises(UsageError, match=needle):
        cells(tmp_path, **args)


@pytest.mark.parametrize(
    "edit, needle",
    [
        (lambda t: t.replace('title = "A toy job"\n', 'title = "A toy job"\ncolour = "red"\n'), "colour"),
        (lambda t: t.replace('name = "fast"', 'name = "slow"'), "declared twice"),
        (lambda t: t.replace('sources = ["c/fast.c"]', 'sources = ["c/missing.c"]'), "c/missing.c does not exist"),
        (lambda t: t.replace('name = "toy"', 'name = "other"'), "the folder is 'toy'"),
        (lambda t: t.replace('metric = "inner"', 'metric = "fastest"'), "metric"),
        (lambda t: t + "[[variants]\n", "not valid TOML"),
        (lambda t: t.replace('name = "fast"', 'name = "c/fast"'), "without '/'"),
        (lambda t: t + '[[seed_tables]]\ntitle = "t"\nrows = ["c/fast"]\nbaseline = "c/slow"\n', "baseline 'c/slow' is not one of rows"),
        (
            lambda t: t + '[[seed_tables]]\ntitle = "t"\nrows = ["c/fast", "c/gone"]\nbaseline = "c/fast"\n',
            "c/gone is not a declared variant",
        ),
        (lambda t: t + '[one_cpu]\nparams = { colour = ["red"] }\nwhy = "w"\n', "one_cpu: 'colour' is not a parameter"),
        (lambda t: t + '[one_cpu]\nparams = { mode = ["cuont"] }\nwhy = "w"\n', "one_cpu: mode = 'cuont' is not one of its values"),
    ],
)
def test_manifest_errors_name_the_file_and_field(tmp_path, edit, needle):
    with pytest.raises(UsageError) as e:
        load_suite(make_suite(tmp_path, edit(MANIFEST)))
    assert needle in str(e.value) and "suite.toml" in str(e.value)


def test_one_cpu_confines_the_cells_it_names_to_the_last_cpu_unless_turned_off(tmp_path, monkeypatch):
    from iorace.run.session import confine

    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2})
    text = MANIFEST + '[one_cpu]\nparams = { mode = ["sum"] }\nwhy = "two processes"\n'
    made = cells(tmp_path, variants=["fast"], text=text)
    confine(made, True)
    by_mode = {c.params["mode"]: c for c in made}
    assert by_mode["sum"].cpus == (2,) and by_mode["sum"].cpus_note == "on one CPU (two processes)"
    assert by_mode["count"].cpus == () and by_mode["count"].cpus_note == ""
    confine(made, False)
    assert by_mode["sum"].cpus == () and "--no-one-cpu" in by_mode["sum"].cpus_note


def test_suite_module_may_use_dataclasses_with_postponed_annotations(tmp_path):
    d = make_suite(tmp_path)
    (d / "suite.py").write_text(
        "from __future__ import annotations\nimport dataclasses\n"
        "@dataclasses.dataclass\nclass Record:\n    n: int\n"
        "def generate(name, path): path.write_bytes(b'x')\n"
        "def expected(path, params): return Record(1).n\n"
    )
    assert load_suite(d).module().expected(None, {}) == 1


def test_a_run_option_is_one_declaration(monkeypatch):
    """`iorace run`'s options and the session's stored options come from RunOptions' fields alone."""
    from dataclasses import fields

    from iorace.cli.measure import run
    from iorace.core.options import RunOptions, flag, from_command

    declared = {f.name for f in fields(RunOptions) if "click" in f.metadata}
    assert declared <= {p.name for p in run.params}
    opts = from_command(("readbytes",), sizes=("seed",), runs=7, check_only=False, inputs=(), variants=("c/*",))
    stored = opts.stored(seed=42)
    assert list(stored) == [f.name for f in fields(RunOptions) if f.metadata.get("stored")]
    assert stored["sizes"] == ["seed"] and stored["runs"] == 7 and stored["seed"] == 42 and "db" not in stored
    assert RunOptions(check_only=True).stored(1)["runs"] == 0 and RunOptions().stored(1)["sizes"] == ["quick"]
    assert flag("--x", is_flag=True)["stored"]


def test_data_cache_key_covers_the_suites_code_not_its_tests(tmp_path):
    """module_hash (datasets and expected answers are cached under it) changes with the suite's Python code,
    a data_deps suite's included, but not with a test in either's tests/ folder."""
    d = make_suite(tmp_path)
    dep = tmp_path / "dep"
    (dep / "tests").mkdir(parents=True)
    (dep / "writer.py").write_text("SIZE = 1\n")
    (d / "suite.toml").write_text(MANIFEST.replace('metric = "inner"\n', 'metric = "inner"\ndata_deps = ["../dep"]\n'))
    (d / "tests" / "unit").mkdir(parents=True)
    key = load_suite(d).module_hash()
    for test in (d / "tests" / "test_toy.py", d / "tests" / "unit" / "test_toy_unit.py", dep / "tests" / "test_dep.py"):
        test.write_text("def test_it(): pass\n")
        assert load_suite(d).module_hash() == key, test
    for code in (d / "python" / "script.py", dep / "writer.py"):
        code.write_text(code.read_text() + "# edited\n")
        assert load_suite(d).module_hash() != key, code
        key = load_suite(d).module_hash()
