"""One or two `iorace seeds` sessions' then-and-now tables (their JSON exports' `iorace_seeds`) side by side, one
Markdown table per seed and dataset, for the README: a claim about a seed must survive a second session."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def _tables(path: Path) -> dict[tuple[str, str], dict]:
    try:
        doc = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        sys.exit(f"seed-table: {path}: {e}")
    return {(t["seed"], t["dataset"]): t for t in doc.get("iorace_seeds", [])}


def _now(row: dict | None) -> str:
    if row is None or row["now_ratio"] is None:
        return "-"
    ci = row["now_ratio_ci95"]
    return f"{row['now_ratio']:.2f}x" + (f" [{ci[0]:.2f}-{ci[1]:.2f}]" if ci else "")


def _agree(a: dict | None, b: dict | None) -> str:
    """'yes' when the two sessions' intervals overlap, 'NO' when they are disjoint, '' without both."""
    if not a or not b or not a["now_ratio_ci95"] or not b["now_ratio_ci95"]:
        return ""
    (lo1, hi1), (lo2, hi2) = a["now_ratio_ci95"], b["now_ratio_ci95"]
    return "yes" if lo1 <= hi2 and lo2 <= hi1 else "NO"


def main(argv: list[str]) -> None:
    if len(argv) not in (1, 2):
        sys.exit("usage: scripts/seed-table SESSION1.json [SESSION2.json]")
    first = _tables(Path(argv[0]))
    second = _tables(Path(argv[1])) if len(argv) == 2 else None
    if not first:
        sys.exit(f"seed-table: {argv[0]}: no seed table (not an `iorace seeds` session's JSON export)")
    for key, t in first.items():
        other = {r["label"]: r for r in (second or {}).get(key, {"rows": []})["rows"]}
        print(f"**{t['seed']}** ({t['dataset']}; then: {t['figures']})\n")
        bases = {r["baseline"] for r in t["rows"]}
        x = f"x {bases.pop()}" if len(bases) == 1 else "x its baseline"
        if second is None:
            print(f"| seed's row | cell here | then, {x} | now | why no time |")
            print("|---|---|--:|--:|---|")
        else:
            print(f"| seed's row | cell here | then, {x} | now, 1st session | now, 2nd session | agree | why no time |")
            print("|---|---|--:|--:|--:|---|---|")
        for r in t["rows"]:
            then = f"{r['then_ratio']:.2f}x" if r["then_ratio"] is not None else "-"
            o = other.get(r["label"])
            cell = (r["cell"] or "-").replace("@", " ").replace(":", " ")
            base = r["label"] == r["baseline"]
            then = "1 (baseline)" if base else then
            now = "-" if r["why"] else ("1" if base else _now(r))
            if second is None:
                print(f"| {r['label']} | {cell} | {then} | {now} | {r['why'] or ''} |")
                continue
            again = "-" if r["why"] else ("1" if base else _now(o))
            agree = "" if r["why"] or base else _agree(r, o)
            print(f"| {r['label']} | {cell} | {then} | {now} | {again} | {agree} | {r['why'] or ''} |")
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
