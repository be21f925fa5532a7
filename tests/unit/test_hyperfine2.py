"""The hyperfine2 export is hyperfine 2.0's JSON (schema version 2), as the hyperfine 2.0 binary writes it and
as its scripts read it.

Against the producer: hyperfine 2.0 itself exports a tiny benchmark (`true`, with a name and a parameter), and
every key, type and unit it writes must be in our export too, in the same place (iorace's additions all
start with `iorace`). Against the readers: hyperfine's scripts, when installed, run on our export; on every
machine, the reads they make (plot_utils.load_results, advanced_statistics.py and welch_ttest.py of hyperfine
2.0) are checked on it, and that check refuses what breaks them (a version-1 file, an untimed cell).
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess

import numpy as np
import pytest
from consumers import HYPERFINE2_MISSING, HYPERFINE_SCRIPTS_MISSING, hyperfine2, hyperfine_script
from sessions import demo_cell as cell
from sessions import mixed_session, session, toy_session

from iorace.export import json_export
from iorace.export.hyperfine2 import document, write_hyperfine2
from iorace.report.document import build

# hyperfine 2.0's plot_utils.METRICS: what its scripts accept as --metric (and as primary_metric)
SCRIPT_METRICS = ("time_wall_clock", "time_cpu", "time_user", "time_system", "memory_peak_resident")


def check_as_hyperfines_scripts_read_it(doc: dict) -> None:
    """What hyperfine 2.0's scripts do with a file: plot_utils.load_results (the metric is primary_metric, one of
    its METRICS; every result's summary has it), then advanced_statistics.py (summary count, mean, stddev,
    median, min, max; the percentiles of every measurement's value) and welch_ttest.py (the values of two
    results), for every metric the scripts offer."""
    assert doc["results"], "load_results: no benchmark results"
    assert doc.get("primary_metric", "time_wall_clock") in SCRIPT_METRICS
    for metric in SCRIPT_METRICS:
        for r in doc["results"]:
            label = r.get("name", r["command"])
            assert isinstance(label, str) and label
            assert metric in r["summary"], f"metric {metric} is unavailable for {label}"
            s = r["summary"][metric]
            values = [m[metric]["value"] for m in r["measurements"]]
            assert s["count"] == len(values) and isinstance(s["count"], int)
            assert all(isinstance(v, float) for v in values)
            assert {m[metric]["unit"] for m in r["measurements"]} == {s["unit"]}
            np.percentile(values, [5, 25, 75, 95])
            for stat in ("mean", "stddev", "median", "min", "max"):
                assert s[stat] is None or isinstance(s[stat], float), (label, metric, stat)
            assert (s["stddev"] is None) == (len(values) == 1)
            assert s["min"] == min(values) and s["max"] == max(values)
            assert s["median"] == pytest.approx(statistics.median(values), rel=1e-12)
            assert s["mean"] == pytest.approx(statistics.fmean(values), rel=1e-12)
            assert all(isinstance(m["exit_code"], int) for m in r["measurements"])


def shape(value: object) -> object:
    """The layout of a JSON value: its keys and the kinds of its leaves (a list: the layout of its first item)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__


