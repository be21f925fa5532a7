"""The schemaless size check: nlohmann/json publishes the MessagePack and CBOR sizes of three real JSON files
(citm_catalog.json, canada.json, twitter.json: tests/src/unit-binary_formats.cpp, as percentages on its "Binary
Formats" page). This encodes each file, read as plain JSON values with no schema, with the formats suite's
libraries (C++ nlohmann/json itself, Python msgpack and cbor2, Rust rmp-serde and ciborium) and writes
sizes.tsv beside it: file, format, encoder, our bytes, nlohmann's published bytes, the difference and why.

The real files are not in the repository: they are read from ../shared/corpora/json (beside the worktree), or
--corpus DIR. Without them nothing is written and the exit is 0 (tests never depend on them). The C++ and Rust
programs are built here, into $IORACE_CACHE/formats-sizes (default <repo>/.cache/formats-sizes).

usage: .venv/bin/python docs/results/2026-11-28-schemaless-sizes/sizes_check.py [--corpus DIR]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import cbor2
import msgpack

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
SUITE = REPO / "suites" / "formats"
WORK = Path(os.environ.get("IORACE_CACHE", REPO / ".cache")) / "formats-sizes"
SOURCE = "https://github.com/nlohmann/json/blob/develop/tests/src/unit-binary_formats.cpp"
# nlohmann's figures (SOURCE; its docs page json.nlohmann.me/features/binary_formats/ states them as percentages
# of the compact JSON): json = j.dump().size(), the compact JSON the others are compared with
PUBLISHED = {
    "citm_catalog.json": {"json": 500_299, "msgpack": 342_473, "cbor": 342_373},
    "canada.json": {"json": 2_090_303, "msgpack": 1_056_145, "cbor": 1_055_552},
    "twitter.json": {"json": 466_906, "msgpack": 401_510, "cbor": 402_814},
}


VERSIONS = {name: importlib.metadata.version(name) for name in ("msgpack", "cbor2")}
# the Rust crates' versions, as rust/Cargo.toml pins them (=X.Y.Z)
RUST = {
    line.split("=")[0].strip(): line.split('"=')[1].split('"')[0]
    for line in (SUITE / "rust" / "Cargo.toml").read_text().splitlines()
    if line.startswith(("rmp-serde", "ciborium"))
}


def _exact(fmt: str, x: float) -> bool:
    """Whether a float of this struct format (f: 32 bits, e: 16) holds x exactly."""
    try:
        return struct.unpack("<" + fmt, struct.pack("<" + fmt, x))[0] == x
    except OverflowError:
        return False


def _floats(value: object) -> list[float]:
    out: list[float] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float):
            out.append(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def build() -> tuple[Path, Path]:
    """The C++ tool (g++, as the suite's C++ cells) and the Rust one (cargo, the suite's crate and lock)."""
    WORK.mkdir(parents=True, exist_ok=True)
    cpp = WORK / "nlohmann_sizes"
    src = SUITE / "schemaless" / "nlohmann_sizes.cpp"
    if not cpp.exists() or cpp.stat().st_mtime < src.stat().st_mtime:
        subprocess.run(["g++", "-std=c++17", "-O2", "-o", str(cpp), str(src)], check=True)
    manifest = SUITE / "rust" / "Cargo.toml"
    target = WORK / "target"
    subprocess.run(
        [
            "cargo",
            "build",
            "--quiet",
            "--release",
            "-j",
            "2",
            "--manifest-path",
            str(manifest),
            "--bin",
            "schemaless_sizes",
            "--target-dir",
            str(target),
        ],
        check=True,
    )
    return cpp, target / "release" / "schemaless_sizes"


def sizes_of(program: Path, path: Path) -> dict[str, int]:
    out = subprocess.run([str(program), str(path)], capture_output=True, text=True, check=True).stdout
    return {fmt: int(n) for fmt, n in (line.split("\t") for line in out.splitlines())}


def why(encoder: str, fmt: str, diff: int, floats: list[float]) -> str:
    """The difference explained by how each encoder writes a float, checked against the count it predicts."""
    if diff == 0:
        return "same size"
    f32 = sum(_exact("f", x) for x in floats)
    f16 = sum(_exact("e", x) for x in floats)
    if "ciborium" in encoder and fmt == "cbor":
        predicted = -2 * f16
        text = (
            f"{encoder} writes a float in the fewest bytes that hold it exactly, float16 (3 bytes) for {f16} of the "
            f"{len(floats)} floats, where nlohmann's smallest is float32 (5 bytes): -2 x {f16}"
        )
    else:
        predicted = 4 * f32
        text = (
            f"{encoder} writes every float as a 9-byte float64; nlohmann writes the {f32} of the {len(floats)} floats "
            f"that a float32 holds exactly in 5 bytes: +4 x {f32}"
        )
    return text if predicted == diff else f"not explained ({text} = {predicted:+d}, not {diff:+d})"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpora" / "json")
    a = ap.parse_args(argv)
    missing = [name for name in PUBLISHED if not (a.corpus / name).is_file()]
    if missing:
        print(f"sizes_check: {a.corpus} has no {', '.join(missing)}: nothing written", file=sys.stderr)
        return 0
    cpp, rust = build()
    rows = [("file", "format", "encoder", "our_bytes", "nlohmann_bytes", "difference", "why")]
    for name, published in PUBLISHED.items():
        path = a.corpus / name
        value = json.loads(path.read_bytes())
        floats = _floats(value)
        ours = {"C++ nlohmann/json 3.11.2": sizes_of(cpp, path), "rust rmp-serde/ciborium": sizes_of(rust, path)}
        python = {"msgpack": len(msgpack.packb(value, use_bin_type=True)), "cbor": len(cbor2.dumps(value))}
        nl, rs = ours["C++ nlohmann/json 3.11.2"], ours["rust rmp-serde/ciborium"]
        measured = [
            ("json", "C++ nlohmann/json 3.11.2 dump()", nl["json"]),
            ("msgpack", "C++ nlohmann/json 3.11.2 to_msgpack", nl["msgpack"]),
            ("msgpack", f"python msgpack {VERSIONS['msgpack']}", python["msgpack"]),
            ("msgpack", f"rust rmp-serde {RUST['rmp-serde']}", rs["msgpack"]),
            ("cbor", "C++ nlohmann/json 3.11.2 to_cbor", nl["cbor"]),
            ("cbor", f"python cbor2 {VERSIONS['cbor2']}", python["cbor"]),
            ("cbor", f"rust ciborium {RUST['ciborium']}", rs["cbor"]),
        ]
        for fmt, encoder, n in measured:
            diff = n - published[fmt]
            rows.append((name, fmt, encoder, str(n), str(published[fmt]), f"{diff:+d}", why(encoder, fmt, diff, floats)))
    (HERE / "sizes.tsv").write_text("".join("\t".join(r) + "\n" for r in rows))
    print((HERE / "sizes.tsv").read_text(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
