"""`iorace run --target-ms`: each cell's work per run sized from its verification run, verified again at the
new size (its answer is the new size's), and noted; without the option the manifest's size stands."""

from __future__ import annotations

from conftest import TEST_SUITES, run_iorace
from iorace.run.calibrate import MAX_FACTOR, sized

SPIN = ["run", "spin", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--check-only"]


def test_sized_scales_in_proportion_and_within_bounds():
    assert sized(10, 200_000_000, 100) == 5  # a 200 ms run at 10 passes: 5 passes for 100 ms
    assert sized(3, 1_000_000_000, 100) == 1  # never below one
    assert sized(1, 1, 100) == MAX_FACTOR  # a run of nothing grows a thousandfold at most


def test_a_cell_is_sized_to_the_target_and_verified_at_its_new_size(tmp_path):
    res = run_iorace([*SPIN, "--target-ms", "5"], tmp_path)
    assert res.returncode == 0, res.stderr
    (cell,) = res.cells(variant="loop")
    steps = int(cell["parameters"]["steps"])
    assert 0 < steps < 60_000_000 and cell["status"] == "ok"  # 60M steps take far longer than 5 ms anywhere
    assert "(--target-ms)" in res.stdout
    plain = run_iorace(SPIN, tmp_path / "plain" if (tmp_path / "plain").mkdir() is None else tmp_path)
    (cell,) = plain.cells(variant="loop")
    assert int(cell["parameters"]["steps"]) == 60_000_000


def test_metric_cpu_compares_user_plus_system(tmp_path):
    res = run_iorace(["run", "spin", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--runs", "3", "--warmup", "0",
                      "--precision", "none", "--param", "steps=5000000", "--metric", "cpu"], tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert {c["metric"] for c in res.export["results"]} == {"cpu"} and "cpu time (user + system)" in res.stdout
