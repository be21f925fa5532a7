"""Code layouts without a linker: their names, the balanced order a cell uses them in, the runs measure() makes
with them (a fake runner), and the placement verdict (analyse/placement.py) on made-up runs."""

from __future__ import annotations

import random
from collections import Counter

from fakes import FakeRunner, ListRecorder, toy_cells

from iorace.analyse.placement import P_SENSITIVE, placement
from iorace.core.layout import LayoutSet
from iorace.run.layouts import SHIFTS, TWIN_SEEDS, block_names, go_names, one_layout_reason, use_order
from iorace.run.measure import measure


def test_layouts_come_in_blocks_of_one_shuffle_at_four_shifts():
    assert block_names(8) == ["s1+0", "s1+16", "s1+32", "s1+48", "s2+0", "s2+16", "s2+32", "s2+48"]
    assert block_names(2, TWIN_SEEDS) == ["s1001+0", "s1001+16"]  # the A/A twin's: seeds of its own
    assert go_names(3) == ["go1", "go2", "go3"]


def test_every_block_of_runs_covers_its_four_shifts_and_every_layout_is_used_alike():
    names = block_names(12)
    layouts = LayoutSet(tuple(f"/l/{n}" for n in names), tuple(names), "/b/prog")
    for seed in range(20):
        order = use_order(layouts, random.Random(seed))
        assert sorted(order) == list(range(12))
        for start in range(0, 12, len(SHIFTS)):  # a stretch of 4 runs from a block's start: one shuffle, 4 shifts
            block = [names[i] for i in order[start : start + len(SHIFTS)]]
            assert len({n.split("+")[0] for n in block}) == 1
            assert sorted(int(n.split("+")[1]) for n in block) == list(SHIFTS)
    assert use_order(LayoutSet(), random.Random(1)) == []


def test_a_layout_replaces_only_the_as_linked_program_in_the_command():
    layouts = LayoutSet(("/c/layouts/s1+16/prog",), ("s1+16",), "/c/prog")
    assert layouts.argv(["/c/prog", "/data/in", "count", "/c/prog.txt"], 0) == ["/c/layouts/s1+16/prog", "/data/in", "count", "/c/prog.txt"]


def test_languages_without_a_link_have_one_layout_and_say_why(tmp_path):
    (cell,) = toy_cells(tmp_path, ("a",))
    cell.variant = cell.variant.model_copy(update={"language": "java"})
    assert "HotSpot" in one_layout_reason(cell)
    cell.variant = cell.variant.model_copy(update={"language": "python"})
    assert "interpreter" in one_layout_reason(cell)
    cell.variant = cell.variant.model_copy(update={"language": "cpp"})
    assert one_layout_reason(cell) == ""


def timed(cells, runs: int) -> tuple[ListRecorder, FakeRunner]:
    """`runs` rounds of the cells, no warm-up, with the fake runner: what was recorded, and the runner's calls."""
    recorder, fake = ListRecorder(), FakeRunner()
    nothing = lambda _: None
    measure(
        cells, runs=runs, warmup=0, timeout=5.0, sink="null", recorder=recorder, seed=3, advance=nothing, cell_changed=nothing, runner=fake
    )
    return recorder, fake


def test_measure_runs_each_layout_in_turn_and_records_it(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b"))
    names = block_names(8)
    for c in cells:
        c.layouts = LayoutSet(tuple(f"{c.argv[0]}.{n}" for n in names), tuple(names), c.argv[0])
    recorder, fake = timed(cells, 16)
    for c in cells:
        runs = recorder.of(c.variant.name)
        assert len(runs) == 16
        used = [a.run.layout for a in runs]
        assert Counter(used) == dict.fromkeys(range(8), 2)  # balanced: each layout twice in 16 runs
        for start in range(0, 16, 4):  # each stretch of four from the start: one block's four shifts
            assert sorted(names[i].split("+")[1] for i in used[start : start + 4]) == ["0", "16", "32", "48"]
    # the program each job ran is its layout's
    for call in fake.calls:
        for j in call.schedule:
            assert call.jobs[j].argv[0].rsplit(".", 1)[-1] in names


def test_cells_of_one_layout_run_as_linked_and_record_none(tmp_path):
    cells = toy_cells(tmp_path, ("a", "b"))
    recorder, _ = timed(cells, 3)
    assert {a.run.layout for a in recorder.runs} == {None}


def _runs(effects: list[float], per_layout: int, noise: float, seed: int = 1) -> tuple[dict, dict, dict]:
    """A cell's cost per round (layout effects times noise), its layouts, and one other cell's costs (noise)."""
    rng = random.Random(seed)
    costs, layouts, others = {}, {}, {}
    rnd = 0
    for _ in range(per_layout):
        for layout, effect in enumerate(effects):
            drift = rng.choice([1.0, 2.0])  # the VM's two speeds hit every cell of a round alike
            costs[rnd] = drift * effect * rng.lognormvariate(0, noise)
            layouts[rnd] = layout
            others[rnd] = [drift * rng.lognormvariate(0, noise)]
            rnd += 1
    return costs, layouts, others


def judge(names, costs, layouts, others):
    return placement(costs, layouts, names, others)


def test_a_cell_that_one_layout_slows_by_a_third_is_placement_sensitive():
    names = block_names(8)
    p = judge(names, *_runs([1, 1, 1, 1.33, 1, 1, 1, 1.33], per_layout=3, noise=0.01))
    assert p is not None and p.sensitive
    assert p.slowest in ("s1+48", "s2+48") and 0.25 < p.spread < 0.45
    assert p.text().startswith("placement-sensitive: layouts move it")


def test_a_cell_that_layouts_do_not_move_is_not_flagged_whatever_the_rounds_drift():
    names = block_names(8)
    flagged = sum(judge(names, *_runs([1.0] * 8, per_layout=3, noise=0.02, seed=s)).sensitive for s in range(50))  # type: ignore[union-attr]
    assert flagged <= 1  # P_SENSITIVE: about one in a thousand
    assert P_SENSITIVE <= 0.001


def test_a_small_but_real_layout_effect_is_not_flagged_under_five_percent():
    names = block_names(8)
    p = judge(names, *_runs([1, 1.03, 1, 1, 1, 1.03, 1, 1], per_layout=6, noise=0.002))
    assert p is not None and p.p_value is not None and p.p_value < P_SENSITIVE and not p.sensitive


def test_one_run_a_layout_gives_a_spread_but_no_verdict():
    names = block_names(8)
    p = judge(names, *_runs([1, 1, 1, 1.5, 1, 1, 1, 1], per_layout=1, noise=0.01))
    assert p is not None and p.p_value is None and not p.sensitive and p.text() == ""
    assert placement({0: 1.0}, {0: None}, [], {0: [1.0]}) is None  # one layout: nothing to say


def test_layouts_are_asked_for_not_the_default_yet():
    """Opt-in until the interval holds how much one shuffle moves a large program (in make bench over eight layouts
    10 of 38 A/A cells missed 1.00: docs/results/2026-11-27-seed-readbytes-layouts/make-bench-1.txt)."""
    from pathlib import Path

    from iorace.core.options import RunOptions

    assert RunOptions().layouts == 1
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    assert "--layouts" not in makefile  # make bench and make seeds take the default
