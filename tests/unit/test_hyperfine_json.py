"""The JSON export loads in hyperfine's own scripts (scripts/advanced_statistics.py, plot_whisker.py,
plot_histogram.py, plot_progression.py, plot_benchmark_comparison.py in sharkdp/hyperfine).

Those scripts were run by hand on exports of a session with failed cells; this test checks, without their
code, the structure they rely on: `results` is a list whose every entry has a `command` string, the
statistics as numbers (`stddev` may be null, as hyperfine writes it for one run) and a non-empty `times`
list (advanced_statistics.py takes percentiles of it, plot_histogram.py its min and max). A cell that was
never timed lives in `iorace_unmeasured`, which hyperfine's tools never read.
"""

import json
import statistics

import numpy as np
from sessions import demo_cell as cell
from sessions import mixed_session, session

from iorace.export.json_export import document, write_json
from iorace.report.document import build

NUMBERS = ("mean", "median", "min", "max", "user", "system")


def check_hyperfine_structure(doc: dict) -> None:
    results = doc["results"]
    assert isinstance(results, list) and results
    for r in results:
        assert isinstance(r["command"], str) and r["command"]
        for name in NUMBERS:
            assert isinstance(r[name], float), (r["command"], name, r[name])
        assert r["stddev"] is None or isinstance(r["stddev"], float)
        times = r["times"]
        assert times and all(isinstance(t, float) and t > 0 for t in times), r["command"]
        assert r["min"] == min(times) and r["max"] == max(times)
        assert r["mean"] == statistics.fmean(times) or abs(r["mean"] - statistics.fmean(times)) < 1e-12
        assert r["median"] == statistics.median(times)
        assert (r["stddev"] is None) == (len(times) == 1)
        assert len(r["memory_usage_byte"]) == len(r["exit_codes"]) == len(times)
        assert all(isinstance(v, str) for v in r["parameters"].values())
        # what advanced_statistics.py and plot_histogram.py compute must not raise
        np.percentile(times, [5, 25, 75, 95])
        np.min(times), np.max(times)


def test_results_hold_only_timed_cells_and_the_rest_is_kept_beside_them(tmp_path):
    path = tmp_path / "export.json"
    write_json(build(mixed_session()), path)
    doc = json.loads(path.read_text())
    check_hyperfine_structure(doc)
    assert sorted(r["variant"] for r in doc["results"]) == ["fast", "once", "slow"]
    unmeasured = {r["variant"]: r for r in doc["iorace_unmeasured"]}
    assert set(unmeasured) == {"wrong", "crash", "dmd", "slowpoke"}
    assert unmeasured["crash"]["status"] == "failed" and unmeasured["crash"]["detail"] == "killed by SIGSEGV"
    assert unmeasured["wrong"]["times"] == [] and unmeasured["wrong"]["mean"] is None


def test_a_check_only_session_has_empty_results():
    doc = document(build(session([cell("a", status="ok"), cell("b", status="failed", detail="exit code 1")])))
    assert doc["results"] == []  # hyperfine's scripts then have nothing to plot, rather than crashing
    assert [r["variant"] for r in doc["iorace_unmeasured"]] == ["a", "b"]


def test_the_check_itself_rejects_the_old_layout():
    """The structure check must fail on what broke advanced_statistics.py: a failed cell in `results`."""
    doc = document(build(mixed_session()))
    doc["results"] += doc["iorace_unmeasured"]
    try:
        check_hyperfine_structure(doc)
    except (AssertionError, IndexError, ValueError):
        return
    raise AssertionError("a result with no times passed the check")
