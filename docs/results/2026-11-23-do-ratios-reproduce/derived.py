"""Quotients of two readbytes cells' ratios that suites/readbytes/FINDINGS.md states, per session and mode, from the
JSON exports beside this file (each cell's `ratio`: its paired ratio to its table's fastest). Writes derived.txt.

usage: python derived.py   (reads readbytes-session-*.json.gz beside it, writes derived.txt beside it)"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUOTIENTS = [("locked fgetc over fgetc_unlocked, g++", "cpp/fgetc@g++:release", "cpp/fgetc-unlocked@g++:release")]


def main() -> None:
    lines = ["# written by derived.py from readbytes-session-*.json.gz; do not edit"]
    for what, top, bottom in QUOTIENTS:
        for path in sorted(HERE.glob("readbytes-session-*.json.gz")):
            export = json.loads(gzip.decompress(path.read_bytes()))
            for mode in ("count", "sum"):
                ratio = {
                    f"{r['language']}/{r['variant']}@{r['toolchain']}:{r['profile']}": r["ratio"]
                    for r in export["results"]
                    if r["parameters"].get("mode") == mode
                }
                lines.append(f"{what}, {path.name.split('.')[0]}, {mode}: {ratio[top] / ratio[bottom]:.2f}x")
    (HERE / "derived.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
