"""One source for every verdict: a figure (a ratio like 1.79x, a percentage, an interval like [1.74-1.84]) that a
page states must be found in the stored exports or study files it comes from.

- Generated blocks (README.md's results block, a seed suite's FINDINGS.md seed block) are generated from the
  exports by `make docs` (scripts/docs.py); test_docs_current.py checks they are current.
- README.md's hand-written part and docs/USAGE.md state no figure at all, but the few constants of ALLOWED, each
  checked here against the code (or manifest) that defines it, so that a changed constant fails this test too.
- docs/ARCHITECTURE.md, docs/FINDINGS.md and suites/*/FINDINGS.md may state measured figures in their prose,
  each found in its section's sources: the files the section links under docs/results/ (a linked folder stands
  for every file in it) or a suite's *.toml / *.tsv, and those named in a `<!-- figures: PATH ... -->` comment
  (paths from the repository's root). A figure is found when some number of a source rounds to it at the
  figure's precision: a text source (Markdown, TSV, TOML, a tool's output) must state the number as written
  (1.79 for 1.79x, 12.3 for 12.3%); a JSON export holds it when one of its ratios (ratio, interval, share,
  spread, change: not times or counts) rounds to it, a percentage read as a share (0.123) or a ratio's change
  (1.123 or 0.877). A figure no source holds fails the test: a typo, a figure that drifted from a re-measured
  study, or one stated without its study. Derived figures (a mean of two sessions, a quotient) belong in a
  study file a script writes from the exports (test_study_scripts.py). The code's constants (ALLOWED) need no
  source on the pages that describe the method (DESIGN); on a findings page a figure is a measurement.

`python tests/unit/test_figures_consistent.py [PAGE ...]` lists each page's figures that no source holds.

Code (fenced blocks and `inline code`), HTML comments and links' targets are not prose: a command's
`--precision 2` or a file name is not a figure. Counts, times and rates (56.8 MB, 95.4 ms) are not checked."""

from __future__ import annotations

import functools
import gzip
import itertools
import json
import re
import sys
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]

STRICT = ["README.md", "docs/USAGE.md"]
# pages that describe the method: they may state the code's constants (ALLOWED) wherever; a findings page's
# figure is a measurement, found in its sources even when it equals a constant (a "2x" gap is not FAR_BEHIND)
DESIGN = ["docs/ARCHITECTURE.md"]
SOURCED = [
    "docs/ARCHITECTURE.md",
    "docs/FINDINGS.md",
    *sorted(str(p.relative_to(REPO)) for p in (REPO / "suites").glob("*/FINDINGS.md")),
]

# generated blocks: their figures come from the exports (test_docs_current.py)
GENERATED = [
    ("<!-- results:begin -->", "<!-- results:end -->"),
    ("<!-- seed:begin -->", "<!-- seed:end -->"),
    ("<!-- formats:begin -->", "<!-- formats:end -->"),
]

FIGURE = re.compile(
    r"""(?<![\w./\-])(?:
        \[\d+(?:\.\d+)?-\d+(?:\.\d+)?\]                            # an interval: [1.74-1.84]
      | (?:\+-|±)?\d+(?:[.,]\d+)?(?:-\d+(?:[.,]\d+)?)?(?:x|%)      # a ratio or a percentage: 1.79x, 3-5%, +-5%
    )(?![\w])""",
    re.X,
)


def _stats_constant(name: str) -> float:
    text = (REPO / "iorace" / "analyse" / "stats.py").read_text()
    match = re.search(rf"^{name} = ([0-9.]+)", text, re.M)
    assert match, f"iorace/analyse/stats.py no longer defines {name}"
    return float(match.group(1))


def _compare_threshold_default() -> float:
    text = (REPO / "iorace" / "cli" / "compare.py").read_text()
    defaults = set(re.findall(r'"--threshold", default="([0-9.]+)%"', text))
    assert len(defaults) == 1, f"iorace/cli/compare.py: --threshold defaults {defaults}"
    return float(defaults.pop()) / 100


