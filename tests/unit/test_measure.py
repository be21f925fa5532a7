"""measure() with a fake runner and a recorder in a list (no process is started): chunks of whole rounds,
the seeded interleaving, cells dropping out after a bad timed run, warm-up, Ctrl-C."""

from __future__ import annotations

from collections import Counter
from itertools import groupby

import pytest
from fakes import ANSWER, COMMIT, FakeRunner, ListRecorder, record, toy_cells

from iorace.manifest.cells import FAILED, OK, TIMEOUT, WRONG
from iorace.run import measure as measure_module
from iorace.run.launcher import SINK_NULL, SINK_PIPE
from iorace.run.measure import measure
from iorace.store.run import timeout_text


@pytest.fixture(autouse=True)
def chunk_of_two_seconds(monkeypatch):
    """The chunk sizes below are worked out for rounds of about 2 s (CHUNK_S today)."""
    monkeypatch.setattr(measure_module, "CHUNK_S", 2.0)


def run_measure(cells, fake, *, runs=3, warmup=1, seed=1, sink="null", timeout=5.0):
    recorder, advanced, changed = ListRecorder(), [], []
    measure(
        cells,
        runs=runs,
        warmup=warmup,
        timeout=timeout,
        sink=sink,
        recorder=recorder,
        seed=seed,
        advance=advanced.append,
        cell_changed=changed.append,
        runner=fake,
    )
    return recorder, advanced, changed


def chunks(recorder: ListRecorder) -> list[int]:
    """How many runs were recorded between commits (the recorder must end on a commit)."""
    assert recorder.events and recorder.events[-1] == COMMIT
    return [len(list(group)) for is_commit, group in groupby(recorder.events, key=lambda e: e == COMMIT) if not is_commit]


@pytest.mark.parametrize(
    "wall_ms, rounds_per_call",
    [
        (250, [1, 4, 4, 2]),  # two cells of 0.25 s: a round takes 0.5 s, so a chunk of 2 s holds 4 rounds
        (10, [1, 10]),  # rounds of 20 ms: the whole rest in the second chunk
        (1500, [1] * 11),  # rounds of 3 s, longer than a chunk: one round at a time
    ],
)
def test_chunks_are_whole_rounds_of_about_chunk_s_and_the_first_is_one_round(tmp_path, wall_ms, rounds_per_call):
    cells = toy_cells(tmp_path, ("a", "b"))
    fake = FakeRunner(wall_ms=wall_ms)
    recorder, advanced, _ = run_measure(cells, fake, warmup=1, runs=10)
    assert [len(c.schedule) for c in fake.calls] == [2 * n for n in rounds_per_call]
    for call in fake.calls:  # whole rounds: each pair of runs is one round of both cells
        assert all(sorted(call.names[i : i + 2]) == ["a", "b"] for i in range(0, len(call.names), 2))
    assert chunks(recorder) == [2 * n for n in rounds_per_call]  # committed after every chunk
    assert len(advanced) == 2 * 11


