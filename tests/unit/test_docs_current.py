"""README.md's results block and docs/results/README.md are what `make docs` (scripts/docs.py) makes from the
stored exports and each study's study.toml: regenerated here in memory, they must equal the committed files.
And the generator's parts on hand-made inputs: the CPU share, the contended mark, the seed table."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import types
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def docs() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("iorace_docs_generator", REPO / "scripts" / "docs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_readme_results_block_and_results_index_are_current(docs):
    stale = [path for path, text in docs.generate(REPO).items() if path.read_text() != text]
    names = ", ".join(str(p.relative_to(REPO)) for p in stale)
    assert not stale, f"{names} out of date with docs/results: run make docs"


def _cell(mean: float, user: float, system: float) -> dict:
    return {"mean": mean, "user": user, "system": system}


def test_cpu_share_is_the_median_over_timed_cells_and_contended_is_iorace_s_own_verdict(docs):
    from iorace.analyse.contention import OLD_SHARE_BELOW

    quiet = docs.json_share({"results": [_cell(1.0, 0.97, 0.02), _cell(2.0, 1.9, 0.08), _cell(1.0, 0.5, 0.0)]})
    assert quiet.value == pytest.approx(0.99) and not quiet.contended and quiet.text() == "0.99"
    busy = docs.json_share({"results": [_cell(1.0, 0.3, 0.04), _cell(1.0, 0.9479, 0.0), _cell(1.0, 0.2, 0.1)]})
    assert busy.value == pytest.approx(0.34) and busy.contended and busy.text() == "**0.34 contended**"
    # an export without iorace's verdict is judged by contention.py's rule for such sessions, not a second one
    assert OLD_SHARE_BELOW == 0.85
    assert not docs.json_share({"results": [_cell(1.0, 0.86, 0.0)]}).contended
    edge = docs.json_share({"results": [_cell(1.0, 0.8479, 0.0)]})
    assert edge.contended and edge.figure() == "0.84"  # rounded down, so 0.848 never reads as 0.85
    # an export that carries the verdict is taken at its word, whatever its share
    said = {"contention": {"contended": True}}
    assert docs.json_share({"results": [_cell(1.0, 0.99, 0.0)], "iorace": said}).contended
    said = {"contention": {"contended": False}}
    assert not docs.json_share({"results": [_cell(1.0, 0.5, 0.0)], "iorace": said}).contended
    check_only = docs.json_share({"results": [], "iorace": {"options": {"check_only": True}}})
    assert check_only.value is None and check_only.text() == "not timed (check-only)"


def test_markdown_export_share_is_its_cpu_columns_median(docs):
    md = """| variant | wall | cpu | x fastest |
|---|--:|--:|--:|
| c/a | 1 ms | 31% | 1.00x |
| c/b | 2 ms | 35% | 2.00x |
| c/c | 3 ms | - | 3.00x |

