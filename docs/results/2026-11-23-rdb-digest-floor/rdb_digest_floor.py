"""The floor under a one-thread rdb parser that answers with the suite's digest: an experiment of 2026-11-23, frozen beside
its result (floor.txt); it was scripts/rdb_digest_floor.py.

The rdb suite's limit row (rust/limit-crc64) maps the dump and computes its CRC-64: the work no parser
can avoid. A parser that answers with the canonical summary also computes the CRC-64 of the digest's
serialization (every key, value, score and count as a length-prefixed field, suites/rdb/README.md),
which it cannot avoid either. This script writes that serialization out with the reference parser
(once, untimed; its CRC must equal the reference's digest), then times the limit binary over the dump
and over the serialization, interleaved, and prints both medians and what their sum is in units of
the limit: the floor of a one-thread parser that keeps the digest, before it decodes a single length.
Nothing is asserted: the times are the machine's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
RUST = REPO / "suites" / "rdb" / "rust"
sys.path.insert(0, str(REPO / "suites" / "rdb" / "python"))
import rdb_parse  # noqa: E402  (the reference parser, beside the suite)


class SerializationWriter(rdb_parse.Parser):
    """The reference parser, also writing every digest field to `out` as it goes."""

    def __init__(self, f, size: int, out) -> None:
        super().__init__(f, size)
        self.out = out
        self.written = 0

    def field(self, b: bytes) -> None:
        super().field(b)
        piece = len(b).to_bytes(4, "little") + b
        self.out.write(piece)
        self.written += len(piece)


def write_serialization(dump: Path, out_path: Path) -> tuple[int, str]:
    with open(dump, "rb") as f, open(out_path, "wb") as out:
        parser = SerializationWriter(f, os.fstat(f.fileno()).st_size, out)
        summary = parser.parse()
    crc = 0
    with open(out_path, "rb") as g:
        while block := g.read(8 << 20):
            crc = rdb_parse.crc64(crc, block)
    if f"{crc:016x}" != summary["digest"]:
        sys.exit(f"rdb-digest-floor: the serialization's CRC {crc:016x} is not the digest {summary['digest']}")
    return parser.written, summary["digest"]


def build_limit(target: Path) -> Path:
    cmd = [
        "cargo",
        "build",
        "--quiet",
        "--release",
        "--bin",
        "limit_crc64",
        "--manifest-path",
        str(RUST / "Cargo.toml"),
        "--target-dir",
        str(target),
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        sys.exit("rdb-digest-floor: cargo is not installed (make setup installs it)")
    if proc.returncode != 0:
        last = proc.stderr.strip().splitlines()[-1:] or ["no message"]
        sys.exit(f"rdb-digest-floor: cargo build of limit_crc64 failed: {last[0]}")
    return target / "release" / "limit_crc64"


def inner_ms(binary: Path, path: Path) -> float:
    proc = subprocess.run([str(binary), str(path)], capture_output=True, text=True, check=False)
    last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    if proc.returncode != 0 or not last.startswith("iorace-result "):
        sys.exit(f"rdb-digest-floor: {binary.name} {path}: {last or 'no result line'}")
    return json.loads(last.removeprefix("iorace-result "))["inner_ns"] / 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path, help="an RDB dump")
    ap.add_argument("runs", type=int, nargs="?", default=15, help="timed runs of each (default 15)")
    args = ap.parse_args()
    if args.runs < 1:
        sys.exit(f"rdb-digest-floor: RUNS must be 1 or more, not {args.runs}")
    if not args.file.is_file() or not os.access(args.file, os.R_OK):
        sys.exit(f"rdb-digest-floor: {args.file}: not a readable file")
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "iorace" / "rdb-digest-floor"
    with tempfile.TemporaryDirectory() as tmp:
        ser = Path(tmp) / "serialization"
        try:
            ser_bytes, digest = write_serialization(args.file, ser)
        except (rdb_parse.RdbError, OSError) as e:
            sys.exit(f"rdb-digest-floor: {args.file}: {e}")
        binary = build_limit(cache / "target")
        dump_bytes = args.file.stat().st_size
        times: dict[str, list[float]] = {"dump": [], "serialization": []}
        for i in range(args.runs):  # interleaved, alternating which goes first
            order = [("dump", args.file), ("serialization", ser)]
            for name, path in order if i % 2 == 0 else reversed(order):
                times[name].append(inner_ms(binary, path))
    t_dump, t_ser = statistics.median(times["dump"]), statistics.median(times["serialization"])
    print(f"dump           {dump_bytes:>12,} bytes  CRC-64 (the limit row) {t_dump:7.2f} ms median of {args.runs}")
    print(
        f"serialization  {ser_bytes:>12,} bytes  CRC-64                 {t_ser:7.2f} ms median of {args.runs}"
        f"  (digest {digest}, {ser_bytes / dump_bytes:.2f}x the dump)"
    )
    print(f"floor          both CRCs on one thread, nothing decoded: {t_dump + t_ser:.2f} ms = {(t_dump + t_ser) / t_dump:.2f}x the limit")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
