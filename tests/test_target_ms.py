"""`iorace run --target-ms`: each cell's work per run sized from its verification run, verified again at the
new size (its answer is the new size's), and noted; without the option the manifest's size stands."""

from __future__ import annotations

import pytest

from conftest import TEST_SUITES, run_iorace
from iorace.run.calibrate import MAX_FACTOR, sized

# Alone, after the other tests (make test): its sessions must be quiet, or it loads every core itself.
pytestmark = pytest.mark.serial

SPIN = ["run", "spin", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--runs", "1", "--precision", "none", "--no-aa"]


def test_sized_scales_in_proportion_and_within_bounds():
    assert sized(10, 200_000_000, 100) == 5  # a 200 ms run at 10 passes: 5 passes for 100 ms
    assert sized(3, 1_000_000_000, 100) == 1  # never below one
    assert sized(1, 1, 100) == MAX_FACTOR  # a run of nothing grows a thousandfold at most


@pytest.fixture(scope="module")
def sized_session(tmp_path_factory):
    """One session sized to 5 ms a run (two tests read it)."""
    return run_iorace([*SPIN, "--target-ms", "5"], tmp_path_factory.mktemp("sized"))


def test_a_cell_is_sized_to_the_target_and_verified_at_its_new_size(sized_session, tmp_path):
    res = sized_session
    assert res.returncode == 0, res.stderr
    (cell,) = res.cells(variant="loop")
    steps = int(cell["parameters"]["steps"])
    assert 0 < steps < 60_000_000 and cell["status"] == "ok"  # 60M steps take far longer than 5 ms anywhere
    assert "(--target-ms)" in res.stdout
    for plain_args in (["--target-ms", "none"], ["--target-ms", "5", "--check-only"]):  # the manifest's sizes
        (tmp_path / plain_args[-1]).mkdir()
        plain = run_iorace([*SPIN, *plain_args], tmp_path / plain_args[-1])
        (cell,) = plain.cells(variant="loop")
        assert int(cell["parameters"]["steps"]) == 60_000_000


def test_metric_cpu_compares_user_plus_system(tmp_path):
    res = run_iorace(["run", "spin", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--runs", "3", "--warmup", "0",
                      "--precision", "none", "--param", "steps=5000000", "--metric", "cpu"], tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert {c["metric"] for c in res.export["results"]} == {"cpu"} and "cpu time (user + system)" in res.stdout


def test_the_first_verification_runs_a_tenth_of_the_work_and_the_note_names_the_manifests_size():
    from iorace.core.options import RunOptions
    from iorace.run.calibrate import probe
    from iorace.run.session import plan

    cells = plan(RunOptions(suites=["spin"], suite_dirs=[TEST_SUITES], sizes=["tiny"]))
    shared = cells[0].params
    probe(cells)
    assert {c.params["steps"] for c in cells} == {6_000_000}
    assert shared["steps"] == 60_000_000  # each cell got its own parameters: the sweep's dict is untouched


def test_the_sizing_note_names_the_manifests_size_not_the_probes(sized_session):
    res = sized_session
    assert res.returncode == 0, res.stderr
    assert "steps 60000000 -> " in res.stdout


def test_a_second_session_here_keeps_each_cells_size_from_the_first(tmp_path):
    """Sized anew, a cell's work per run follows the speed its probe happened to see (this VM runs in two
    speeds): the next session at the same target keeps the size this machine's latest one gave it."""
    # its own first session, just before the second: a size is kept while a run at it still takes about the
    # target, which a busy machine's load, changing between two sessions far apart, can move past
    first = run_iorace([*SPIN, "--target-ms", "5"], tmp_path)
    assert first.returncode == 0, first.stderr
    (cell,) = first.cells(variant="loop")
    second = run_iorace([*SPIN, "--target-ms", "5"], tmp_path)  # the same store
    assert second.returncode == 0, second.stderr
    (again,) = second.cells(variant="loop")
    assert again["parameters"]["steps"] == cell["parameters"]["steps"]
    assert "as in session 1, this machine's latest at --target-ms 5" in second.stdout
    other = run_iorace([*SPIN, "--target-ms", "7"], tmp_path)  # another target: sized anew
    assert other.returncode == 0, other.stderr
    assert "steps 60000000 -> " in other.stdout
