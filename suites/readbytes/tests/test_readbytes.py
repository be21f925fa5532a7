"""The readbytes suite in C and C++: the seed's exact answers, right answers for any user file, and
deterministic data written through protobuf."""

import math
import os
import statistics
from pathlib import Path

import pytest

from conftest import run_iorace

C_CPP = ["--variant", "c/*", "--variant", "cpp/*"]
SEED_SHA256 = "2e86c49a79fa1405fc6756242a6e45033659e9337b2d16897ab6470de1d87c79"
TINY_SHA256 = "9c1bb4f0b7e7917188a7ee73c55e1abc1ecc3d1f95fdf69b5f7f438c8ed557bc"


def assert_all_ok(result, expect_cells):
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    cells = result.cells()
    assert len(cells) == expect_cells
    bad = [(c["label"], c["status"], c["detail"]) for c in cells if c["status"] != "ok"]
    assert not bad


@pytest.fixture(scope="module")
def seed_run(tmp_path_factory):
    """Every cell on the seed's file: C's and C++'s for the seed's own answers, every language's for its per-pass ones."""
    return run_iorace(["run", "readbytes", "--size", "seed", "--check-only"], tmp_path_factory.mktemp("seed"))


def test_seed_answers_are_exactly_the_seeds(seed_run):
    # 15 variants (12 C++, five of them the seed's programs as written, + 3 C) x 2 compilers x 2 modes
    assert seed_run.returncode == 0, seed_run.stdout[-3000:] + seed_run.stderr
    c_cpp = [c for c in seed_run.cells() if c["language"] in ("c", "cpp")]
    assert len(c_cpp) == 60
    assert not [(c["label"], c["status"], c["detail"]) for c in c_cpp if c["status"] != "ok"]
    for cell in c_cpp:
        want = 128_863_360 if cell["parameters"]["mode"] == "count" else 14_577_336_640
        assert cell["answer"] == cell["expected"] == want, cell["label"]
        assert cell["toolchain"] in {"gcc", "clang", "g++", "clang++"}


def test_seed_file_is_the_original_bytes(seed_run):
    cell = seed_run.cells()[0]
    assert cell["dataset_sha256"] == SEED_SHA256
    assert os.path.getsize(cell["command"].split()[1]) == 12_886_336


def test_tiny_dataset_is_deterministic(tmp_path):
    result = run_iorace(["run", "readbytes", "--size", "tiny", "--check-only", "--variant", "c/read-64k", "--toolchain", "gcc"], tmp_path)
    assert_all_ok(result, 2)
    assert result.cells()[0]["dataset_sha256"] == TINY_SHA256


def _user_files(folder):
    rng = __import__("random").Random(42)
    sizes = {"empty": 0, "one-byte": 1, "1023": 1023, "1025": 1025, "65537": 65537, "131079": 131_079, "odd-3MB": 3 * 1024 * 1024 + 17}
    paths = []
    for name, size in sizes.items():
        p = folder / name
        p.write_bytes(bytes([255]) if size == 1 else rng.randbytes(size))  # 255: a byte that is -1 as signed char
        paths.append(p)
    return paths


def test_any_user_file_gives_the_right_answer(tmp_path):
    files = _user_files(tmp_path)
    args = ["run", "readbytes", "--check-only", *C_CPP, "--param", "passes=3"]
    for p in files:
        args += ["--input", str(p)]
    result = run_iorace(args, tmp_path)
    assert_all_ok(result, 60 * len(files))  # 15 variants (five the seed's programs as written) x 2 compilers x 2 modes
    by_file = {}
    for c in result.cells():
        by_file.setdefault(c["dataset"], set()).add(json_key(c))
    assert by_file["input:empty"] == {("count", 0), ("sum", 0)}
    assert by_file["input:one-byte"] == {("count", 3), ("sum", 3 * 256)}


def json_key(cell):
    return cell["parameters"]["mode"], cell["answer"]


def _last_level_cache_bytes() -> int | None:
    """The largest CPU cache's size from sysfs (None where the kernel does not say)."""
    sizes = []
    for f in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*/size"):
        text = f.read_text().strip()
        factor = {"K": 1024, "M": 2**20}.get(text[-1:], 1)
        sizes.append(int(text.rstrip("KM")) * factor)
    return max(sizes, default=None)


def test_file_larger_than_the_cpu_caches(tmp_path):
    llc = _last_level_cache_bytes()
    if llc is None:
        pytest.skip("the kernel does not report the CPU's cache sizes (/sys/devices/system/cpu/cpu0/cache)")
    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(2 * llc + 3))  # twice the largest cache: every pass streams from memory
    result = run_iorace(
        [
            "run",
            "readbytes",
            "--check-only",
            *C_CPP,
            "--param",
            "passes=1",
            "--input",
            str(big),
            "--toolchain",
            "g++",
            "--toolchain",
            "gcc",
        ],
        tmp_path,
    )
    assert_all_ok(result, 30)  # 15 variants x 1 compiler x 2 modes
    data = big.read_bytes()
    want = {"count": len(data), "sum": sum(data) + len(data)}
    for c in result.cells():
        assert c["answer"] == want[c["parameters"]["mode"]]


