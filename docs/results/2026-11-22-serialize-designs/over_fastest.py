"""The designs' figures that suites/serialize/FINDINGS.md states and the exports hold only as times: each of
Cerealed's designs over the fastest design of its compiler and profile (the exports' own ratios are over the
table's fastest cell, Go's, or over ser-classes), the class design over Appender, gdc over ldc2 for each
design, and the seed's own ratios from its seconds (suites/serialize/suite.toml's [[seed_tables]]).

Ratios are iorace.analyse.stats.median_ratio over the exported inner_times (the median over the median, a 95%
percentile-bootstrap interval, seed 0), at the precision the page states them.

usage: .venv/bin/python docs/results/2026-11-22-serialize-designs/over_fastest.py  (writes over-fastest.txt)
"""

from __future__ import annotations

import gzip
import json
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(REPO))
from iorace.analyse import stats  # noqa: E402

# each table's fastest design and the designs over it
DESIGNS = [("ser-scopebuffer", ["ser-classes", "ser-array", "ser-appender"]), ("deser-structs", ["deser-classes"])]


PROFILES = ("seed-flags", "release")


def ratio(rows: dict, a: tuple[str, str, str], b: tuple[str, str, str], digits: int) -> str:
    """median_ratio of two cells' inner times (variant, toolchain, profile), as 'value [low-high]'."""
    r = stats.median_ratio(rows[a]["inner_times"], rows[b]["inner_times"])
    return f"{r.value:.{digits}f} [{r.low:.{digits}f}-{r.high:.{digits}f}]"


def over_fastest(rows: dict) -> list[str]:
    out = ["Each design over the fastest design of its compiler and profile (x fastest [95% interval]):", ""]
    for profile in PROFILES:
        for fastest, designs in DESIGNS:
            for toolchain in ("gdc", "ldc2"):
                for design in designs:
                    line = ratio(rows, (design, toolchain, profile), (fastest, toolchain, profile), 1)
                    out.append(f"  {profile:10} {toolchain:4} {design:14} over {fastest:15} {line}")
    out += ["", "The class design over Appender (x [95% interval]):", ""]
    for profile in PROFILES:
        for toolchain in ("gdc", "ldc2"):
            line = ratio(rows, ("ser-classes", toolchain, profile), ("ser-appender", toolchain, profile), 1)
            out.append(f"  {profile:10} {toolchain:4} ser-classes    over ser-appender    {line}")
    return out


def gdc_over_ldc2(rows: dict) -> list[str]:
    out = ["gdc over ldc2, each design (gdc's median inner time over ldc2's, x [95% interval]):", ""]
    for profile in PROFILES:
        for fastest, designs in DESIGNS:
            for design in [*designs, fastest]:
                line = ratio(rows, (design, "gdc", profile), (design, "ldc2", profile), 2)
                out.append(f"  {profile:10} {design:15} {line}")
    return out


def seed_ratios() -> list[str]:
    suite = tomllib.loads((REPO / "suites" / "serialize" / "suite.toml").read_text())
    out = ["The seed's ratios, from its seconds (suite.toml's [[seed_tables]]), x (to one decimal):", ""]
    for table in suite["seed_tables"]:
        for toolchain, seconds in table["seed_figures_by_toolchain"].items():
            pairs = [(cell, table["baseline"]) for cell in seconds if cell != table["baseline"]]
            if "d/ser-appender" in seconds:
                pairs.append(("d/ser-classes", "d/ser-appender"))
            for cell, base in pairs:
                r = seconds[cell] / seconds[base]
                out.append(f"  {toolchain:4} {cell:16} over {base:17} {r:.2f} ({r:.1f})")
    return out


def main() -> None:
    export = json.loads(gzip.decompress((HERE / "designs.json.gz").read_bytes()))
    rows = {(r["variant"], r["toolchain"], r["profile"]): r for r in export["results"] if r["language"] == "d"}
    head = f"# written by {Path(__file__).name} from designs.json.gz (session {export['iorace']['session']})"
    out = [head + " and suites/serialize/suite.toml; do not edit", ""]
    out += [*over_fastest(rows), "", *gdc_over_ldc2(rows), "", *seed_ratios()]
    (HERE / "over-fastest.txt").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
