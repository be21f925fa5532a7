"""`iorace new` end to end with real compilers: the skeleton passes `iorace run --check-only` as written, and
each language's variant kit prints a result line the harness accepts and refuses bad input in one line."""

from __future__ import annotations

import shlex
import subprocess

from conftest import require_toolchains
from iorace.manifest.skeleton import LANGUAGES
from iorace.run.launcher import _parse_result


def test_four_languages_and_a_peer_pass_check_only_at_once(iorace, tmp_path):
    require_toolchains("gcc", "clang", "cargo", "go", "wc")
    made = iorace(["new", "wc", "--languages", "c,rust,go,python", "--dir", str(tmp_path), "--peer", "wc -l"])
    assert made.returncode == 0, made.stderr
    res = iorace(["run", "wc", "--suite-dir", str(tmp_path), "--size", "tiny", "--check-only"])
    rows = res.cells(suite="wc")
    assert {r["label"].split("[")[0] for r in rows} == {
        "c/read@gcc:release",
        "c/read@clang:release",
        "rust/read@cargo:release",
        "go/read@go:release",
        "python/read@python3:release",
        "sh/wc@wc:release",
    }, (res.stdout[-2000:], res.stderr[-2000:])
    bad = [(r["label"], r["status"], r["detail"]) for r in rows if r["status"] != "ok"]
    assert not bad, bad
    assert all(r["answer"] == r["expected"] == 1_999 for r in rows)
    assert res.returncode == 0


def test_every_language_kit_answers_and_refuses_bad_input_in_one_line(iorace, tmp_path):
    require_toolchains("gcc", "g++", "gdc", "ldc2", "cargo", "go", "javac")
    made = iorace(["new", "kits", "--languages", ",".join(LANGUAGES), "--dir", str(tmp_path)])
    assert made.returncode == 0, made.stderr
    res = iorace(["run", "kits", "--suite-dir", str(tmp_path), "--size", "tiny", "--check-only"])
    rows = [r for r in res.cells(suite="kits") if r["toolchain"] != "dmd"]  # not packaged here: skipped
    assert {r["language"] for r in rows} == set(LANGUAGES)
    assert all(r["status"] == "ok" for r in rows), [(r["label"], r["status"], r["detail"]) for r in rows]
    for row in rows:
        argv = shlex.split(row["command"])  # as the reports show it: PROG... FILE PASSES
        prog, data = argv[:-2], argv[-2]
        good = subprocess.run([*prog, data, "2"], capture_output=True, text=True, check=False)
        result = _parse_result(good.stderr)  # the harness's own reading of the last result line
        assert good.returncode == 0 and result is not None, (row["label"], good.stderr)
        assert result["answer"] == 1_999 and isinstance(result["inner_ns"], int) and result["inner_ns"] > 0, row["label"]
        for args, code in (([tmp_path / "missing"], 2), ([tmp_path / "missing", "2"], 1), ([data, "0"], 2), ([data, "x"], 2)):
            bad = subprocess.run([*prog, *map(str, args)], capture_output=True, text=True, check=False)
            what = (row["label"], args, bad.stderr)
            assert bad.returncode == code and bad.stderr.count("\n") == 1, what  # one line, no stack trace
            assert "iorace-result" not in bad.stderr, what
