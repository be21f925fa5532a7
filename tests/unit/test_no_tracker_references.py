"""Hand-written files name no entry of an external issue tracker ("issue N", "issues N", "issue #N"): a reader
of this repository has no tracker to look it up in, so a file says what the rule or change is instead.

Checked: every tracked file (`git ls-files`) but the stored records
of docs/results/, which are history and stay as they were written: the JSON and TSV exports (plain or gzipped),
the session exports (session-N.md / .txt), iorace's Markdown exports (first line `# iorace session`), and the
tools' raw outputs in a study's .txt files, of which only the hand-written comment lines (`#`) are checked.
A study's study.toml, scripts, run.sh and notes are hand-written, and so is everything outside docs/results/.
Links to other projects' trackers (criterion #334, capnproto#2730) are not "issue N" and pass."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

REFERENCE = re.compile(r"\bissues?\s+#?\d+", re.I)
RECORD = re.compile(r"^docs/results/.*(\.json|\.json\.gz|\.tsv|\.tsv\.gz|\.gz|/session-\d+\.(md|txt))$")


def checked_text(path: str, text: str) -> str:
    """The hand-written part of a tracked file's text ('' for a stored record)."""
    if RECORD.match(path):
        return ""
    if path.startswith("docs/results/"):
        if path.endswith(".md") and text.startswith("# iorace"):
            return ""
        if path.endswith(".txt"):
            return "\n".join(line for line in text.splitlines() if line.lstrip().startswith("#"))
    return text


def references(path: str, text: str) -> list[str]:
    found = []
    for line in checked_text(path, text).splitlines():
        found += [f"{path}: {m.group(0)!r} in {line.strip()[:100]!r}" for m in REFERENCE.finditer(line)]
    return found


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    return [p for p in out.decode().split("\0") if p]


def test_no_hand_written_file_names_an_issue_of_a_tracker() -> None:
    bad = []
    for path in tracked():
        file = REPO / path
        if not file.is_file():
            continue
        try:
            text = file.read_text()
        except UnicodeDecodeError:
            continue
        bad += references(path, text)
    assert not bad, "name the rule or change, not a tracker's issue:\n" + "\n".join(bad)


def test_a_planted_reference_is_found_and_records_are_left_alone() -> None:
    planted = "See iss" + "ue 23 for why."
    assert references("docs/ARCHITECTURE.md", planted)
    assert references("suites/capnp/FINDINGS.md", "as iss" + "ues 12 and 13 said")
    assert references("iorace/run/race.py", "# iss" + "ue #30: the cap")
    assert references("docs/results/2026-11-26-session-level/study.toml", f'question = "{planted}"')
    assert references("docs/results/2026-11-26-session-level/run.sh", f"# {planted}")
    assert references("docs/results/2026-11-24-capnp-against-upstream/per-cell.txt", f"# {planted}\nrow 1.0")
    # stored records: history, left as written
    assert not references("docs/results/2026-11-24-capnp-against-upstream/per-cell.txt", f"row {planted}")
    assert not references("docs/results/2026-11-26-seed-lines/session-1.md", planted)
    assert not references("docs/results/2026-11-24-serialize-java/quick.json", planted)
    assert not references("docs/results/2026-11-24-capnp-languages/instructions.md", f"# iorace session 1\n{planted}")
    assert references("suites/formats/FINDINGS.md", planted)
    # other projects' trackers and numbered programs are not it
    assert not references("docs/FINDINGS.md", "criterion #334, capnproto#2730, the seed's D #6, issued 3 times")
