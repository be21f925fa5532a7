"""The lines suite: its generator and edge inputs, and every variant verified through the real CLI."""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys

import pytest

from conftest import REPO, require_toolchains

SUITE_DIR = REPO / "suites" / "lines"
LINE = re.compile(rb"[^\t\n]+\t(\d{4})\t([1-9]\d*)\t([1-9]\d*)")
# The tiny dataset's bytes, pinned: the generator promises the same file on every machine.
TINY_SHA256 = "7786c047d9d598dea8b8d4b6c6087e16702f0a31d5b61b5b6a1cdce7346285b0"


@pytest.fixture(scope="module")
def suite():
    spec = importlib.util.spec_from_file_location("lines_suite_under_test", SUITE_DIR / "suite.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- the generator -------------------------------------------------------------


def test_tiny_is_deterministic_and_pinned(suite, tmp_path):
    suite.generate("tiny", tmp_path / "a")
    suite.generate("tiny", tmp_path / "b")
    a, b = (tmp_path / "a").read_bytes(), (tmp_path / "b").read_bytes()
    assert a == b
    assert sha256(a) == TINY_SHA256, "the tiny dataset changed: same seed, different bytes"


def test_tiny_has_the_1gram_format(suite, tmp_path):
    path = tmp_path / "tiny"
    suite.generate("tiny", path)
    data = path.read_bytes()
    assert data.endswith(b"\n")
    lines = data[:-1].split(b"\n")
    assert len(lines) == 3150
    for line in lines:
        m = LINE.fullmatch(line)
        assert m, line
        year, match, volume = (int(g) for g in m.groups())
        assert 1500 <= year <= 2008 and 1 <= volume <= match
    words = [line.split(b"\t")[0] for line in lines]
    assert all(w[:1] in (b"s", b"S") or w.startswith("ſ".encode()) for w in words)
    assert any(re.search(rb"_(NOUN|VERB|ADJ|ADV|PRON|DET|ADP|NUM|CONJ|PRT|X)$", w) for w in words)
    text = data.decode("utf-8")  # valid UTF-8 ...
    assert any(ord(c) > 127 for c in text)  # ... with non-ASCII ngrams
    assert sum(1 for line in text.splitlines() if not line.isascii()) >= 10
    # ngrams come as runs of consecutive years, as in the Google Books files
    pairs = [(lines[i].split(b"\t"), lines[i + 1].split(b"\t")) for i in range(len(lines) - 1)]
    assert any(p[0] == q[0] and int(q[1]) == int(p[1]) + 1 for p, q in pairs)


def test_expected_and_units(suite, tmp_path):
    path = tmp_path / "tiny"
    suite.generate("tiny", path)
    data = path.read_bytes()
    assert suite.expected(path, {}) == sha256(data)
    assert suite.units(path, {}) == {"bytes": len(data), "lines": 3150}


def test_edge_members(suite, tmp_path):
    got = {}
    for member in suite.EDGE_MEMBERS:
        path = tmp_path / member
        suite.generate(f"edge:{member}", path)
        got[member] = path.read_bytes()
        assert suite.expected(path, {}) == sha256(got[member])
        assert suite.units(path, {}) == {"bytes": len(got[member]), "lines": got[member].count(b"\n")}
    assert got["empty"] == b""
    nfn = got["no-final-newline"]
    assert b"\n" in nfn and not nfn.endswith(b"\n")
    el = got["empty-lines"]
    assert el.startswith(b"\n") and b"\n\n\n" in el and el.endswith(b"\n\n")
    crlf = got["crlf"]
    assert crlf.count(b"\n") >= 10 and crlf.count(b"\n") == crlf.count(b"\r\n") and crlf.endswith(b"\r\n")
    assert b"\r\r\n" in crlf and re.search(rb"[^\r\n]\r[^\r\n]", crlf)  # and a lone CR inside a line
    long_lines = [line for line in got["long-line"].split(b"\n") if len(line) > 1 << 20]
    assert len(long_lines) == 1 and got["long-line"].endswith(b"\n")
    bad = got["invalid-utf8"]
    with pytest.raises(UnicodeDecodeError):
        bad.decode("utf-8")
    assert b"\0" in bad and bad.endswith(b"\n")
    with pytest.raises(ValueError):
        suite.generate("edge:nonsense", tmp_path / "x")


def test_training_sample_needs_no_numpy(tmp_path):
    """The ldc2 lto-pgo build runs `python3 suite.py train`: it must work where numpy is missing."""
    import subprocess

    code = (
        "import sys, runpy; sys.modules['numpy'] = None; sys.argv = ['suite.py', 'train', sys.argv[1]]; "
        f"runpy.run_path({str(SUITE_DIR / 'suite.py')!r}, run_name='__main__')"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "train")], check=True)
    data = (tmp_path / "train").read_bytes()
    assert data.count(b"\n") == 400_000 and LINE.fullmatch(data.split(b"\n")[0])


# --- every variant through the CLI ----------------------------------------------


