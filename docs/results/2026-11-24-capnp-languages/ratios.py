"""Rust over C++ instructions per message, per case, in the six in-memory configurations, from instructions.json.gz
(each cell's instructions, exact, quick): rust/capnp and rust/capnp-reuse-string over cpp/capnp (g++). Writes ratios.txt.

usage: python ratios.py   (reads instructions.json.gz beside it, writes ratios.txt beside it)"""

from __future__ import annotations

import gzip
import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
IN_MEMORY = ["object-reuse", "object", "bytes-reuse", "bytes", "bytes-packed-reuse", "bytes-packed"]


def r2(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), ROUND_HALF_UP))


def main() -> None:
    export = json.loads(gzip.decompress((HERE / "instructions.json.gz").read_bytes()))
    per_message: dict[tuple[str, str, str], Decimal] = {}
    for cell in export["iorace_unmeasured"]:
        if cell["toolchain"] in ("g++", "cargo") and cell["profile"] == "release":
            key = (f"{cell['language']}/{cell['variant']}", cell["parameters"]["case"], cell["parameters"]["config"])
            per_message[key] = Decimal(cell["instructions"]) / Decimal(cell["units_per_run"]["messages"])
    lines = [
        "# written by ratios.py from instructions.json.gz; do not edit",
        "# case: Rust / C++ instructions per message over the six in-memory configurations (min-max)",
    ]
    for case in ("carsales", "catrank", "eval"):
        for rust in ("rust/capnp", "rust/capnp-reuse-string"):
            ratios = {c: per_message[(rust, case, c)] / per_message[("cpp/capnp", case, c)] for c in IN_MEMORY}
            each = ", ".join(f"{c} {r2(v)}" for c, v in ratios.items())
            lines.append(f"{case} {rust}: {r2(min(ratios.values()))}-{r2(max(ratios.values()))} ({each})")
    (HERE / "ratios.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