def check_same_layout(theirs: object, ours: object, where: str = "") -> None:
    """Everything hyperfine writes is in ours, of the same kind; what ours adds is named iorace*."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), where
        for key in theirs:
            if key in ("hyperfine_version", "platform") and where == "/metadata":
                continue  # hyperfine's own version and platform: iorace is not hyperfine (its own are under "iorace")
            assert key in ours, f"{where}/{key} missing"
            check_same_layout(theirs[key], ours[key], f"{where}/{key}")
        extra = [k for k in ours if k not in theirs]
        assert all(k.startswith("iorace") for k in extra), (where, extra)
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and ours, where
        check_same_layout(theirs[0], ours[0], f"{where}[0]")
    else:
        assert theirs == ours, (where, theirs, ours)


@pytest.mark.skipif(hyperfine2() is None, reason=HYPERFINE2_MISSING)
def test_the_layout_is_the_one_hyperfine_2_writes(tmp_path):
    ref = tmp_path / "hyperfine.json"
    command = ["-N", "--style", "none", "--runs", "2", "-L", "mode", "count", "-n", "demo {mode}", "--export-json", ref, "true {mode}"]
    proc = subprocess.run([hyperfine2(), *command], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    theirs = json.loads(ref.read_text())
    ours = document(build(toy_session()))
    assert theirs["schema_version"] == ours["schema_version"] == 2
    assert theirs["primary_metric"] == ours["primary_metric"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", theirs["metadata"]["start_time"])
    assert ours["metadata"]["start_time"] == "2026-11-22T08:00:00Z"
    check_same_layout(shape(theirs), shape(ours))  # the toy session's cells have a parameter too (mode)
    # and every metric hyperfine measured is in every one of our results, with hyperfine's unit
    for r in ours["results"]:
        for metric, s in theirs["results"][0]["summary"].items():
            assert r["summary"][metric]["unit"] == s["unit"], metric
            assert all(m[metric]["unit"] == s["unit"] for m in r["measurements"])


def test_the_layout_check_refuses_a_layout_that_is_not_hyperfines():
    """The comparison above must be able to fail: a renamed key, a value of another kind, an addition not named iorace."""
    theirs = shape({"results": [{"summary": {"time_wall_clock": {"unit": "second", "count": 2}}}]})
    for ours in (
        {"results": [{"summary": {"wall": {"unit": "second", "count": 2}}}]},
        {"results": [{"summary": {"time_wall_clock": {"unit": "second", "count": 2.0}}}]},
        {"results": [{"summary": {"time_wall_clock": {"unit": "second", "count": 2}}, "inner": 1}]},
    ):
        with pytest.raises(AssertionError):
            check_same_layout(theirs, shape(ours))
    check_same_layout(theirs, shape({"results": [{"summary": {"time_wall_clock": {"unit": "s", "count": 3}}, "iorace": {}}]}))


def test_a_session_reads_as_hyperfines_scripts_read_it():
    doc = document(build(toy_session()))
    check_as_hyperfines_scripts_read_it(doc)
    fast = next(r for r in doc["results"] if r["name"] == "toy tiny c/fast@gcc:release[mode=count]")
    assert fast["command"] == "/cache/fast/prog /data/tiny count"
    assert [m["time_wall_clock"]["value"] for m in fast["measurements"]] == pytest.approx([0.011, 0.011, 0.012, 0.011, 0.011])
    assert [m["iorace_time_inner"]["value"] for m in fast["measurements"]] == pytest.approx([0.010, 0.010, 0.011, 0.010, 0.010])
    assert fast["measurements"][0]["memory_peak_resident"] == {"value": 2048.0 * 1024, "unit": "byte"}
    assert fast["summary"]["time_wall_clock"]["median"] == pytest.approx(0.011)
    assert fast["summary"]["iorace_time_inner"]["median"] == pytest.approx(0.010)
    assert fast["parameters"] == {"mode": {"value": "count"}}
    assert fast["iorace"]["metric"] == "inner" and fast["iorace"]["status"] == "ok"
    assert doc["iorace"]["session"] == 7


def test_results_hold_only_timed_cells_and_the_rest_is_listed_beside_them(tmp_path):
    path = tmp_path / "export.json"
    write_hyperfine2(build(mixed_session()), path)
    doc = json.loads(path.read_text())
    check_as_hyperfines_scripts_read_it(doc)
    assert sorted(r["iorace"]["variant"] for r in doc["results"]) == ["fast", "once", "slow"]
    once = next(r for r in doc["results"] if r["iorace"]["variant"] == "once")
    assert once["summary"]["time_wall_clock"]["stddev"] is None  # hyperfine's null for one run
    unmeasured = {r["iorace"]["variant"]: r["iorace"] for r in doc["iorace_unmeasured"]}
    assert set(unmeasured) == {"wrong", "crash", "dmd", "slowpoke"}
    assert unmeasured["crash"]["status"] == "failed" and unmeasured["crash"]["detail"] == "killed by SIGSEGV"


def test_a_check_only_session_has_no_results():
    doc = document(build(session([cell("a", status="ok"), cell("b", status="failed", detail="exit code 1")])))
    assert doc["results"] == []  # hyperfine's scripts say "no benchmark results", rather than crash
    assert [r["iorace"]["variant"] for r in doc["iorace_unmeasured"]] == ["a", "b"]


def test_the_scripts_check_refuses_what_breaks_hyperfines_scripts():
    """A version-1 file (no summary, no measurements) and a failed cell among the results both fail the check."""
    v1 = json_export.document(build(mixed_session()))
    with pytest.raises((AssertionError, KeyError)):
        check_as_hyperfines_scripts_read_it(v1)
    doc = document(build(mixed_session()))
    doc["results"].append({"command": "x", "name": "crash", "measurements": [], "summary": {}})
    with pytest.raises((AssertionError, KeyError)):
        check_as_hyperfines_scripts_read_it(doc)


@pytest.mark.skipif(hyperfine_script("advanced_statistics") is None, reason=HYPERFINE_SCRIPTS_MISSING)
@pytest.mark.parametrize("metric", SCRIPT_METRICS)
def test_hyperfines_advanced_statistics_reads_it(tmp_path, metric):
    path = tmp_path / "export.json"
    write_hyperfine2(build(mixed_session()), path)
    out = subprocess.run([*hyperfine_script("advanced_statistics"), "--metric", metric, path], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("Command 'demo tiny ") == 3 and out.stdout.count("runs:") == 3


@pytest.mark.skipif(hyperfine_script("welch_ttest") is None, reason=HYPERFINE_SCRIPTS_MISSING)
def test_hyperfines_welch_ttest_reads_it(tmp_path):
    doc = document(build(mixed_session()))
    doc["results"] = [r for r in doc["results"] if r["iorace"]["variant"] in ("fast", "slow")]
    (tmp_path / "two.json").write_text(json.dumps(doc))
    out = subprocess.run([*hyperfine_script("welch_ttest"), tmp_path / "two.json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "Command 1: demo tiny c/fast@" in out.stdout and "significant difference in mean value was detected (p < " in out.stdout
