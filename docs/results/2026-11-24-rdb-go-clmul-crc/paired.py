"""go/inplace over rust/inplace, paired per round, in each of this study's two sessions: written to paired.txt.

The sessions' own ratios are each cell over the table's fastest (c/inplace, gcc); suites/rdb/FINDINGS.md also
states go/inplace against rust/inplace. This pairs them as the harness pairs a cell with the fastest
(iorace/analyse/stats.py's paired_ratio below 20 rounds): over the rounds both ran (a cell's inner_times are
its rounds in order; the race stops a cell after some rounds), the mean of the per-round log ratios, back on
the ratio scale, with a 95% t-interval over those rounds. As a check it recomputes each session's
go/inplace over c/inplace the same way, which must equal the export's own ratio and interval.

usage (from the repository's root): .venv/bin/python docs/results/2026-11-24-rdb-go-clmul-crc/paired.py
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

from scipy import stats

HERE = Path(__file__).resolve().parent


def paired(a: list[float], b: list[float]) -> tuple[float, float, float, int]:
    n = min(len(a), len(b))
    logs = [math.log(x / y) for x, y in zip(a[:n], b[:n], strict=True)]
    mean = statistics.fmean(logs)
    half = float(stats.t.ppf(0.975, n - 1)) * statistics.stdev(logs) / math.sqrt(n)
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half), n


def main() -> None:
    lines = ["# written by paired.py from session-1.json and session-2.json (do not edit by hand)"]
    for session in (1, 2):
        data = json.loads((HERE / f"session-{session}.json").read_text())
        times = {r["label"]: r["inner_times"] for r in data["results"]}
        rows = {r["label"]: r for r in data["results"]}
        go, rust, c = "go/inplace@go:release[]", "rust/inplace@cargo:release[]", "c/inplace@gcc:release[]"
        value, low, high, n = paired(times[go], times[rust])
        lines.append(f"session {session}: go/inplace over rust/inplace {value:.2f}x [{low:.2f}-{high:.2f}], {n} rounds")
        check = paired(times[go], times[c])
        stored = rows[go]["ratio"], *rows[go]["ratio_ci95"]
        assert all(math.isclose(x, y, rel_tol=1e-9) for x, y in zip(check[:3], stored, strict=True)), (check, stored)
        lines.append(
            f"session {session}: check, go/inplace over c/inplace {check[0]:.2f}x [{check[1]:.2f}-{check[2]:.2f}],"
            f" {check[3]} rounds, as the export's own ratio"
        )
    (HERE / "paired.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