def _placement_sensitive() -> float:
    text = (REPO / "iorace" / "core" / "layout.py").read_text()
    match = re.search(r"^PLACEMENT_SENSITIVE = ([0-9.]+)", text, re.M)
    assert match, "iorace/core/layout.py no longer defines PLACEMENT_SENSITIVE"
    return float(match.group(1))


def _race_constant(name: str) -> float:
    text = (REPO / "iorace" / "run" / "race.py").read_text()
    match = re.search(rf"^{name} = ([0-9.]+)", text, re.M)
    assert match, f"iorace/run/race.py no longer defines {name}"
    return float(match.group(1))


def _precision_default() -> float:
    text = (REPO / "iorace" / "core" / "options.py").read_text()
    match = re.search(r"precision: float \| None = field\(\s*default=([0-9.]+),", text)
    assert match, "iorace/core/options.py: RunOptions.precision has no numeric default"
    return float(match.group(1))


# The only figures the hand-written README and USAGE may state: constants of the code, not results.
ALLOWED: dict[str, tuple[str, Callable[[], bool]]] = {
    "95%": ("the intervals' confidence level, stats.CONFIDENCE", lambda: _stats_constant("CONFIDENCE") == 0.95),
    "20%": ("Yuen's trimmed share at each end, stats.TRIM", lambda: _stats_constant("TRIM") == 0.2),
    "5%": (
        "compare's --threshold default and layout.PLACEMENT_SENSITIVE",
        lambda: _compare_threshold_default() == 0.05 and _placement_sensitive() == 0.05,
    ),
    "2%": ("run's --precision default, RunOptions.precision", lambda: _precision_default() == 0.02),
    "2x": ("the race's F-race elimination, race.FAR_BEHIND", lambda: _race_constant("FAR_BEHIND") == 2.0),
    "10x": ("far behind after the first round, race.FIRST_ROUND_FAR", lambda: _race_constant("FIRST_ROUND_FAR") == 10.0),
    "3x": ("the bound a far cell leaves with, race.FAR_BOUND", lambda: _race_constant("FAR_BOUND") == 3.0),
}


def prose(text: str) -> str:
    """The hand-written prose of a page: generated blocks, code, HTML comments and link targets removed."""
    for begin, end in GENERATED:
        text = re.sub(re.escape(begin) + r".*?" + re.escape(end), "", text, flags=re.S)
    text = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.S | re.M)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.sub(r"\]\([^)\s]*\)", "]", text)


def figures(text: str) -> list[str]:
    return [m.group(0) for m in FIGURE.finditer(prose(text))]


def hand_written(path: str) -> Counter[str]:
    return Counter(figures((REPO / path).read_text()))


def test_the_figure_pattern_finds_ratios_percentages_and_intervals_and_not_code() -> None:
    text = "It holds: 1.79x [1.74-1.84], within +-5% or 3-5%, 2x faster; `--precision 2%` and [a](x/1.5x.md).\n"
    text += "```\nmake bench PRECISION=2%\n```\n<!-- results:begin -->\n1.91x\n<!-- results:end -->\n"
    assert figures(text) == ["1.79x", "[1.74-1.84]", "+-5%", "3-5%", "2x"]


def test_readme_and_usage_state_no_figure_but_checked_constants() -> None:
    stated = {path: hand_written(path) for path in STRICT}
    bad = [f"{path}: {figure}" for path, found in stated.items() for figure in found if figure not in ALLOWED]
    why = "figures stated by hand (state the reason and link the study, or generate the figure in scripts/docs.py)"
    assert not bad, f"{why}: {', '.join(bad)}"
    for figure, (what, holds) in ALLOWED.items():
        if any(figure in found for found in stated.values()):
            assert holds(), f"the pages state {figure} for {what}, and the code no longer says so"


def test_every_seed_suite_s_findings_has_its_generated_seed_block() -> None:
    studies = [tomllib.loads(p.read_text()) for p in sorted((REPO / "docs" / "results").glob("*/study.toml"))]
    seeds = [str(s["seed"]) for s in studies if s.get("seed")]
    assert seeds
    for seed in seeds:
        text = (REPO / "suites" / seed / "FINDINGS.md").read_text()
        assert "<!-- seed:begin -->" in text and "<!-- seed:end -->" in text, f"suites/{seed}/FINDINGS.md has no seed block"


