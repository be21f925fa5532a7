"""Every relative link in the checkout's tracked Markdown files resolves: the file or folder exists, and a
`#anchor` names a heading of the page it points to (GitHub's slugs). Code blocks and inline code are not
links. External links (a scheme, `mailto:`) are not followed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[(?:[^\]\n]|\\\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def _markdown_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "*.md"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [REPO / name for name in out.split()]


def _prose(text: str) -> list[str]:
    """The lines outside fenced code blocks, inline code spans blanked."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            lines.append("")
            continue
        lines.append("" if fenced else re.sub(r"`[^`]*`", "``", line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: links' text kept, lower case, punctuation but - and _ dropped, spaces to -."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in _prose(path.read_text()):
        if m := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line):
            base = slug(m.group(1).replace("``", ""))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    # the headings were slugged with inline code blanked: slug them again from the raw text
    for line in path.read_text().splitlines():
        if m := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line):
            found.add(slug(m.group(1)))
    return found


def broken_links(path: Path) -> list[str]:
    problems = []
    for number, line in enumerate(_prose(path.read_text()), 1):
        for m in LINK.finditer(line):
            target = m.group(1).strip("<>")
            if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue  # https:, mailto:, ...
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            where = f"{path.relative_to(REPO)}:{number}: {target}"
            if not dest.exists():
                problems.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                problems.append(f"{where}: no heading #{anchor} in {dest.relative_to(REPO)}")
    return problems


def test_slugs_follow_github():
    assert slug("Go's CRC-64 by carry-less multiply") == "gos-crc-64-by-carry-less-multiply"
    assert slug("The manifest (`suites/<suite>/suite.toml`)") == "the-manifest-suitessuitesuitetoml"
    assert slug("[2026-11-22-host-noise](2026-11-22-host-noise/)") == "2026-11-22-host-noise"


def test_every_relative_link_in_the_markdown_files_resolves():
    problems = [p for path in _markdown_files() for p in broken_links(path)]
    assert not problems, "broken links:\n" + "\n".join(problems)
