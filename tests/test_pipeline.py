"""The pipeline of `iorace run`: builds first, several at once (tests/suites/slowbuild: each build logs when it
started and ended and sleeps 1 s), a build key built once for all its cells; then suite by suite, each suite's
table printed as soon as it is measured, before the next suite is even verified."""

import pytest

from conftest import TEST_SUITES, run_iorace


@pytest.fixture(scope="module")
def piped(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pipeline")
    log = tmp / "builds.log"
    result = run_iorace(
        [
            "run",
            "spin",
            "slowbuild",
            "--suite-dir",
            str(TEST_SUITES),
            "--size",
            "tiny",
            "--runs",
            "3",
            "--precision",
            "none",
            "--no-aa",
            "--build-jobs",
            "2",
        ],
        tmp,
        # a cache of its own: every build runs (the shared test cache would have them built already)
        env={"IORACE_CACHE": str(tmp / "cache"), "IORACE_TEST_BUILD_LOG": str(log)},
    )
    result.builds = [line.split() for line in log.read_text().splitlines()]
    return result


def test_session_is_fine(piped):
    assert piped.returncode == 0, piped.stdout + piped.stderr


def test_distinct_builds_run_at_once(piped):
    start = {variant: float(t) for what, variant, t in piped.builds if what == "start"}
    end = {variant: float(t) for what, variant, t in piped.builds if what == "end"}
    assert set(start) == set(end) == {"one", "two"}
    assert max(start.values()) < min(end.values()), piped.builds  # the two intervals overlap


def test_cells_of_one_build_key_are_built_once(piped):
    started = [variant for what, variant, _ in piped.builds if what == "start"]
    assert sorted(started) == ["one", "two"]  # two variants, four cells (n = 1, 2)
    cells = piped.cells(suite="slowbuild", status="ok")
    assert sorted((c["variant"], c["parameters"]["n"]) for c in cells) == [("one", "1"), ("one", "2"), ("two", "1"), ("two", "2")]


def test_first_suite_table_is_printed_before_the_second_suite_is_verified(piped):
    lines = piped.stdout.splitlines()
    spin_table = [i for i, line in enumerate(lines) if line.startswith("spin · tiny")]
    verify_second = [i for i, line in enumerate(lines) if line.startswith("verify slowbuild")]
    second_table = [i for i, line in enumerate(lines) if line.startswith("slowbuild · tiny")]
    assert len(spin_table) == 1, piped.stdout  # printed once: not again with the session at the end
    assert verify_second and spin_table[0] < verify_second[0], piped.stdout
    assert len(second_table) == 2 and verify_second[0] < second_table[0], piped.stdout  # n = 1, 2
    session_line = [i for i, line in enumerate(lines) if line.startswith("session 1 on ")]
    assert len(session_line) == 1 and second_table[-1] < session_line[0], piped.stdout  # what is session-wide last
    # the export holds the whole session all the same
    assert {c["suite"] for c in piped.cells(status="ok")} == {"spin", "slowbuild"}
