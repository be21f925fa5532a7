"""rdb fuzzing, a short deterministic slice of `make fuzz` (suites/rdb/fuzz/rdbfuzz.py).

- the differential driver judges outcomes right (unit/test_rdb_fuzz_unit.py beside this file, the fast tier);
- every parser agrees on every seed and every file of suites/rdb/fuzz-regressions/;
- a fixed set of mutants (seeded RNG) gets the same verdict and summary from each language's fastest
  parser (inplace in Rust, C, Go and Java) and the Python reference;
- the C parser's libFuzzer target (clang, ASan + UBSan) runs a fixed number of inputs with a fixed seed;
- the Go target replays its seed corpus (go test, no -fuzz: deterministic);
- the Rust cargo-fuzz target runs a fixed number of inputs when cargo-fuzz and nightly Rust are installed
  (scripts/setup does not install them: `make fuzz` does).
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from suite_code import rdbfuzz

from conftest import REPO

SUITE = REPO / "suites" / "rdb"
REGRESSIONS = SUITE / "fuzz-regressions"


@pytest.fixture(scope="module")
def parsers():
    if not (shutil.which("cargo") and shutil.which("go") and shutil.which("gcc")):
        pytest.skip("cargo, go and gcc are needed to build the parsers")
    ps = rdbfuzz().build_parsers(java=shutil.which("javac") is not None)
    yield ps
    for p in ps:
        getattr(p, "close", lambda: None)()


@pytest.fixture(scope="module")
def seed_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("seeds")
    rdbfuzz().seeds(d, real_dump=shutil.which("redis-server") is not None)
    return d


def test_seeds_and_regressions_agree(parsers, seed_dir):
    files = [seed_dir] + ([REGRESSIONS] if REGRESSIONS.is_dir() else [])
    found = rdbfuzz().replay(files, parsers)
    assert not found, found


def test_differential_fixed_mutants(parsers, seed_dir):
    drv = rdbfuzz()
    # the driver mutates WORK/seeds: the seeds of this test run
    work_seeds = drv.WORK / "seeds"
    shutil.rmtree(work_seeds, ignore_errors=True)
    shutil.copytree(seed_dir, work_seeds)
    stats = drv.diff(seconds=600, seed=12345, count=400, parsers=parsers)
    assert stats["executions"] == 400
    # through each language's fastest parser (rdbfuzz.FASTEST, held to the stored results by the unit test)
    programs = {p.name: p.label for p in parsers}
    assert stats["programs"] == [p.label for p in parsers]
    assert {lang for lang in programs if lang != "python"} >= {"rust", "c", "go"}, programs
    for lang, label in programs.items():
        assert label.split(" ")[0] == f"{lang}/{drv.FASTEST.get(lang, 'reference')}", programs
    assert os.path.basename(parsers[0].argv[0]) == drv.FASTEST["rust"] == "inplace"
    assert stats["accepted"] > 20, stats  # the CRC fix-up lets mutants reach the summary
    assert not stats["findings"], stats["findings"]


def _clang_fuzzer() -> str | None:
    clang = shutil.which("clang-14") or shutil.which("clang")
    if clang is None:
        return None
    probe = subprocess.run(
        [clang, "-fsanitize=fuzzer", "-x", "c", "-", "-o", os.devnull],
        input="int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n",
        check=False,
        capture_output=True,
        text=True,
    )
    return clang if probe.returncode == 0 else None


def test_c_libfuzzer_slice(seed_dir, tmp_path):
    if _clang_fuzzer() is None:
        pytest.skip("clang with libFuzzer is not installed (apt-get install clang libclang-rt-14-dev)")
    drv = rdbfuzz()
    work_seeds = drv.WORK / "seeds"
    shutil.rmtree(work_seeds, ignore_errors=True)
    shutil.copytree(seed_dir, work_seeds)
    r = drv.fuzz_c(0, runs=30000, corpus=tmp_path / "corpus")
    assert not r["crashed"], r["tail"]
    assert r["executions"] >= 30000, r["tail"]


def test_go_fuzz_target_replays_seeds(seed_dir):
    if shutil.which("go") is None:
        pytest.skip("go not installed")
    env = dict(os.environ, RDB_FUZZ_SEEDS=str(seed_dir))
    p = subprocess.run(
        ["go", "test", "-run", "^FuzzParse$", "parser.go", "fuzz_test.go"],
        cwd=SUITE / "go",
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]


def test_rust_cargo_fuzz_slice(seed_dir, tmp_path):
    drv = rdbfuzz()
    why = drv.cargo_fuzz_available()
    if why:
        pytest.skip(f"cargo fuzz cannot run: {why} (make fuzz installs it)")
    work_seeds = drv.WORK / "seeds"
    shutil.rmtree(work_seeds, ignore_errors=True)
    shutil.copytree(seed_dir, work_seeds)
    r = drv.fuzz_rust(0, runs=20000, corpus=tmp_path / "corpus")
    assert not r["crashed"], r["tail"]
    assert r["executions"] >= 20000, r["tail"]
