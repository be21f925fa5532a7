"""--target-ms sizing: a cell whose run at its new size is still far off the target (its probe's one pass cost
more than the next ones: a first pass allocating and faulting in its output) is sized again from that run."""

from __future__ import annotations

from iorace.manifest.cells import OK, dataset_refs, expand
from iorace.manifest.suites import load_suite
from iorace.run import calibrate as cal


def _cell(tmp_path):
    d = tmp_path / "toy"
    (d / "c").mkdir(parents=True)
    (d / "c" / "enc.c").write_text("/* Strategy: a toy encoder */\n")
    (d / "suite.toml").write_text(
        'name = "toy"\ntitle = "A toy job"\nanswer = "result"\nmetric = "inner"\nscale_params = ["passes"]\n'
        'work_param = "passes"\n[params]\npasses = 10\n[datasets.tiny]\ndescription = "small"\n'
        '[defaults]\nargs = ["{input}", "{passes}"]\n'
        '[[variants]]\nname = "enc"\nlanguage = "c"\ndescription = "toy"\nsources = ["c/enc.c"]\n'
    )
    (d / "suite.py").write_text("def generate(name, path): path.write_bytes(b'x')\ndef expected(path, params): return 1\n")
    suite = load_suite(d)
    (cell,) = expand(suite, dataset_refs(suite, ["tiny"], []), [], ["gcc"], ["release"], [])
    cell.status, cell.build_dir = OK, tmp_path / "build"
    cell.dataset.path = tmp_path / "data"
    return cell


def test_a_cell_still_far_off_the_target_at_its_new_size_is_sized_again(tmp_path, monkeypatch):
    cell = _cell(tmp_path)
    cell.params = {**cell.params, "passes": 1}  # the probe's size

    def runs(cells, timeout, recorder, jobs, done):  # a first pass of 10 ms, then 0.5 ms a pass
        for c in cells:
            c.verify_ns = int((10 + 0.5 * (c.params["passes"] - 1)) * 1e6)
            done(c)

    monkeypatch.setattr(cal, "verify_all", runs)
    monkeypatch.setattr(cal.reference, "expected", lambda *a: 1)
    monkeypatch.setattr(cal.reference, "units", lambda *a: {})
    cell.verify_ns = 10_000_000  # the probe: one pass, 10 ms
    cal.calibrate([cell], 100, 60, recorder=None, changed=lambda c: None, manifest_work={id(cell): {"passes": 10}})  # type: ignore[arg-type]
    # from the probe alone: 10 passes (runs of 14.5 ms, far off 100 ms); sized again from that run: 69, then near
    assert cell.params["passes"] > 60 and 40 <= cell.verify_ns / 1e6 <= 250
