"""Quotients of two cells' ratios that suites/readbytes/FINDINGS.md states, per session, from the JSON exports
beside this file (each cell's `ratio`: its median inner time over the session's fastest cell). Writes derived.txt.

usage: python derived.py   (reads session-*.json.gz beside it, writes derived.txt beside it)"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUOTIENTS = [
    ("locked fgetc over fgetc_unlocked, g++", "cpp/fgetc@g++:release", "cpp/fgetc-unlocked@g++:release"),
    ("Rust own-buffer, debug over release", "rust/own-buffer@cargo:debug", "rust/own-buffer@cargo:release"),
    ("Rust BufReader::bytes, debug over release", "rust/bufreader-bytes@cargo:debug", "rust/bufreader-bytes@cargo:release"),
]


def main() -> None:
    lines = ["# written by derived.py from session-*.json.gz; do not edit"]
    sessions = sorted(HERE.glob("session-*.json.gz"))
    ratios = []
    for path in sessions:
        export = json.loads(gzip.decompress(path.read_bytes()))
        ratios.append({f"{r['language']}/{r['variant']}@{r['toolchain']}:{r['profile']}": r["ratio"] for r in export["results"]})
    for what, top, bottom in QUOTIENTS:
        each = [r[top] / r[bottom] for r in ratios]
        per = ", ".join(f"{p.name.split('.')[0]} {q:.1f}x" for p, q in zip(sessions, each, strict=True))
        lines.append(f"{what}: {per}; {min(each):.1f}-{max(each):.1f}x, or {round(min(each))}-{round(max(each))}x")
    (HERE / "derived.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