# --- figures against their sources -----------------------------------------------------------------------------

HEADING = re.compile(r"^#{1,6} .*$", re.M)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)\s]*)?\)")
ANNOTATION = re.compile(r"<!--\s*figures:\s*(.*?)-->", re.S)
NUMBER = re.compile(rb"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def sections(text: str) -> list[tuple[str, str]]:
    """A page's (heading, text) sections, generated blocks removed; a heading inside a code fence is not one."""
    for begin, end in GENERATED:
        text = re.sub(re.escape(begin) + r".*?" + re.escape(end), "", text, flags=re.S)
    fenced = [m.span() for m in FENCE.finditer(text)]
    starts = [m.start() for m in HEADING.finditer(text) if not any(a <= m.start() < b for a, b in fenced)]
    bounds = [0, *starts, len(text)]
    out = []
    for a, b in itertools.pairwise(bounds):
        chunk = text[a:b]
        heading = chunk.splitlines()[0] if chunk.startswith("#") else "(top)"
        out.append((heading, chunk))
    return out


def is_source(path: Path) -> bool:
    """Stored exports and study files, and a suite's data files; not a hand-written page."""
    try:
        rel = path.resolve().relative_to(REPO)
    except ValueError:
        return False
    parts = rel.parts
    if parts[:2] == ("docs", "results"):
        return True
    return parts[0] == "suites" and path.suffix in {".toml", ".tsv"}


def section_sources(page: Path, text: str) -> list[Path]:
    found: list[Path] = []
    targets = [(page.parent / t) for t in LINK.findall(text) if "://" not in t]
    for note in ANNOTATION.findall(text):
        targets += [REPO / t for t in note.split()]
    for target in targets:
        if not target.exists() or not is_source(target):
            continue
        if target.is_dir():
            found += sorted(p for p in target.rglob("*") if p.is_file() and is_source(p))
        else:
            found.append(target)
    return list(dict.fromkeys(p.resolve() for p in found))


RATIO_KEYS = ("ratio", "share", "spread", "as_linked", "change", "half_width", "cv")


@functools.cache
def source_text(path: Path) -> str:
    data = path.read_bytes()
    return (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8", "replace")


@functools.cache
def written_numbers(path: Path) -> frozenset[str]:
    """The numbers a source states as written (1.79 in '1.79x [1.74-1.84]', 12.3 in '+12.3%')."""
    return frozenset(re.findall(r"\d+(?:\.\d+)?", source_text(path)))


@functools.cache
def export_ratios(path: Path, kind: str) -> np.ndarray:
    """A JSON export's ratios, shares and spreads at full precision (not its times or counts), sorted, as a figure
    of this kind may state them: a ratio as is; a percentage as a share (0.99: 99%) or a change (1.12: 12%)."""
    found: list[float] = []

    def walk(node: object, key: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, (int, float)) and not isinstance(node, bool) and any(w in key for w in RATIO_KEYS):
            found.append(float(node))

    try:
        walk(json.loads(source_text(path)), "")
    except ValueError:
        return np.array([])
    values = np.array(found, dtype=float)
    if kind == "%":
        values = np.concatenate([100 * values, np.abs(100 * (values - 1))])
    return np.unique(values[np.isfinite(values)])


def figure_numbers(figure: str) -> tuple[str, list[str]]:
    """A figure's kind ('x' or '%'; an interval is read as a ratio) and its numbers as written."""
    kind = "%" if figure.endswith("%") else "x"
    body = figure.strip("[]").removeprefix("+-").removeprefix("±").rstrip("x%")
    numbers = [n.replace(",", ".") for n in body.split("-")]
    return kind, numbers


def held(number: str, kind: str, sources: list[Path]) -> bool:
    """Whether a source states the number as written, or a JSON export holds a ratio that rounds to it."""
    value = float(number)
    decimals = len(number.split(".")[1]) if "." in number else 0
    tolerance = 0.5 * 10**-decimals + 1e-9 * max(1.0, value)
    for source in sources:
        if number in written_numbers(source):
            return True
        if source.name.endswith((".json", ".json.gz")):
            values = export_ratios(source, kind)
            i = np.searchsorted(values, value - tolerance)
            if i < len(values) and values[i] <= value + tolerance:
                return True
    return False


def paragraphs(section: str) -> list[str]:
    """A section's blocks (blank-line separated; a fenced block whole): a table joined to the paragraph above it,
    which names its sources."""
    fenced = [m.span() for m in FENCE.finditer(section)]
    blocks: list[str] = []
    start = 0
    for m in re.finditer(r"\n[ \t]*\n", section):
        if any(a <= m.start() < b for a, b in fenced):
            continue
        blocks.append(section[start : m.start()])
        start = m.end()
    blocks.append(section[start:])
    joined: list[str] = []
    for block in blocks:
        if joined and block.lstrip().startswith("|") and not joined[-1].lstrip().startswith("|"):
            joined[-1] += "\n\n" + block
        else:
            joined.append(block)
    return [b for b in joined if b.strip()]


def unsourced(path: str) -> list[str]:
    """The figures of a page's prose that no source of their paragraph holds, as 'heading: figure'. A paragraph's
    sources are those it links or names, and those a figures comment standing alone in its section names."""
    page = REPO / path
    bad = []
    for heading, text in sections(page.read_text()):
        blocks = paragraphs(text)
        shared = [b for b in blocks if ANNOTATION.fullmatch(b.strip())]
        common = section_sources(page, "\n".join(shared))
        for block in blocks:
            sources = list(dict.fromkeys(section_sources(page, block) + common))
            for figure in figures(block):
                if path in DESIGN and figure in ALLOWED and ALLOWED[figure][1]():
                    continue
                kind, numbers = figure_numbers(figure)
                if not all(held(n, kind, sources) for n in numbers):
                    line = text[: text.find(block)].count("\n") if block in text else 0
                    where = f"{heading.strip()[:60]} (+{line} lines)"
                    bad.append(f"{path} {where}: {figure}" + ("" if sources else " (its paragraph names no source)"))
    return bad


def test_a_figure_is_found_only_in_a_source_that_holds_it() -> None:
    """The drift this test exists for: readexact's page once said 1.91x and 3.65x where the re-measured study
    says 1.79x and 3.29x (3.65x is still in the study, as the figure before a fix, so only 1.91x fails)."""
    page = REPO / "suites" / "readexact" / "FINDINGS.md"
    sources = section_sources(page, "see [study](../../docs/results/2026-11-26-seed-readexact/)")
    assert sources and all(is_source(p) for p in sources)
    assert held("1.79", "x", sources) and held("3.29", "x", sources)
    assert not held("1.91", "x", sources) and not held("1.99", "x", sources)
    assert not held("1.79", "x", [])
    assert section_sources(page, "[a hand-written page](../rdb/FINDINGS.md)") == []


def test_a_paragraph_s_figures_need_its_own_sources(tmp_path: Path) -> None:
    text = "# A\n\nNo link here: 1.79x.\n\nWith its study: 1.79x ([s](../../docs/results/2026-11-26-seed-readexact/)).\n"
    text += "\n| cell | ratio |\n|---|--:|\n| a | 3.29x |\n"
    page = REPO / "suites" / "readexact" / "PAGE.md"
    blocks = paragraphs(sections(text)[1][1])
    assert [figures(b) for b in blocks] == [[], ["1.79x"], ["1.79x", "3.29x"]]
    assert [bool(section_sources(page, b)) for b in blocks] == [False, False, True]


def test_every_figure_of_the_findings_and_architecture_is_found_in_its_sources() -> None:
    bad = [line for path in SOURCED for line in unsourced(path)]
    assert not bad, (
        f"{len(bad)} figures stated that no source of their section holds (link the study's export or files in"
        " the section, or name them in <!-- figures: PATH -->; fix a figure that drifted; or state the reason"
        " without the number):\n" + "\n".join(bad)
    )


if __name__ == "__main__":
    for page in sys.argv[1:] or SOURCED:
        lines = unsourced(page)
        print(f"{page}: {len(lines)} figures without a source")
        for line in lines:
            print("  " + line)