def test_the_round_time_comes_from_the_last_chunk(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b"))
    # 0.25 s a run in the first two chunks (rounds of 0.5 s: 4 rounds a chunk), then 1 s (rounds of 2 s: 1 round)
    fake = FakeRunner(wall_ms=lambda call: 250 if call < 2 else 1000)
    run_measure(cells, fake, warmup=0, runs=12)
    assert [len(c.schedule) // 2 for c in fake.calls] == [1, 4, 4, 1, 1, 1]


def test_every_ok_cell_runs_once_a_round_in_an_order_shuffled_from_the_seed(tmp_path):
    names = ("a", "b", "c", "d", "e", "f")
    cells = toy_cells(tmp_path, names)

    def order(seed: int) -> list[tuple[str, str, int]]:
        recorder, _, _ = run_measure(cells, FakeRunner(), warmup=1, runs=8, seed=seed)
        return [(a.phase, a.round_no, a.name) for a in recorder.runs]

    first = order(7)
    rounds = [[name for _, _, name in group] for _, group in groupby(first, key=lambda r: r[:2])]
    assert len(rounds) == 1 + 8
    assert all(sorted(r) == list(names) for r in rounds)  # every cell once a round
    assert len({tuple(r) for r in rounds}) > 1  # not one fixed order
    assert any(r != list(names) for r in rounds)  # not the cells' own order
    assert order(7) == first  # the seed decides the order ...
    assert order(8) != first  # ... and another seed gives another


def test_jobs_are_the_cells_commands(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b"), env={"TOY_MODE": "fast"})
    fake = FakeRunner()
    run_measure(cells, fake, runs=1, warmup=0, sink="", timeout=7.5)
    (call,) = fake.calls
    assert [j.argv for j in call.jobs] == [c.argv for c in cells]
    assert all(j.timeout == 7.5 and j.sink == SINK_NULL and j.env is not None and j.env["TOY_MODE"] == "fast" for j in call.jobs)
    assert [j.cwd for j in call.jobs] == [str(c.build_dir) for c in cells]
    assert call.on_stdout is None
    fake = FakeRunner()
    run_measure(cells, fake, runs=1, warmup=0, sink=SINK_PIPE)
    assert {j.sink for j in fake.calls[0].jobs} == {SINK_PIPE}


@pytest.mark.parametrize(
    "bad, status, detail",
    [
        (record(exit_code=1, stderr="b: lost the file\n"), FAILED, "a timed run failed: exit code 1: b: lost the file"),
        (record(exit_code=-9, timed_out=True), TIMEOUT, "a timed run " + timeout_text(5.0)),
        (record(answer=ANSWER - 1), WRONG, f"a timed run answered {ANSWER - 1}, expected {ANSWER}"),
    ],
)
def test_a_bad_timed_run_drops_its_cell_out_of_later_rounds(tmp_path, bad, status, detail):
    cells = toy_cells(tmp_path, ("a", "b", "c"))
    # rounds of 0.3 s: chunks of 1, 6 and 4 rounds; b's third run (measure round 1, in the second chunk) is bad
    fake = FakeRunner(wall_ms=100, script={("b", 2): bad})
    recorder, advanced, changed = run_measure(cells, fake, warmup=1, runs=10)
    a, b, c = cells
    assert [len(call.schedule) for call in fake.calls] == [3, 18, 8]  # the last 4 rounds without b
    assert (b.status, b.detail) == (status, detail)
    assert changed == [b]  # told once
    assert [r.round_no for r in recorder.of("b")] == [0, 1]  # the bad run is kept, nothing after it
    assert recorder.of("b")[-1].run is bad
    assert "b" not in fake.calls[2].names  # not scheduled in later chunks
    # a wrong answer exits 0: the launcher goes on running it in that chunk, but those runs are not kept;
    # a failure or timeout: the launcher skips the rest of the chunk's runs of it (None)
    assert fake.made["b"] == (1 + 6 if status == WRONG else 3)
    for other in (a, c):
        assert other.status == OK and other.detail == ""
        assert [r.round_no for r in recorder.of(other.variant.name)] == list(range(10))
    assert len(advanced) == 3 + 18 + 8  # every scheduled run, made or not


def test_a_bad_warmup_run_drops_the_cell_and_with_no_cell_left_measuring_ends(tmp_path):
    (a,) = toy_cells(tmp_path, ("a",))
    fake = FakeRunner(script={("a", 0): record(exit_code=2, stderr="a: no\n")})
    recorder, _, changed = run_measure([a], fake, warmup=1, runs=5)
    assert a.status == FAILED and changed == [a]
    assert len(fake.calls) == 1
    assert [(r.phase, r.round_no) for r in recorder.runs] == [("warmup", 0)]


def test_runs_the_launcher_did_not_make_are_not_recorded(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b"))
    fake = FakeRunner(script={("a", 1): None, ("b", 2): None})  # no report of a's round 0 and b's round 1
    recorder, advanced, changed = run_measure(cells, fake, warmup=1, runs=3)
    assert [r.round_no for r in recorder.of("a")] == [1, 2]
    assert [r.round_no for r in recorder.of("b")] == [0, 2]
    assert all(r.run is not None for r in recorder.runs)
    assert not changed and all(c.status == OK for c in cells)  # a run not made is not a failure
    assert len(advanced) == 2 * 4


def test_warmup_runs_are_recorded_as_warmup(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b"))
    recorder, _, _ = run_measure(cells, FakeRunner(), warmup=2, runs=3)
    for name in ("a", "b"):
        assert [(r.phase, r.round_no) for r in recorder.runs if r.name == name] == [
            ("warmup", 0),
            ("warmup", 1),
            ("measure", 0),
            ("measure", 1),
            ("measure", 2),
        ]
    assert Counter(r.phase for r in recorder.runs) == {"warmup": 4, "measure": 6}


def test_an_interrupted_chunk_is_stored_then_keyboard_interrupt(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b", "c"))
    fake = FakeRunner(wall_ms=100, interrupt=(1, 5))  # Ctrl-C after 5 runs of the second chunk (18 runs)
    recorder = ListRecorder()
    changed: list = []
    with pytest.raises(KeyboardInterrupt):
        measure(
            cells,
            runs=10,
            warmup=1,
            timeout=5.0,
            sink="null",
            recorder=recorder,
            seed=3,
            advance=lambda label: None,
            cell_changed=changed.append,
            runner=fake,
        )
    assert len(fake.calls) == 2
    assert chunks(recorder) == [3, 5]  # the runs made before Ctrl-C are kept and committed
    assert not changed and all(c.status == OK for c in cells)


def test_no_ok_cell_runs_nothing(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b"))
    for cell in cells:
        cell.status = WRONG
    fake = FakeRunner()
    recorder, advanced, _ = run_measure(cells, fake)
    assert not fake.calls and not recorder.events and not advanced
