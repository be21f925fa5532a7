"""Each C++ row against its as-written twin in one `iorace seeds readbytes` session over code layouts: the paired
ratio ours / as written of their inner times, with the interval iorace itself draws over layouts (the rounds that
ran the same two programs averaged first: analyse/stats.py layout_clusters), the ratio of the two as-linked builds
alone (the layout a plain build times), and how each cell's layouts were made (balanced by which function, or
why drawn). usage: .venv/bin/python twins.py SESSION.json [SESSION.json ...]"""

from __future__ import annotations

import json
import statistics
import sys

from iorace.analyse.stats import layout_clusters, paired_ratio
from iorace.core.gzfile import read_text

HEADER = ["session", "toolchain", "mode", "row", "ours / as written", "95% CI", "rounds"]
HEADER += ["as linked only", "balanced ours", "balanced as written"]


def cells(doc: dict) -> dict[tuple[str, str, str], dict]:
    out = {}
    for r in doc["results"]:
        if r["language"] == "cpp" and r["status"] == "ok" and r["kind"] != "control":
            out[(r["variant"], r["toolchain"], r["parameters"].get("mode", ""))] = r
    return out


def costs(r: dict) -> dict[int, float]:
    return dict(zip(r["rounds"], r["inner_times"], strict=True))


def layouts(r: dict) -> dict[int, int | None]:
    return dict(zip(r["rounds"], r["layouts"], strict=True))


def as_linked(ours: dict, written: dict) -> str:
    """ours / as written over the rounds where both ran their as-linked build (layout 0), as a plain build times them."""
    if ours["layout_names"][:1] != ["as-linked"] or written["layout_names"][:1] != ["as-linked"]:
        return "-"
    a = [t for t, lay in zip(ours["inner_times"], ours["layouts"], strict=True) if lay == 0]
    b = [t for t, lay in zip(written["inner_times"], written["layouts"], strict=True) if lay == 0]
    return f"{statistics.median(a) / statistics.median(b):.3f}" if a and b else "-"


def balanced(r: dict) -> str:
    note = r.get("layout_note", "")
    if "balanced by its hottest function, " in note:
        return note.split("balanced by its hottest function, ")[1].split(":")[0]
    return "drawn: " + note.split("drawn, not balanced: ")[1] if "drawn, not balanced: " in note else "-"


def main(paths: list[str]) -> None:
    print("\t".join(HEADER))
    for path in paths:
        found = cells(json.loads(read_text(path)))  # plain or gzipped
        for (variant, tc, mode), written in sorted(found.items()):
            if not variant.endswith("-as-written"):
                continue
            ours = found.get((variant.removesuffix("-as-written"), tc, mode))
            if ours is None:
                continue
            r = paired_ratio(costs(ours), costs(written), clusters=layout_clusters(layouts(ours), layouts(written)))
            if r is None:
                continue
            ci = f"{r.low:.3f}-{r.high:.3f}" if r.low is not None and r.high is not None else "-"
            row = [path, tc, mode, variant.removesuffix("-as-written"), f"{r.value:.3f}", ci, str(len(ours["rounds"]))]
            print("\t".join([*row, as_linked(ours, written), balanced(ours), balanced(written)]))


if __name__ == "__main__":
    main(sys.argv[1:])
