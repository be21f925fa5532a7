"""rdb fuzzing: the differential driver (suites/rdb/fuzz/rdbfuzz.py) judges outcomes right: a planted crash,
split error line, verdict or summary difference is a finding; equal answers are not. The fuzzing itself:
tests/test_rdb_fuzz.py (slow)."""

from __future__ import annotations

from suite_code import rdbfuzz

ANSWER = {"keys": 1, "expires": 0, "dbs": {"0": 1}, "types": {"string": 1}, "digest": "00"}


def test_judge_finds_each_kind_of_finding():
    judge = rdbfuzz().judge
    ok = ("ok", ANSWER)
    assert judge({"rust": ok, "c": ok, "python": ok}) is None
    # a counter one parser reports as 0 and another leaves out is the same summary
    assert judge({"rust": ok, "python": ("ok", {**ANSWER, "types": {"string": 1, "module": 0}})}) is None
    assert judge({"rust": ("err", "offset 9: x"), "python": ("err", "offset 3: y")}) is None
    assert judge({"rust": ok, "c": ("crash", "exit -11"), "python": ok}) == "crash-c"
    assert judge({"rust": ("err", "a"), "java": ("badline", "b"), "python": ("err", "c")}) == "errorline-java"
    assert judge({"rust": ok, "go": ("err", "offset 1: x"), "python": ok}) == "verdict-accepted-by-python-rust"
    other = ("ok", {**ANSWER, "digest": "01"})
    assert judge({"rust": ok, "go": other, "python": ok}) == "summary-differs-go"
