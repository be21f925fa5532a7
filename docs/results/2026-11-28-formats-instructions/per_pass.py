"""Instructions (and cachegrind's estimated cycles) per byte of one pass of each compiled formats cell, beside the
cell's time ratio in the formats grid: are the grid's gaps in the instructions, or in how fast they run?

The counts come from two check-only sessions under cachegrind at passes=1 and passes=6 (passes-1.json.gz,
passes-6.json.gz): their difference over the 5 extra passes takes out what every run does once (start-up, the
canonical JSON's load, the digest). The time ratios come from the grid's session (session 1 of
2026-11-28-make-bench-four-layouts): each cell's ratio to its table's fastest cell, and the same ratio of
instructions and of estimated cycles where that fastest cell was counted (C++, Rust, Go). Writes per-pass.tsv.

    python3 docs/results/2026-11-28-formats-instructions/per_pass.py
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
GRID = HERE.parent / "2026-11-28-make-bench-four-layouts" / "session-1.json.gz"


def counted(path: Path) -> dict[tuple[str, str, str], dict]:
    doc = json.loads(gzip.decompress(path.read_bytes()))
    return {
        (r["parameters"]["op"], r["variant"], r["language"]): r
        for r in doc["results"] + doc.get("iorace_unmeasured", [])
        if r["status"] == "ok" and r.get("instructions")
    }


def grid() -> dict[tuple[str, str, str], float]:
    doc = json.loads(gzip.decompress(GRID.read_bytes()))
    return {
        (r["parameters"]["op"], r["variant"], r["language"]): r["ratio"]
        for r in doc["results"]
        if r["suite"] == "formats" and r["status"] == "ok" and r.get("ratio") and r["kind"] == "variant"
    }


def main() -> None:
    one, six, times = counted(HERE / "passes-1.json.gz"), counted(HERE / "passes-6.json.gz"), grid()
    per: dict[tuple[str, str, str], tuple[float, float]] = {}
    for key in sorted(one.keys() & six.keys()):
        a, b = one[key], six[key]
        passes = int(b["parameters"]["passes"]) - int(a["parameters"]["passes"])
        size = a["units_per_run"]["bytes"] / int(a["parameters"]["passes"])  # the canonical JSON's bytes, one pass
        per[key] = (
            (b["instructions"] - a["instructions"]) / passes / size,
            (b["estimated_cycles"] - a["estimated_cycles"]) / passes / size,
        )
    fastest = {op: min((k for k in times if k[0] == op), key=lambda k: times[k]) for op, _, _ in times}
    head = ["op", "format", "language", "instructions/byte", "estimated cycles/byte", "time ratio (grid)", "instructions ratio"]
    lines = ["\t".join([*head, "estimated cycles ratio"])]
    for key, (ipb, cpb) in per.items():
        best = fastest.get(key[0])
        t = f"{times[key]:.2f}" if key in times else ""
        i = f"{ipb / per[best][0]:.2f}" if best in per else ""
        c = f"{cpb / per[best][1]:.2f}" if best in per else ""
        lines.append(f"{key[0]}\t{key[1]}\t{key[2]}\t{ipb:.1f}\t{cpb:.1f}\t{t}\t{i}\t{c}")
    (HERE / "per-pass.tsv").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
