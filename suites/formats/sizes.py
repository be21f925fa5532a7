"""Print the formats suite's size table: each cell's encoded bytes (its program's --emit of the canonical data),
their zlib (level 6) and zstd (level 3) sizes, all computed here from the real bytes with one compressor each,
and which cells wrote the same bytes (one letter per distinct encoding of a format).

    .venv/bin/python suites/formats/sizes.py [--size tiny|quick|full]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import zlib
from pathlib import Path

import zstandard

sys.path.insert(0, str(Path(__file__).resolve().parent))
import interop


def table(size: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        checked = interop.check_only(size, work)
        canonical_bytes = checked.canonical.stat().st_size
        rows = [f"formats · {size}: the canonical JSON is {canonical_bytes:,} bytes (digest {checked.expected[:12]}…)", ""]
        rows += ["| format | language | library | bytes | zlib-6 | zstd-3 | same bytes |", "|---|---|---|---:|---:|---:|:---:|"]
        seen: dict[tuple[str, str], str] = {}
        for p in sorted(checked.programs, key=lambda p: (p.format, p.key)):  # key: cpp, then cpp/json-fast
            raw = interop.emit(p, checked.canonical, work / f"{p.key.replace('/', '-')}.{p.format}")
            key = (p.format, hashlib.sha256(raw).hexdigest())
            same = seen.setdefault(key, "ABCDEFGHIJ"[sum(k[0] == p.format for k in seen)])
            z6 = len(zlib.compress(raw, 6))
            zs = len(zstandard.ZstdCompressor(level=3).compress(raw))
            library = p.description.split(":")[0]
            rows.append(f"| {p.format} | {p.key} | {library} | {len(raw):,} | {z6:,} | {zs:,} | {same} |")
        return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="tiny", choices=["tiny", "quick", "full"])
    print(table(parser.parse_args().size))


if __name__ == "__main__":
    main()
