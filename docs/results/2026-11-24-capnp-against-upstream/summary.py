"""The figures suites/capnp/FINDINGS.md states about per-cell.txt, computed from it: writes summary.txt.

usage: python summary.py   (from any folder; reads per-cell.txt beside it, writes summary.txt beside it)
Ratios are rounded half up from the stored three decimals, as the page states them."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROW = re.compile(r"^(\S+/\S+)\s+(carsales|catrank|eval)\s+(\S+)\s+(.*)$")


def sections(text: str) -> dict[str, list[list[str]]]:
    """Each section's (A-E) table rows: [row, case, config, *the remaining columns]."""
    out: dict[str, list[list[str]]] = {}
    name = ""
    for line in text.splitlines():
        if line.startswith("## "):
            name = line[3]
            out[name] = []
        elif name and (m := ROW.match(line)):
            out[name].append([m.group(1), m.group(2), m.group(3), *m.group(4).split()])
    return out


def r2(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), ROUND_HALF_UP))


def span(values: list[Decimal]) -> str:
    return f"{r2(min(values))}-{r2(max(values))}"


def pct(value: Decimal) -> str:
    return str((100 * value).quantize(Decimal("0.1"), ROUND_HALF_UP))


def main() -> None:
    s = sections((HERE / "per-cell.txt").read_text())
    timing = {"A": [r for r in s["A"]], "B": s["B"], "C": s["C"]}
    # D: the instruction counts; ratio is the last column
    instr = {(r[0], r[1], r[2]): Decimal(r[-1]) for r in s["D"]}
    cpp_instr = [v for (row, _, _), v in instr.items() if row == "cpp/capnp"]
    rust_instr = [v for (row, _, _), v in instr.items() if row == "rust/capnp"]
    ratio = lambda r: Decimal(r[5])
    first = {(r[1], r[2]): ratio(r) for r in timing["B"] if r[-1] == "NO"}
    again = {(r[1], r[2]): ratio(r) for r in timing["C"]}
    moved = [abs(again[k] / first[k] - 1) for k in first]
    lines = [
        "# written by summary.py from per-cell.txt; do not edit",
        f"C++ cells (A) with the ratio within 5%: {sum(abs(ratio(r) - 1) <= Decimal('0.05') for r in timing['A'])} of {len(timing['A'])}",
        f"C++ instructions (D), largest difference from upstream's: {pct(max(abs(v - 1) for v in cpp_instr))}%",
        f"Rust instructions (D), ours / upstream: {span(rust_instr)}",
        f"Rust cells more than 5% off in B: {len(first)}; their first ratios: {span(list(first.values()))}",
        f"the same cells run again (C): {span(list(again.values()))}",
        f"their instructions (D), differences from upstream's: {pct(min(instr[('rust/capnp', *k)] - 1 for k in first))}-"
        f"{pct(max(instr[('rust/capnp', *k)] - 1 for k in first))}%",
        f"their change between the two runs: {pct(min(moved))}-{pct(max(moved))}%",
        f"Rust eval bytes and bytes-reuse instructions (D): {span([instr[('rust/capnp', 'eval', c)] for c in ('bytes', 'bytes-reuse')])}",
        f"Rust carsales object instructions (D): {r2(instr[('rust/capnp', 'carsales', 'object')])}",
    ]
    e_time = [r for r in s["E"] if len(r) > 7]
    e_instr = [r for r in s["E"] if len(r) <= 6]
    rs_time = [ratio(r) for r in e_time if r[0] == "rust/capnp-reuse-string"]
    rs_instr = [Decimal(r[-1]) for r in e_instr if r[0] == "rust/capnp-reuse-string"]
    el_time = {r[2]: ratio(r) for r in e_time if r[0] == "cpp/capnp-eval-local"}
    el_instr = [Decimal(r[-1]) for r in e_instr if r[0] == "cpp/capnp-eval-local"]
    lines += [
        f"rust/capnp-reuse-string catrank (E), time: {span(rs_time)}; instructions: {span(rs_instr)}",
        f"cpp/capnp-eval-local eval (E), time but bytes-packed: {span([v for c, v in el_time.items() if c != 'bytes-packed'])};"
        f" bytes-packed: {r2(el_time['bytes-packed'])}; instructions: {min(el_instr)}-{r2(max(el_instr))}",
    ]
    (HERE / "summary.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
