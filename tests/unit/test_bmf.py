"""The bmf export is Bencher Metric Format JSON as Bencher reads it, holding verified cells only, each with its median
and the 95% interval of that median.

Bencher's own reader (its CLI's `json` adapter) is neither on crates.io nor on PyPI or npm, so it cannot be
installed here; the export is checked against what Bencher publishes and what its adapter does:
- the JSON schema of BMF on Bencher's reference page (bencher.dev/docs/reference/bencher-metric-format), with
  jsonschema;
- the rules its adapter deserialises with (bencher_valid in bencherdev/bencher): a benchmark name is non-empty
  and at most 1024 bytes, a measure is a slug, a name of at most 64 characters or a UUID, every value a finite
  number (serde's f64: JSON has no NaN);
- the interval, recomputed here from the binomial distribution, not with the function the exporter calls.
"""

from __future__ import annotations

import json
import math
import random
import re

import pytest
import sessions
from scipy import stats as sps
from sessions import session, toy_session

from iorace.export.bmf import metrics, write_bmf
from iorace.report.document import build

# Bencher's published BMF JSON schema (https://bencher.dev/bmf.json, shown on its reference page)
BMF_SCHEMA = {
    "$id": "https://bencher.dev/bmf.json",
    "$schema": "http://json-schema.org/draft-07/schema",
    "type": "object",
    "patternProperties": {
        ".+": {
            "type": "object",
            "patternProperties": {
                ".+": {
                    "type": "object",
                    "properties": {"value": {"type": "number"}, "lower_value": {"type": "number"}, "upper_value": {"type": "number"}},
                    "required": ["value"],
                }
            },
        }
    },
}
SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


def check_as_bencher_reads_it(text: str) -> dict:
    """Parse BMF as Bencher's json adapter does; return the document."""
    jsonschema = pytest.importorskip("jsonschema")

    def no_constants(name: str) -> float:
        raise AssertionError(f"{name} is not a JSON number")

    doc = json.loads(text, parse_constant=no_constants)
    jsonschema.validate(doc, BMF_SCHEMA)
    for benchmark, measures in doc.items():
        assert 0 < len(benchmark.encode()) <= 1024, benchmark
        for measure, metric in measures.items():
            assert SLUG.fullmatch(measure) or 0 < len(measure) <= 64, measure
            assert set(metric) <= {"value", "lower_value", "upper_value"}
            assert all(isinstance(v, int | float) and math.isfinite(v) for v in metric.values())
            assert ("lower_value" in metric) == ("upper_value" in metric)
            if "lower_value" in metric:
                assert metric["lower_value"] <= metric["value"] <= metric["upper_value"], (benchmark, metric)
    return doc


def median_interval_by_the_binomial(values: list[float]) -> tuple[float, float] | None:
    """The order statistics x(k) and x(n+1-k) for the largest k with P(Bin(n, 1/2) < k) <= 2.5%: the classic
    distribution-free 95% interval of a median (None when not even the extremes reach 95%)."""
    n, xs = len(values), sorted(values)
    k = 0
    while sps.binom.cdf(k, n, 0.5) <= 0.025:  # P(X <= k) = P(X < k + 1)
        k += 1
    return (xs[k - 1], xs[n - k]) if k >= 1 else None


def test_a_session_is_bmf_with_a_latency_per_verified_timed_cell(tmp_path):
    path = tmp_path / "bmf.json"
    write_bmf(build(toy_session()), path)
    doc = check_as_bencher_reads_it(path.read_text())
    assert sorted(doc) == [
        "toy tiny c/fast@clang:release[mode=count]",
        "toy tiny c/fast@gcc:release[mode=count]",
        "toy tiny c/simd@gcc:release[mode=count]",
        "toy tiny c/slow@gcc:release[mode=count]",
    ]  # not the wrong cell
    assert doc["toy tiny c/slow@gcc:release[mode=count]"] == {"latency": {"value": 30_000_000.0}}  # 5 runs: no 95% interval