| language | best variant |
|---|---|
| c | a |
"""
    share = docs.markdown_share(md)
    assert share.value == pytest.approx(0.33) and share.text() == "**0.33 (md) contended**"


def test_seed_table_pairs_rows_by_label_and_says_whether_the_sessions_agree(docs):
    def row(label, ratio, ci, base="A", why=None):
        return {
            "label": label,
            "cell": f"c/{label}@gcc:release",
            "now_ratio": ratio,
            "now_ratio_ci95": ci,
            "then_ratio": 2.0,
            "baseline": base,
            "why": why,
        }

    first = {"rows": [row("A", 1.0, [1.0, 1.0]), row("B", 1.5, [1.4, 1.6]), row("C", None, None, why="skipped: no dmd")]}
    second = {"rows": [row("C", None, None, why="skipped: no dmd"), row("B", 1.9, [1.7, 2.1]), row("A", 1.0, [1.0, 1.0])]}
    lines = docs.seed_table([("session 1", "H", first), ("session 2", "H", second)])
    assert lines[0] == "| seed's row | cell here | then, x A | now, session 1, H | now, session 2, H | agree | why no time |"
    assert lines[2] == "| A | c/A gcc release | 1 (baseline) | 1 | 1 |  |  |"
    assert lines[3] == "| B | c/B gcc release | 2.00x | 1.50x [1.40-1.60] | 1.90x [1.70-2.10] | NO |  |"
    assert lines[4] == "| C | c/C gcc release | 2.00x | - | - |  | skipped: no dmd |"
    # a later session with a row the first did not have (the seeds' as-written rows): every row shows, in its order
    third = {"rows": [row("A", 1.0, [1.0, 1.0]), row("A as written", 1.2, [1.1, 1.3]), *second["rows"][:2]]}
    lines = docs.seed_table([("session 1", "H", first), ("session 2", "H", second), ("session 3", "H", third)])
    assert lines[3] == "| A as written | c/A as written gcc release | 2.00x | - | - | 1.20x [1.10-1.30] |  |  |"  # agree: one session
    assert len(lines) == 2 + 4


def test_a_seed_table_groups_its_sessions_by_host_and_never_agrees_across_hosts(docs):
    def row(label, ratio, ci):
        return {
            "label": label,
            "cell": f"c/{label}@gcc:release",
            "now_ratio": ratio,
            "now_ratio_ci95": ci,
            "then_ratio": 2.0,
            "baseline": "A",
            "why": None,
        }

    def table(b, c):
        return {"rows": [row("A", 1.0, [1.0, 1.0]), row("B", b, [b * 0.95, b * 1.05]), row("C", c, [c * 0.95, c * 1.05])]}

    # sessions 1 and 3 on the Intel host, 2 and 4 on Zen 4: B is 40x on one and 8x on the other, C alike on both
    sessions = [("session 1", "Intel", table(40.0, 3.0)), ("session 2", "Zen 4", table(8.0, 3.05))]
    sessions += [("session 3", "Intel", table(39.0, 3.1)), ("session 4", "Zen 4", table(8.2, 2.95))]
    lines = docs.seed_table(sessions)
    assert lines[0] == (
        "| seed's row | cell here | then, x A | now, session 1, Intel | now, session 3, Intel | now, session 2, Zen 4 "
        "| now, session 4, Zen 4 | agree, Intel | agree, Zen 4 | why no time |"
    )
    assert lines[3].endswith("| yes | yes |  |")  # B agrees within each host, and is never asked across them
    assert docs.host_differences(sessions) == ["- B: 39.00x-40.00x on Intel; 8.00x-8.20x on Zen 4"]
    assert docs.host_differences(sessions[::2]) == []  # one host: nothing to differ
    statement = docs.host_statement(sessions)[1]
    assert statement.startswith("2 rows were measured on more than one host: 1 within their intervals on every host, 1 beyond them")
    assert docs.host_statement(sessions[::2]) == []
    apart = [("session 1", "Intel", table(40.0, 3.0)), ("session 2", "Zen 4", {"rows": [row("A", 1.0, [1.0, 1.0])]})]
    assert docs.host_statement(apart)[1] == "No row was measured on more than one host: each figure holds on its own host only."


def test_a_study_file_not_in_its_study_toml_is_an_error(docs, tmp_path):
    study = tmp_path / "2026-01-01-a-question"
    study.mkdir()
    (study / "session-1.json").write_text(json.dumps({"results": [_cell(1.0, 0.99, 0.0)], "iorace": {"session": 3}}))
    (study / "stray.txt").write_text("nobody cites me\n")
    (study / "study.toml").write_text(
        'question = "Q?"\ncommand = "iorace run x"\ncommit = "abc1234"\nmachine = "m"\n\n'
        '[[files]]\nname = "session-1.json"\nwhat = "the session"\n'
    )
    with pytest.raises(SystemExit, match=r"stray\.txt"):
        docs.load_studies(tmp_path)
    (study / "stray.txt").unlink()
    [loaded] = docs.load_studies(tmp_path)
    assert loaded.files[0].share.text() == "0.99" and loaded.files[0].session == "3, ?"
    # a session that `make seeds STUDY=...` adds needs no entry: it is picked up, its host from its facts
    facts = {"cpu_model": "AMD EPYC", "cpu_stepping": "cpu family 26, model 2, stepping 0", "cores": 2}
    (study / "session-2.json").write_text(json.dumps({"results": [], "iorace": {"session": 4, "machine": facts, "machine_name": "vm"}}))
    [loaded] = docs.load_studies(tmp_path)
    assert [f.name for f in loaded.files] == ["session-1.json", "session-2.json"]
    assert loaded.files[1].host == "AMD EPYC Zen 5 (26/2)" and loaded.files[0].host == ""


def test_a_gzipped_export_reads_as_its_plain_text(docs, tmp_path):
    """A study keeps a large export as NAME.json.gz (iorace/core/gzfile.py): its share, session and host are read
    as from NAME.json, a session-N.json.gz that `make seeds STUDY=...` writes is picked up, and a Markdown export
    beside it is not counted a second time."""
    import gzip

    study = tmp_path / "2026-01-01-a-question"
    study.mkdir()
    doc = {"results": [_cell(1.0, 0.99, 0.0)], "iorace": {"session": 3}}
    (study / "big.json.gz").write_bytes(gzip.compress(json.dumps(doc).encode()))
    (study / "session-2.json.gz").write_bytes(gzip.compress(json.dumps({**doc, "iorace": {"session": 4}}).encode()))
    (study / "session-2.md").write_text("| variant | cpu |\n|---|--:|\n| c/a | 31% |\n")
    (study / "study.toml").write_text(
        'question = "Q?"\ncommand = "iorace run x"\ncommit = "abc1234"\nmachine = "m"\n\n'
        '[[files]]\nname = "big.json.gz"\nwhat = "the session"\n'
    )
    [loaded] = docs.load_studies(tmp_path)
    assert [(f.name, f.session, f.share and f.share.text()) for f in loaded.files] == [
        ("big.json.gz", "3, ?", "0.99"),
        ("session-2.json.gz", "4, ?", "0.99"),
        ("session-2.md", "", None),
    ]


def test_the_readme_s_hand_written_part_is_a_product_page_of_at_most_250_lines():
    text = (REPO / "README.md").read_text()
    for begin, end in (("<!-- results:begin -->", "<!-- results:end -->"), ("<!-- formats:begin -->", "<!-- formats:end -->")):
        text = re.sub(re.escape(begin) + r".*?" + re.escape(end), "", text, flags=re.S)
    lines = len(text.splitlines())
    assert lines <= 250, f"README.md's hand-written part is {lines} lines: move detail to docs/USAGE.md or ARCHITECTURE"
