"""The A/A twin (c/inplace~aa over c/inplace, gcc) pooled over this study's two sessions: written to pooled.txt.

`iorace show 1 2` pooled them when they were measured (its store, in /tmp, was not kept). This pools the two
JSON exports the same way, with the harness's own code: each session's rounds (a cell's inner_times, in order)
keyed session x SESSION_STRIDE + round and paired by iorace.analyse.stats.paired_ratio, which pools rounds of
several sessions with a hierarchical bootstrap (sessions, then rounds within each; fixed seed).

usage (from the repository's root): .venv/bin/python docs/results/2026-11-24-rdb-languages/pooled.py
"""

from __future__ import annotations

import json
from pathlib import Path

from iorace.analyse import stats

HERE = Path(__file__).resolve().parent
TWIN, REFERENCE = "c/inplace~aa@gcc:release[]", "c/inplace@gcc:release[]"


def main() -> None:
    lines = ["# written by pooled.py from session-1.json and session-2.json (do not edit by hand)"]
    twin: dict[int, float] = {}
    reference: dict[int, float] = {}
    for session in (1, 2):
        data = json.loads((HERE / f"session-{session}.json").read_text())
        rows = {r["label"]: r for r in data["results"]}
        for i, x in enumerate(rows[TWIN]["inner_times"]):
            twin[session * stats.SESSION_STRIDE + i] = x
        for i, x in enumerate(rows[REFERENCE]["inner_times"]):
            reference[session * stats.SESSION_STRIDE + i] = x
        alone = rows[TWIN]["ratio"], *rows[TWIN]["ratio_ci95"]
        lines.append(f"session {session}: A/A twin {alone[0]:.2f}x [{alone[1]:.2f}-{alone[2]:.2f}] (the export's own)")
    pooled = stats.paired_ratio(twin, reference)
    assert pooled is not None and pooled.low is not None and pooled.high is not None
    lines.append(f"pooled, sessions 1 and 2: A/A twin {pooled.value:.2f}x [{pooled.low:.2f}-{pooled.high:.2f}], {pooled.n} rounds")
    (HERE / "pooled.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