def test_the_interval_is_the_medians_95_percent_interval_from_the_cells_runs():
    inner = [14, 10, 25, 11, 18, 12, 17, 13, 16, 15, 12.5, 16.5]  # ms, in round order (mean 15, median 14.5)
    doc = check_as_bencher_reads_it(json.dumps(metrics(build(session([sessions.cell("fast", inner=inner)])))))
    latency = doc["toy tiny c/fast@gcc:release[mode=count]"]["latency"]
    low, high = median_interval_by_the_binomial(inner)
    assert (low, high) == (12, 17)  # x(3) and x(10) of 12 runs: P(Bin(12, 1/2) <= 2) = 1.9%
    assert latency == {"value": 14_500_000.0, "lower_value": 12_000_000.0, "upper_value": 17_000_000.0}


@pytest.mark.parametrize("n", [2, 5, 6, 7, 10, 20, 31])
def test_the_interval_agrees_with_the_binomial_for_any_number_of_runs(n):
    inner = [10 + k * 0.25 for k in random.Random(n).sample(range(n), n)]  # n distinct values in a scrambled order
    latency = metrics(build(session([sessions.cell("fast", inner=inner)])))["toy tiny c/fast@gcc:release[mode=count]"]["latency"]
    expected = median_interval_by_the_binomial(inner)
    if expected is None:
        assert set(latency) == {"value"}
    else:
        assert (latency["lower_value"], latency["upper_value"]) == pytest.approx((expected[0] * 1e6, expected[1] * 1e6))


def test_failed_wrong_skipped_and_timed_out_cells_are_not_benchmarks():
    cells = [
        sessions.cell("fast", inner=[10, 11, 10, 12, 10, 11]),
        sessions.cell("crash", status="failed", detail="killed by SIGSEGV"),
        sessions.cell("broken", status="wrong", detail="answered 1001, expected 1000"),
        sessions.cell("nodmd", language="d", toolchain="dmd", status="skipped", detail="dmd is not installed"),
        sessions.cell("slowpoke", status="timeout", detail="timed out after 1 s"),
    ]
    doc = check_as_bencher_reads_it(json.dumps(metrics(build(session(cells)))))
    assert list(doc) == ["toy tiny c/fast@gcc:release[mode=count]"]


def test_a_cell_that_failed_after_some_timed_runs_is_not_a_benchmark():
    """Its runs before the failure are stored, but it is not verified: no number of it goes to Bencher."""
    crash = sessions.cell("crash", inner=[10, 11, 10, 12, 10, 11])
    crash.status, crash.detail = "failed", "exit code 2 in round 7"
    doc = metrics(build(session([sessions.cell("fast", inner=[10, 11, 10, 12, 10, 11]), crash])))
    assert list(doc) == ["toy tiny c/fast@gcc:release[mode=count]"]


def test_a_check_only_session_is_an_empty_bmf_document():
    assert metrics(build(session([sessions.cell("a", status="ok")]))) == {}


def test_the_check_refuses_what_bencher_refuses():
    good = {"toy tiny c/fast": {"latency": {"value": 1.0, "lower_value": 0.5, "upper_value": 2.0}}}
    check_as_bencher_reads_it(json.dumps(good))
    for bad in (
        '{"toy": {"latency": {"lower_value": 1.0}}}',  # no value
        '{"toy": {"latency": {"value": "1 ms"}}}',  # not a number
        '{"toy": {"latency": {"value": NaN}}}',  # not JSON
        '{"": {"latency": {"value": 1.0}}}',  # no name
        json.dumps({"x" * 1025: {"latency": {"value": 1.0}}}),  # too long a name
        '{"toy": {"latency": {"value": 1.0, "lower_value": 2.0, "upper_value": 3.0}}}',  # the value outside its interval
    ):
        with pytest.raises(Exception):  # noqa: B017 (jsonschema's, json's or our own assertion)
            check_as_bencher_reads_it(bad)
