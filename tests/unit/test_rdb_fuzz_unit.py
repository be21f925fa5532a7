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


def test_differential_driver_runs_each_languages_fastest_parser():
    """The driver's FASTEST is each language's best variant in the suite's stored results (the seed session's
    "best variant" table), so a new measurement that changes the best says so here."""
    from conftest import REPO

    drv = rdbfuzz()
    table = (REPO / "docs" / "results" / "rdb-seed.md").read_text()
    best: dict[str, set[str]] = {}
    for row in table.splitlines():
        cells = [c.strip() for c in row.strip("|").split("|")]
        # | language | toolchain | profile | best variant | inner time | x fastest | x limit |
        if len(cells) == 7 and cells[2] == "release" and not cells[3].startswith("peer-"):
            best.setdefault(cells[0], set()).add(cells[3])
    assert {lang: best.get(lang) for lang in drv.FASTEST} == {lang: {v} for lang, v in drv.FASTEST.items()}
    assert set(drv.JAVA_BATCH) == {drv.FASTEST["java"]}  # the batch parses through that strategy's stream
