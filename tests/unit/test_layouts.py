"""Code layouts without a linker: their names, the balanced order a cell uses them in, the runs measure() makes
with them (a fake runner), and the placement verdict (analyse/placement.py) on made-up runs."""

from __future__ import annotations

import random
from collections import Counter

from fakes import FakeRunner, ListRecorder, toy_cells

from iorace.analyse.placement import P_SENSITIVE, placement
from iorace.core.layout import LayoutSet
from iorace.run.layouts import TWIN_SEEDS, go_names, layout_names, one_layout_reason, use_order
from iorace.run.measure import measure


def test_each_layout_is_a_shuffle_of_its_own_the_shifts_in_turn():
    assert layout_names(6) == ["s1+0", "s2+16", "s3+32", "s4+48", "s5+0", "s6+16"]
    assert layout_names(2, TWIN_SEEDS) == ["s1001+0", "s1002+16"]  # the A/A twin's: seeds of its own
    assert go_names(3) == ["go1", "go2", "go3"]


def test_a_cell_uses_every_layout_once_a_turn_in_an_order_of_its_own():
    names = layout_names(12)
    layouts = LayoutSet(tuple(f"/l/{n}" for n in names), tuple(names), "/b/prog")
    orders = {tuple(use_order(layouts, random.Random(seed))) for seed in range(20)}
    assert all(sorted(o) == list(range(12)) for o in orders)
    assert len(orders) > 1
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
    names = layout_names(8)
    for c in cells:
        c.layouts = LayoutSet(tuple(f"{c.argv[0]}.{n}" for n in names), tuple(names), c.argv[0])
    recorder, fake = timed(cells, 16)
    for c in cells:
        runs = recorder.of(c.variant.name)
        assert len(runs) == 16
        used = [a.run.layout for a in runs]
        assert Counter(used) == dict.fromkeys(range(8), 2)  # balanced: each layout twice in 16 runs
        assert used[:8] == used[8:]  # in turn: rounds r and r + 8 ran the same program (stats.layout_clusters)
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
    names = layout_names(8)
    p = judge(names, *_runs([1, 1, 1, 1.33, 1, 1, 1, 1.33], per_layout=3, noise=0.01))
    assert p is not None and p.sensitive
    assert p.slowest in ("s4+48", "s8+48") and 0.25 < p.spread < 0.45
    assert p.text().startswith("placement-sensitive: layouts move it")


def test_a_cell_that_layouts_do_not_move_is_not_flagged_whatever_the_rounds_drift():
    names = layout_names(8)
    flagged = sum(judge(names, *_runs([1.0] * 8, per_layout=3, noise=0.02, seed=s)).sensitive for s in range(50))  # type: ignore[union-attr]
    assert flagged <= 1  # P_SENSITIVE: about one in a thousand
    assert P_SENSITIVE <= 0.001


def test_a_small_but_real_layout_effect_is_not_flagged_under_five_percent():
    names = layout_names(8)
    p = judge(names, *_runs([1, 1.03, 1, 1, 1, 1.03, 1, 1], per_layout=6, noise=0.002))
    assert p is not None and p.p_value is not None and p.p_value < P_SENSITIVE and not p.sensitive


def test_the_as_linked_build_among_the_layouts_gives_its_figure_beside_the_spread():
    names = ["as-linked", *layout_names(7)]
    p = judge(names, *_runs([1.3, 1, 1, 1, 1, 1, 1, 1], per_layout=3, noise=0.01))
    assert p is not None and p.sensitive and p.slowest == "as-linked"
    assert p.as_linked is not None and 1.2 < p.as_linked < 1.3  # 1.3 over the layouts' mean (1.3 among them)
    assert "as linked 1.2" in p.text()
    assert judge(layout_names(8), *_runs([1.0] * 8, per_layout=2, noise=0.01)).as_linked is None  # type: ignore[union-attr]


def test_one_run_a_layout_gives_a_spread_but_no_verdict():
    names = layout_names(8)
    p = judge(names, *_runs([1, 1, 1, 1.5, 1, 1, 1, 1], per_layout=1, noise=0.01))
    assert p is not None and p.p_value is None and not p.sensitive and p.text() == ""
    assert placement({0: 1.0}, {0: None}, [], {0: [1.0]}) is None  # one layout: nothing to say


def test_compiled_cells_run_over_four_layouts_by_default():
    """The default since two make bench sessions over four layouts held their intervals (docs/ARCHITECTURE.md, Code
    layouts); --layouts 1 gives the as-linked build alone."""
    from iorace.core.options import RunOptions

    assert RunOptions().layouts == 4


REPORT = """
    74.12%  prog              [.] main
    12.40%  libc.so.6         [.] __memmove_avx_unaligned_erms
     3.10%  [kernel.kallsyms] [k] clear_page_erms
"""


def test_the_hot_function_is_the_programs_own_hottest_not_a_librarys():
    from iorace.run.hotspot import hottest_own

    assert hottest_own(REPORT, "prog").symbol == "main"
    assert hottest_own(REPORT.replace("74.12%  prog ", " 4.12%  prog "), "prog").why_not.startswith("no function of its own")
    assert "outside its own code" in hottest_own("    90.00%  libc.so.6  [.] fgetc\n", "prog").why_not
    assert "no symbol" in hottest_own("    90.00%  prog  [.] 0x0000000000001234\n", "prog").why_not
    assert hottest_own("    40.00%  prog  [.] fgetc@plt\n    30.00%  prog  [.] main\n", "prog").symbol == "main"  # a PLT stub is libc's
