"""Figures suites/rdb/FINDINGS.md derives from this study's stored files, written to derived.txt beside it.

Run from anywhere: `python3 docs/results/2026-11-24-rdb-java-in-place/derived.py` (standard library only); it
reads warm-run-*.txt (the probe's round lines and medians) and one-shot-session-*.json, and rewrites derived.txt.
Nothing here is typed in by hand: every number is read from those files.

- the CRC's share of the warm parse: Java's crc64 over the dump and over the digest's serialization (medians, CPU)
  over java/inplace's warm parse (median, CPU), runs 3-5;
- warm Java with Rust's CRC in place of its own: the warm parse less Java's two CRCs plus the limit row's two
  (task-clock medians), over rust/inplace and over c/inplace (task-clock medians), runs 3-5;
- the parse without any CRC (the probe's java-nocrc, CPU median) over rust/inplace less the limit row's two CRCs;
- Eisel-Lemire alone (java@76c8476) over the parser on main, paired per round (CPU): the geometric mean of the
  rounds' ratios and their range, as the probe pairs its own rows (WarmProbe.ratios), runs 3-5;
- the JVM's warm-up in a one-shot run: 1 - the warm parse (runs 1 and 2 at 48e4028, CPU median) over java/inplace's
  one-shot inner median (and its wall median) in the harness sessions at the same commit (sessions 3 and 4), paired
  in order (run 1 with session 3, run 2 with session 4).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
MEASURE = re.compile(r"(\S+) +(parse|crc\(dump\)|crc\(digest\)|inner|inner\(digest\)) +([\d.]+)(?: \[([\d.]+)\])?")


def medians(run: int) -> dict[tuple[str, str], tuple[float, float | None]]:
    """The run's medians: (row, measure) -> (wall or inner, CPU or task-clock)."""
    text = (HERE / f"warm-run-{run}.txt").read_text()
    block = text.split("medians over", 1)[1].split("paired per round", 1)[0]
    out = {}
    for line in block.splitlines()[1:-1]:
        m = MEASURE.search(line.strip())
        if m:
            out[(m.group(1), m.group(2))] = (float(m.group(3)), float(m.group(4)) if m.group(4) else None)
    return out


def rounds(run: int) -> list[dict[tuple[str, str], tuple[float, float | None]]]:
    """Each round line's measures: (row, measure) -> (wall or inner, CPU or task-clock)."""
    out = []
    for line in (HERE / f"warm-run-{run}.txt").read_text().splitlines():
        if line.startswith("round "):
            body = line.split(":", 1)[1]
            found = {}
            for m in MEASURE.finditer(body):
                found[(m.group(1), m.group(2))] = (float(m.group(3)), float(m.group(4)) if m.group(4) else None)
            out.append(found)
    return out


def cpu(values: dict, row: str, measure: str) -> float:
    second = values[(row, measure)][1]
    assert second is not None, (row, measure)
    return second


def one_shot(session: int) -> tuple[float, float]:
    """java/inplace's inner and wall medians (s) in a one-shot harness session."""
    data = json.loads((HERE / f"one-shot-session-{session}.json").read_text())
    (row,) = [r for r in data["results"] if r["label"].startswith("java/inplace@")]
    return row["inner_median"], row["median"]


def main() -> None:
    lines = ["# written by derived.py from warm-run-*.txt and one-shot-session-*.json (do not edit by hand)", ""]

    lines.append("# warm runs 3-5: medians (CPU of Java's parsing thread; the programs' task-clock), ms")
    for run in (3, 4, 5):
        m = medians(run)
        parse = cpu(m, "java", "parse")
        java_crc = cpu(m, "java", "crc(dump)") + cpu(m, "java", "crc(digest)")
        rust_crc = cpu(m, "limit", "inner") + cpu(m, "limit", "inner(digest)")
        rust = cpu(m, "rust/inplace", "inner")
        c = cpu(m, "c/inplace", "inner")
        nocrc = cpu(m, "java-nocrc", "parse")
        swapped = parse - java_crc + rust_crc
        lines.append(
            f"run {run}: java parse {parse:.1f}, java crc64 {java_crc:.1f} = {100 * java_crc / parse:.0f}% of the parse;"
            f" with Rust's CRC ({rust_crc:.1f}) in its place {swapped:.1f} = {swapped / rust:.2f}x rust/inplace"
            f" ({rust:.1f}), {swapped / c:.2f}x c/inplace ({c:.1f});"
            f" no CRC {nocrc:.1f} = {nocrc / (rust - rust_crc):.2f}x rust/inplace less its CRC ({rust - rust_crc:.1f})"
        )
    lines.append("")

    lines.append("# Eisel-Lemire alone (java@76c8476) over java@main, paired per round (CPU): geometric mean [range]")
    for run in (3, 4, 5):
        ratios = [cpu(r, "java@76c8476", "parse") / cpu(r, "java@main", "parse") for r in rounds(run)]
        mean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        lines.append(f"run {run}: {mean:.2f}x [{min(ratios):.2f}-{max(ratios):.2f}] over {len(ratios)} rounds")
    lines.append("")

    lines.append("# the JVM's warm-up in a one-shot run: 1 - warm parse (CPU median) / one-shot median")
    for run, session in ((1, 3), (2, 4)):
        warm = cpu(medians(run), "java", "parse") / 1000
        inner, wall = one_shot(session)
        lines.append(
            f"run {run} / one-shot session {session}: warm {warm:.3f} s; inner {inner:.3f} s:"
            f" {100 * (1 - warm / inner):.0f}% warm-up; wall {wall:.3f} s: {100 * (1 - warm / wall):.0f}% warm-up"
        )
    (HERE / "derived.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