def test_second_run_rebuilds_nothing(tmp_path):
    args = ["run", "readbytes", "--size", "tiny", "--check-only", "--variant", "cpp/mmap"]
    first = run_iorace(args, tmp_path)
    assert_all_ok(first, 4)
    # the builds of this run's cells (the program each command starts): the rest of the cache is other tests',
    # which may be building beside this one (make test's workers)
    built = lambda result: {Path(c["command"].split()[0]).parent / ".built" for c in result.cells()}
    stamps = {p: p.stat().st_mtime_ns for p in built(first)}
    assert stamps and all(p.parent.parent.name == "build" for p in stamps), stamps
    second = run_iorace(args, tmp_path)
    assert_all_ok(second, 4)
    assert {p: p.stat().st_mtime_ns for p in built(second)} == stamps


def test_debug_profile_builds_and_is_right(tmp_path):
    result = run_iorace(
        ["run", "readbytes", "--size", "tiny", "--check-only", "--variant", "cpp/fread-buffer", "--profile", "debug"], tmp_path
    )
    assert_all_ok(result, 4)
    assert {c["profile"] for c in result.cells()} == {"debug"}


def test_limit_row_is_labelled(tmp_path):
    result = run_iorace(
        [
            "run",
            "readbytes",
            "--size",
            "tiny",
            "--variant",
            "c/simd-limit",
            "--variant",
            "c/read-64k",
            "--toolchain",
            "gcc",
            "--param",
            "mode=sum",
            "--runs",
            "3",
            "--no-aa",  # the two cells alone
        ],
        tmp_path,
    )
    assert_all_ok(result, 2)
    (limit,) = result.cells(variant="simd-limit")
    assert limit["kind"] == "limit" and limit["description"].startswith("LIMIT")
    (byte_at_a_time,) = result.cells(variant="read-64k")
    # The x limit column is this cell's inner median over the limit row's, and byte-at-a-time is the slower.
    want = statistics.median(byte_at_a_time["inner_times"]) / statistics.median(limit["inner_times"])
    assert byte_at_a_time["ratio_to_limit"] == pytest.approx(want) and want > 1
    assert byte_at_a_time["ratio"] == 1.0  # the limit row is faster, but never "the fastest" ratios refer to
    assert "LIMIT (other method)" in result.stdout


def test_every_language_gives_the_seeds_exact_answers_on_the_seed_file(seed_run):
    result = seed_run
    cells = [c for c in result.cells() if c["status"] != "skipped"]
    skipped = {c["toolchain"] for c in result.cells() if c["status"] == "skipped"}
    assert skipped <= {"dmd"}  # not packaged here: looked for and reported, the only cells that may not run
    assert {c["language"] for c in cells} == {"c", "cpp", "d", "java", "rust", "go", "python"}
    bad = [(c["label"], c["status"], c["detail"]) for c in cells if c["status"] != "ok"]
    assert not bad
    per_pass = {"count": 12_886_336, "sum": 1_457_733_664}
    for c in cells:
        passes = int(c["parameters"]["passes"])
        assert c["answer"] == per_pass[c["parameters"]["mode"]] * passes, c["label"]
        if passes == 10:
            assert c["answer"] in (128_863_360, 14_577_336_640)


def test_debug_profiles_of_every_compiled_language_build_and_are_right(tmp_path):
    result = run_iorace(
        [
            "run",
            "readbytes",
            "--size",
            "tiny",
            "--check-only",
            "--profile",
            "debug",
            "--param",
            "mode=sum",
            "--variant",
            "c/read-64k",
            "--variant",
            "cpp/mmap",
            "--variant",
            "d/mmfile",
            "--variant",
            "rust/own-buffer",
            "--variant",
            "go/own-buffer",
        ],
        tmp_path,
    )
    cells = [c for c in result.cells() if c["status"] != "skipped"]
    assert {c["language"] for c in cells} == {"c", "cpp", "d", "rust", "go"}
    assert {c["profile"] for c in cells} == {"debug"}
    assert all(c["status"] == "ok" for c in cells), [(c["label"], c["detail"]) for c in cells if c["status"] != "ok"]


def test_fewer_passes_are_compared_per_byte_in_the_same_table(tmp_path):
    result = run_iorace(
        [
            "run",
            "readbytes",
            "--size",
            "tiny",
            "--param",
            "mode=count",
            "--runs",
            "3",
            "--variant",
            "python/*",
            "--variant",
            "c/read-64k",
            "--toolchain",
            "gcc",
            "--toolchain",
            "python3",
            "--no-aa",  # one cell per language
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    (py,) = result.cells(language="python")
    (c,) = result.cells(language="c")
    assert py["parameters"]["passes"] == "1" and c["parameters"]["passes"] == "10"
    # one group: C's 10 passes are the fastest per byte, Python's 1 pass is scaled by 10 to compare
    assert c["ratio"] == 1.0
    # each round's ratio per byte (Python's time x 10 over C's, the same round), geometric mean
    py_by_round, c_by_round = dict(zip(py["rounds"], py["inner_times"], strict=True)), dict(zip(c["rounds"], c["inner_times"], strict=True))
    per_round = [
        py_by_round[n] * 10 / c_by_round[n] for n in sorted(py_by_round.keys() & c_by_round.keys())
    ]  # a displaced run's round is left out
    per_byte = math.exp(sum(map(math.log, per_round)) / len(per_round))
    assert abs(py["ratio"] - per_byte) / per_byte < 1e-6
    assert "compared per byte of work" in result.stdout and "(passes=1, scaled)" in result.stdout
