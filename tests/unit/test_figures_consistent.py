"""One source for every verdict: a figure (a ratio like 1.79x, a percentage, an interval like [1.74-1.84]) is
stated only where `make docs` generates it from the stored exports and study files, inside a generated block
(README.md's results block, a seed suite's FINDINGS.md seed block), which test_docs_current.py checks is
current. Hand-written prose states the reason, not the number.

- README.md's hand-written part and docs/USAGE.md: no figure at all, but the few constants of ALLOWED, each
  checked here against the code (or manifest) that defines it, so that a changed constant fails this test too.
- docs/ARCHITECTURE.md and suites/*/FINDINGS.md still state measured figures by hand (their studies predate
  the generated blocks). They may not gain one: each page's hand-written figures must be among those recorded
  in figures_baseline.json (a changed figure is a new one, and fails). To state a new figure, generate it
  (scripts/docs.py); when a page loses figures, `python tests/unit/test_figures_consistent.py --baseline`
  records the smaller set.

Code (fenced blocks and `inline code`), HTML comments and links' targets are not prose: a command's
`--precision 2` or a file name is not a figure."""

from __future__ import annotations

import json
import re
import sys
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BASELINE = Path(__file__).with_name("figures_baseline.json")

STRICT = ["README.md", "docs/USAGE.md"]
RATCHETED = ["docs/ARCHITECTURE.md", *sorted(str(p.relative_to(REPO)) for p in (REPO / "suites").glob("*/FINDINGS.md"))]

# generated blocks: their figures come from the exports (test_docs_current.py)
GENERATED = [
    ("<!-- results:begin -->", "<!-- results:end -->"),
    ("<!-- seed:begin -->", "<!-- seed:end -->"),
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


# The only figures the hand-written README and USAGE may state: constants of the code, not results.
ALLOWED: dict[str, tuple[str, Callable[[], bool]]] = {
    "95%": ("the intervals' confidence level, stats.CONFIDENCE", lambda: _stats_constant("CONFIDENCE") == 0.95),
    "20%": ("Yuen's trimmed share at each end, stats.TRIM", lambda: _stats_constant("TRIM") == 0.2),
    "5%": (
        "compare's --threshold default and layout.PLACEMENT_SENSITIVE",
        lambda: _compare_threshold_default() == 0.05 and _placement_sensitive() == 0.05,
    ),
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


def test_architecture_and_findings_gain_no_hand_written_figure() -> None:
    baseline = json.loads(BASELINE.read_text())
    new = []
    for path in RATCHETED:
        allowed = Counter(baseline.get(path, {}))
        for figure, count in hand_written(path).items():
            if count > allowed[figure]:
                new.append(f"{path}: {figure} ({count}x by hand, recorded {allowed[figure]})")
    assert not new, (
        "figures stated by hand that no generated source holds (generate them with scripts/docs.py, or state the"
        " reason without the number): " + "; ".join(new)
    )


def test_every_seed_suite_s_findings_has_its_generated_seed_block() -> None:
    studies = [tomllib.loads(p.read_text()) for p in sorted((REPO / "docs" / "results").glob("*/study.toml"))]
    seeds = [str(s["seed"]) for s in studies if s.get("seed")]
    assert seeds
    for seed in seeds:
        text = (REPO / "suites" / seed / "FINDINGS.md").read_text()
        assert "<!-- seed:begin -->" in text and "<!-- seed:end -->" in text, f"suites/{seed}/FINDINGS.md has no seed block"


def write_baseline() -> None:
    data = {path: dict(sorted(hand_written(path).items())) for path in RATCHETED}
    BASELINE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["--baseline"]:
        sys.exit("usage: python tests/unit/test_figures_consistent.py --baseline")
    write_baseline()
