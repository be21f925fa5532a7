"""rdb fuzzing: the differential driver (suites/rdb/fuzz/rdbfuzz.py) judges outcomes right: a planted crash,
split error line, verdict or summary difference is a finding; equal answers are not. The fuzzing itself:
../test_rdb_fuzz.py (slow)."""

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


# The stored export FASTEST follows: a full session of every compiled language's release cells on the seed dump.
LANGUAGES_EXPORT = "2026-11-24-rdb-languages/session-1.md"


def best_per_language(markdown: str) -> dict[str, set[str]]:
    """Each language's best variant (release profile, peers left out) in an export's "Best strategy per
    language and toolchain" table, found by its title and its header's column names, not by a column count."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Best strategy per language and toolchain"))
    header_at = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("|"))
    names = [c.strip() for c in lines[header_at].strip().strip("|").split("|")]
    lang, profile, variant = (names.index(n) for n in ("language", "profile", "best variant"))
    best: dict[str, set[str]] = {}
    for row in lines[header_at + 2 :]:  # past the header and its |---| line
        if not row.startswith("|"):
            break
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if cells[profile] == "release" and not cells[variant].startswith("peer-"):
            best.setdefault(cells[lang], set()).add(cells[variant])
    return best


def test_best_per_language_reads_the_table_by_its_header():
    md = """x

Best strategy per language and toolchain:

| toolchain | best variant | language | profile | inner time | x fastest |
|---|---|---|---|--:|--:|
| gcc | inplace | c | release | 1 ms | 1.00x |
| clang | mmap | c | release | 2 ms | 2.00x |
| cargo | bufreader | rust | debug | 3 ms | 3.00x |
| python3 | peer-rdbtools | python | release | 4 ms | 4.00x |

| language | profile | best variant |
|---|---|---|
| go | release | byteslice |
"""
    assert best_per_language(md) == {"c": {"inplace", "mmap"}}


def test_differential_driver_runs_each_languages_fastest_parser():
    """The driver's FASTEST is each language's best variant in the suite's stored results (the seed sessions'
    "Best strategy per language and toolchain" table), so a new measurement that changes the best says so here."""
    from conftest import REPO

    drv = rdbfuzz()
    best = best_per_language((REPO / "docs" / "results" / LANGUAGES_EXPORT).read_text())
    assert {lang: best.get(lang) for lang in drv.FASTEST} == {lang: {v} for lang, v in drv.FASTEST.items()}
    assert set(drv.JAVA_BATCH) == {drv.FASTEST["java"]}  # the batch parses through that strategy's source
