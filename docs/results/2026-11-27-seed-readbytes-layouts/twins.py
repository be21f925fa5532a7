"""Each C++ row against its as-written twin in one `iorace seeds readbytes` session over code layouts: the paired
ratio ours / as written (the geometric mean of the per-round ratios of their inner times, a 95% t-interval over
the rounds they share), their instructions a byte where the session counted them, and each one's spread over its
layouts (analyse/placement.py). usage: twins.py SESSION.json [SESSION.json ...]"""

from __future__ import annotations

import gzip
import json
import math
import statistics
import sys

from scipy import stats

HEADER = ["session", "toolchain", "mode", "row", "ours / as written", "95% CI", "rounds"]
HEADER += ["instr/byte ours", "instr/byte as written", "spread ours", "spread as written"]


def cells(doc: dict) -> dict[tuple[str, str, str], dict]:
    out = {}
    for r in doc["results"]:
        if r["language"] == "cpp" and r["status"] == "ok" and r["kind"] != "control":
            out[(r["variant"], r["toolchain"], r["parameters"].get("mode", ""))] = r
    return out


def per_round(r: dict) -> dict[int, float]:
    return dict(zip(r["rounds"], r["inner_times"], strict=False))


def paired(a: dict, b: dict) -> tuple[float, float, float, int]:
    ra, rb = per_round(a), per_round(b)
    logs = [math.log(ra[k] / rb[k]) for k in ra if k in rb and ra[k] > 0 and rb[k] > 0]
    m = statistics.fmean(logs)
    h = stats.t.ppf(0.975, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else math.inf
    return math.exp(m), math.exp(m - h), math.exp(m + h), len(logs)


def per_byte(r: dict) -> str:
    n = r.get("instructions")
    units = r.get("units_per_run", {}).get("bytes")
    return f"{n / units:.2f}" if n and units else "-"


def spread(r: dict) -> str:
    p = r.get("placement")
    if not p:
        return "-"
    return f"{p['spread']:.0%}{' sensitive' if p['sensitive'] else ''}"


def main(paths: list[str]) -> None:
    print("\t".join(HEADER))
    for path in paths:
        with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:  # X.json.gz too
            found = cells(json.load(f))
        for (variant, tc, mode), written in sorted(found.items()):
            if not variant.endswith("-as-written"):
                continue
            ours = found.get((variant.removesuffix("-as-written"), tc, mode))
            if ours is None:
                continue
            v, lo, hi, n = paired(ours, written)
            print(
                f"{path}\t{tc}\t{mode}\t{variant.removesuffix('-as-written')}\t{v:.3f}\t{lo:.3f}-{hi:.3f}\t{n}\t{per_byte(ours)}\t{per_byte(written)}\t{spread(ours)}\t{spread(written)}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
