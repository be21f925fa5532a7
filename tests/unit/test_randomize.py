"""What measure randomizes every round (measure.Randomize), driven by the fake runner: the page re-placer
opens each round, each run gets a padded environment, and neither changes the rounds' order."""

from __future__ import annotations

from fakes import FakeRunner, ListRecorder, toy_cells

from iorace.run.measure import ENV_PAD_MAX, Randomize, measure


def run(cells, randomize: Randomize, runs: int = 4) -> tuple[FakeRunner, ListRecorder]:
    fake, recorder = FakeRunner(), ListRecorder()
    measure(
        cells,
        runs=runs,
        warmup=0,
        timeout=5,
        sink="null",
        recorder=recorder,
        seed=11,
        advance=lambda _: None,
        cell_changed=lambda _: None,
        runner=fake,
        randomize=randomize,
    )
    return fake, recorder


def test_each_round_starts_by_replacing_every_input_files_pages(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b"))
    for c in cells:
        c.dataset.path = tmp_path / "tiny.bin"
    fake, recorder = run(cells, Randomize(pages=True))
    inputs = sorted({str(c.dataset.path) for c in cells})
    scheduled = [call.jobs[j].argv for call in fake.calls for j in call.schedule]
    replacer = [argv for argv in scheduled if "iorace-replace-pages" in argv[0]]
    assert len(replacer) == 4 and all(argv[1:] == inputs for argv in replacer)  # once per round
    assert all("iorace-replace-pages" in call.jobs[call.schedule[0]].argv[0] for call in fake.calls)  # first in a list
    assert len(recorder.runs) == 8 and all(r.run.env_pad is None for r in recorder.runs)  # no cell's run


def test_each_run_gets_a_random_padding_recorded_with_it(tmp_path):
    fake, recorder = run(toy_cells(tmp_path, ("a", "b")), Randomize(env=True), runs=20)
    pads = [r.run.env_pad for r in recorder.runs]
    assert all(0 <= p < ENV_PAD_MAX for p in pads) and len(set(pads)) > 10
    padded = {len(call.jobs[j].env["IORACE_PAD"]) for call in fake.calls for j in call.schedule}
    assert set(pads) <= padded


def test_randomizing_does_not_change_the_order_of_the_rounds(tmp_path):
    plain = [(r.name, r.round_no) for r in run(toy_cells(tmp_path), Randomize())[1].runs]
    both = [(r.name, r.round_no) for r in run(toy_cells(tmp_path), Randomize(pages=True, env=True))[1].runs]
    assert plain == both
