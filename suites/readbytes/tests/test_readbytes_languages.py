"""readbytes in D, Java, Rust, Go and Python: every cell builds and answers right.

Runs the real CLI (`--check-only`: build + verify, no timing) per language on the
`tiny` dataset, then on edge inputs (empty, 1 byte, 100,003 bytes: no multiple of
any buffer size), and checks the variant protocol's bad-input behaviour with the
very commands the export shows.
"""

from __future__ import annotations

import random
import shlex
import subprocess

import pytest

# (variant, toolchain, profile) cells each language must produce, for both modes.
D_VARIANTS = [
    "buffered-stream",
    "rawread-1byte",
    "fread-count-ptr",
    "fread-out-param",
    "fread-java-eof",
    "mmfile",
    "file-slicing",
    "dlsym-fread",
    # the seed's programs #2-#7 as written
    "fread-count-ptr-as-written",
    "fread-out-param-as-written",
    "fread-java-eof-as-written",
    "mmfile-as-written",
    "file-slicing-as-written",
    "dlsym-fread-as-written",
]
# The seed's Java programs as written count only, as the seed's Java did (no sum mode).
COUNT_ONLY = {("java", "own-buffer-as-written"), ("java", "mapped-byte-buffer-as-written")}
EXPECTED_CELLS = {
    # gdc and dmd twice: release (-O3 -frelease; -O -release -inline) and seed-flags (-O3; -O -release, the
    # seed's own command lines)
    "d": {(v, tc, "release") for v in D_VARIANTS for tc in ("gdc", "ldc2", "dmd")}
    | {(v, tc, "seed-flags") for v in D_VARIANTS for tc in ("gdc", "dmd")},
    "java": {
        (v, "javac", "release")
        for v in (
            "buffered-input-stream",
            "own-buffer",
            "mapped-byte-buffer",
            "file-channel",
            "chunk-array",
            "mapped-get-index",
            "mapped-bulk-get",
            "own-buffer-as-written",
            "mapped-byte-buffer-as-written",
        )
    },
    "rust": {(v, "cargo", p) for v in ("bufreader-bytes", "own-buffer", "memmap2") for p in ("release", "debug")}
    | {("read-bytes-unbuffered", "cargo", "release")},
    "go": {(v, "go", "release") for v in ("bufio-readbyte", "own-buffer", "mmap", "chunk-range", "mmap-range")},
    "python": {("buffered-read1", "python3", "release")},
}
# dmd is declared but not installable here: its cells may only be skipped (or ok where it exists).
MAY_BE_SKIPPED = {"dmd"}

LANGUAGES = sorted(EXPECTED_CELLS)


def check_cells(result, language: str) -> list[dict]:
    """Every cell of `language` is ok (or a skipped dmd cell) with the reference's answer."""
    assert result.export is not None, result.stderr[-2000:]
    cells = result.cells(language=language)
    got = {(c["variant"], c["toolchain"], c["profile"]) for c in cells}
    assert got == EXPECTED_CELLS[language]
    modes = sum(1 if (language, v) in COUNT_ONLY else 2 for v, _, _ in EXPECTED_CELLS[language])  # count + sum
    assert len(cells) == modes * len({c["dataset"] for c in cells})
    assert all(c["parameters"]["mode"] == "count" for c in cells if (language, c["variant"]) in COUNT_ONLY)
    for c in cells:
        where = f"{c['dataset']} {language}/{c['variant']}@{c['toolchain']}:{c['profile']} {c['parameters']}"
        if c["toolchain"] in MAY_BE_SKIPPED and c["status"] == "skipped":
            continue
        assert c["status"] == "ok", f"{where}: {c['status']}: {c['detail']}"
        assert c["answer"] == c["expected"], where
    return cells


@pytest.mark.parametrize("language", LANGUAGES)
def test_tiny_every_cell_ok(iorace, language):
    result = iorace(["run", "readbytes", "--size", "tiny", "--check-only", "--variant", f"{language}/*"])
    cells = check_cells(result, language)
    assert result.returncode == 0, result.stderr[-2000:]
    assert {c["parameters"]["mode"] for c in cells} == {"count", "sum"}
    if language == "d":  # both installed D compilers build and run every program
        for tc in ("gdc", "ldc2"):
            assert all(c["status"] == "ok" for c in cells if c["toolchain"] == tc)


def _edge_inputs(folder):
    """Empty, one 0xFF byte, and 100,003 random bytes (a prime: no buffer size divides it)."""
    rng = random.Random(3)
    files = {"empty.bin": b"", "one.bin": b"\xff", "odd.bin": bytes(rng.randrange(256) for _ in range(100_003))}
    paths = {}
    for name, data in files.items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return files, paths


@pytest.mark.parametrize("language", LANGUAGES)
def test_edge_inputs_and_bad_input(iorace, tmp_path, language):
    files, paths = _edge_inputs(tmp_path)
    args = ["run", "readbytes", "--check-only", "--variant", f"{language}/*"]
    for p in paths.values():
        args += ["--input", str(p)]
    result = iorace(args)
    cells = check_cells(result, language)
    assert result.returncode == 0, result.stderr[-2000:]
    assert {c["dataset"] for c in cells} == {f"input:{name}" for name in files}

    # The answers, computed here without the suite's reference.
    for c in cells:
        if c["status"] != "ok":
            continue
        data = files[c["dataset"].removeprefix("input:")]
        passes = int(c["parameters"]["passes"])
        want = len(data) * passes if c["parameters"]["mode"] == "count" else (sum(data) + len(data)) * passes
        assert c["answer"] == want, c

    # Bad input: one line on stderr, a non-zero exit, no stack trace.
    seen = set()
    for c in cells:
        key = (c["variant"], c["toolchain"], c["profile"])
        if c["status"] != "ok" or key in seen:
            continue
        seen.add(key)
        argv = shlex.split(c["command"])[:-3]  # the program, without FILE MODE PASSES
        for bad in (
            [str(tmp_path / "missing.bin"), "count", "1"],  # no such file
            [str(tmp_path), "sum", "1"],  # a directory
            [str(paths["one.bin"]), "median", "1"],  # bad mode
            [str(paths["one.bin"]), "count", "ten"],  # bad passes
            [str(paths["one.bin"]), "count", "0"],
            # the seed's Java programs keep one int count over all passes: 30,000 x 100,003 bytes would overflow it
            *([[str(paths["odd.bin"]), "count", "30000"]] if (language, c["variant"]) in COUNT_ONLY else []),
        ):
            proc = subprocess.run(argv + bad, capture_output=True, text=True, timeout=60)
            lines = proc.stderr.strip().splitlines()
            what = f"{language}/{key} {bad}: exit {proc.returncode}, stderr {proc.stderr[-600:]!r}"
            assert proc.returncode != 0, what
            assert len(lines) == 1, what
            assert "iorace-result" not in proc.stderr, what
            for trace in ("Traceback", "Exception in thread", "panicked at", "goroutine ", "core.exception"):
                assert trace not in proc.stderr, what