def check_cells(result, dataset_prefix: str) -> None:
    """Every cell that ran is ok, except where the manifest says the strategy cannot keep the bytes:
    there it must be `wrong` (a clean refusal, e.g. a UTF-8 decoder exiting 1 on invalid bytes, is shown
    as `wrong` too, with the refusal as evidence), never a crash or an ok."""
    assert result.export is not None, result.stderr[-3000:]
    cells = result.cells(suite="lines")
    assert cells
    ran = [c for c in cells if c["status"] != "skipped"]
    # Every toolchain scripts/setup installs is here (require_toolchains), so only dmd's cells may be skipped.
    assert {c["toolchain"] for c in cells if c["status"] == "skipped"} <= {"dmd"}
    bad = []
    for c in ran:
        assert c["dataset"].startswith(dataset_prefix)
        if c["known_wrong"]:
            if c["status"] != "wrong":
                bad.append(f"{c['label']} on {c['dataset']}: {c['status']} (known wrong) {c['detail']}")
        elif c["status"] != "ok":
            bad.append(f"{c['label']} on {c['dataset']}: {c['status']} {c['detail']}")
    assert not bad, "\n".join(bad)
    for c in cells:
        if c["status"] == "skipped":
            assert c["toolchain"] == "dmd" or "not found" in c["detail"], c


def test_every_variant_copies_tiny(iorace):
    require_toolchains("gcc", "clang", "g++", "clang++", "gdc", "ldc2", "cargo", "go", "javac")
    result = iorace(["run", "lines", "--size", "tiny", "--check-only"])
    check_cells(result, "tiny")
    assert not any(c["known_wrong"] for c in result.cells())


def test_every_variant_on_the_edge_inputs(iorace):
    require_toolchains("gcc", "clang", "g++", "clang++", "gdc", "ldc2", "cargo", "go", "javac")
    result = iorace(["run", "lines", "--size", "edge", "--check-only"])
    check_cells(result, "edge:")
    cells = result.cells()
    datasets = {c["dataset"] for c in cells}
    assert datasets == {f"edge:{m}" for m in ["empty", "no-final-newline", "empty-lines", "crlf", "long-line", "invalid-utf8"]}

    def status(variant: str, dataset: str) -> set[str]:
        return {c["status"] for c in cells if c["variant"] == variant and c["dataset"] == dataset and c["status"] != "skipped"}

    # the known limits are shown, not hidden
    assert status("lines-println", "edge:crlf") == {"wrong"}
    assert status("lines-println", "edge:no-final-newline") == {"wrong"}
    assert status("scanner-writer", "edge:crlf") == {"wrong"}
    assert status("readline-println", "edge:invalid-utf8") == {"wrong"}
    assert status("text-lines", "edge:crlf") == {"wrong"}
    assert status("fgets-fputs", "edge:invalid-utf8") == {"wrong"}
    # byte-faithful strategies keep everything, including the 1.6 MB line
    for variant in [
        "iopipeByLineInBufOut",
        "bufferedByLineInBufOut",
        "byChunkInByLineBufOut",
        "read-window",  # C's, D's and Go's
        "memchr-window",
        "readslice-writer",
        "byte-lines-bos",
        "own-buffers-swar",
        "binary-lines",
        "getline-cout",
    ]:
        for m in ["no-final-newline", "crlf", "long-line", "invalid-utf8"]:
            assert status(variant, f"edge:{m}") <= {"ok"} and status(variant, f"edge:{m}"), (variant, m)


def test_dcats_own_builds_copy_tiny_and_the_edge_inputs(iorace):
    """dcat's ten tests built with dcat's own flags (its dub.json: -boundscheck=off, -enable-inlining, thin
    LTO, PGO), the builds the seed's rows name, copy every input byte for byte."""
    require_toolchains("ldc2")
    args = ["run", "lines", "--variant", "d/*", "--toolchain", "ldc2", "--check-only", "--size", "tiny", "--size", "edge"]
    result = iorace([*args, "--profile", "dcat-release", "--profile", "dcat-lto", "--profile", "dcat-lto-pgo"])
    check_cells(result, "")
    assert {c["profile"] for c in result.cells()} == {"dcat-release", "dcat-lto", "dcat-lto-pgo"}


def test_list_shows_the_variants(iorace):
    result = iorace(["list", "lines"])
    assert result.returncode == 0, result.stderr
    for name in [
        "byLineInRawOut",
        "iopipeByLineInBufIOOut",
        "byChunkInByLineBufOut",
        "own-buffers-swar",
        "getline-fwrite",
        "memchr-window",
        "readslice-writer",
        "readline-println",
        "text-lines",
        "bulk-limit",
    ]:
        assert name in result.stdout


def test_a_clean_refusal_on_a_known_wrong_input_is_shown_as_wrong(iorace):
    result = iorace(["run", "lines", "--size", "edge", "--check-only", "--variant", "python/text-lines"])
    (cell,) = result.cells(dataset="edge:invalid-utf8")
    assert cell["status"] == "wrong" and cell["detail"].startswith("refused: exit code 1:")
    assert result.returncode == 0  # known-wrong cells are shown but do not fail the session
