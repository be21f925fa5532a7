"""`iorace new`: its refusals (one line, exit 2, nothing written), and a skeleton that loads as a suite with a
variant per language asked for (no builds: tests/test_new_suite.py builds and checks it)."""

from __future__ import annotations

import pytest

from iorace.core.paths import REPO_SUITES, VARIANT_KIT
from iorace.manifest import skeleton
from iorace.manifest.suites import load_suite


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Wc"], "suite name 'Wc': lower-case letters"),
        (["9wc"], "suite name '9wc'"),
        (["w/c"], "suite name 'w/c'"),
        (["wc", "--languages", "c,cobol"], "--languages: unknown language 'cobol' (known: c, cpp, d, rust, go, java, python)"),
        (["wc", "--languages", "c,c"], "--languages names 'c' twice"),
        (["wc", "--languages", ","], "--languages names no language"),
        (["wc", "--peer", "'wc -l"], '--peer "\'wc -l": No closing quotation'),
        (["wc", "--peer", "w$c"], "'w$c' cannot name a toolchain"),
        (["lines"], "the checkout already has a suite 'lines'"),
    ],
)
def test_refusals_are_one_line_and_write_nothing(iorace_inprocess, tmp_path, args, message):
    out = iorace_inprocess("new", *args, "--dir", str(tmp_path))
    assert out.returncode == 2 and message in out.stderr, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_refused_and_left_alone(iorace_inprocess, tmp_path):
    (tmp_path / "wc").mkdir()
    (tmp_path / "wc" / "mine.txt").write_text("keep me")
    out = iorace_inprocess("new", "wc", "--dir", str(tmp_path))
    assert out.returncode == 2 and f"{tmp_path / 'wc'} already exists" in out.stderr and out.stderr.count("\n") == 1
    assert [p.name for p in (tmp_path / "wc").iterdir()] == ["mine.txt"]
    out = iorace_inprocess("new", "wc", "--dir", str(tmp_path / "nowhere"))
    assert out.returncode == 2 and "nowhere: not a directory" in out.stderr


def test_the_skeleton_is_a_suite_with_a_variant_per_language_and_the_peer(iorace_inprocess, tmp_path):
    out = iorace_inprocess("new", "wc", "--languages", ",".join(skeleton.LANGUAGES), "--dir", str(tmp_path), "--peer", "wc -l")
    assert out.returncode == 0, out.stderr
    assert f"iorace run wc --suite-dir {tmp_path} --size tiny --check-only" in out.stdout
    suite = load_suite(tmp_path / "wc")
    kinds = {v.key: v.kind.value for v in suite.manifest.variants}
    assert set(kinds) == {"c/read", "cpp/ifstream", "d/bychunk", "rust/read", "go/read", "java/read", "python/read", "sh/wc"}
    assert kinds["sh/wc"] == "peer" and suite.toolchains["wc"].command == "wc"
    assert all(v.args == ["{input}", "{passes}"] for v in suite.manifest.variants)  # the suite-wide [defaults]
    assert suite.manifest.work_params == ("passes",)  # --target-ms can size it
    # outside the checkout, the crate and the module name the kit by its absolute path
    assert f'path = "{VARIANT_KIT}/rust"' in (tmp_path / "wc/rust/Cargo.toml").read_text()
    assert (tmp_path / "wc/tests/test_wc.py").is_file()
    assert f"iorace run wc --suite-dir {tmp_path} --size tiny --check-only" in (tmp_path / "wc/README.md").read_text()


def test_inside_the_checkout_the_kit_is_named_relative_to_the_suite_and_run_needs_no_suite_dir():
    assert skeleton.kit_path(REPO_SUITES / "wc") == "../../../iorace/variant_kit"
    assert skeleton.suite_dir_option(REPO_SUITES / "wc") == ""


def test_the_reference_answer_counts_newlines_and_the_data_is_deterministic(tmp_path):
    namespace: dict = {}
    exec(compile(skeleton.SUITE_PY, "suite.py", "exec"), namespace)  # the skeleton's own suite.py
    a, b = tmp_path / "a", tmp_path / "b"
    namespace["generate"]("tiny", a)
    namespace["generate"]("tiny", b)
    assert a.read_bytes() == b.read_bytes() and not a.read_bytes().endswith(b"\n")
    assert namespace["expected"](a, {"passes": 3}) == 1_999
