"""dcat's ten tests under ldc2, each build over release, from the stored export ldc2-builds.json.gz: what the suite's
FINDINGS (dcat's build: release, LTO, LTO+PGO) states, derived here from the export rather than typed.

- wall: the geometric mean of the per-round ratio of the two cells (round r of one against round r of the
  other, over the rounds both ran), with its 95% t-interval over rounds (the plain mean of the log ratios, as
  iorace computed a ratio when the session ran; no trimming, no session level);
- CPU: the ratio of the two cells' mean CPU time a run (user + sys). The export keeps each run's wall time but
  only each cell's mean user and sys time, so the CPU ratio has no per-round pairing and no interval here;
- what PGO adds on top of LTO: lto / release minus lto-pgo / release, from the two wall ratios as printed.

usage: python docs/results/2026-11-24-lines-ldc2-builds-and-languages/builds.py   (writes builds.txt beside it)
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
from scipy import stats

HERE = Path(__file__).resolve().parent
TESTS = [
    "byLineInRawOut",
    "byLineInBufOut",
    "bufferedByLineInBufOut",
    "iopipeByLineInRawOut",
    "iopipeByLineInBufOut",
    "iopipeByLineInIOOut",
    "iopipeByLineInBufIOOut",
    "byChunkInRawOut",
    "byChunkInBufOut",
    "byChunkInByLineBufOut",
]


def paired(a: list[float], b: list[float]) -> tuple[float, float, float, int]:
    """a / b over the rounds both ran: the geometric mean of the per-round ratios and its 95% t-interval."""
    n = min(len(a), len(b))
    logs = np.log(np.asarray(a[:n]) / np.asarray(b[:n]))
    mean = float(logs.mean())
    half = float(stats.t.ppf(0.975, n - 1) * logs.std(ddof=1) / np.sqrt(n))
    return float(np.exp(mean)), float(np.exp(mean - half)), float(np.exp(mean + half)), n


def main() -> None:
    export = json.loads(gzip.decompress((HERE / "ldc2-builds.json.gz").read_bytes()))
    cells = {(r["variant"], r["profile"]): r for r in export["results"] if r["status"] == "ok"}
    out = [
        "# builds.py over ldc2-builds.json.gz (session 2 of the lines store, 2026-11-23, quick): each of dcat's",
        "# tests under ldc2, a build over release. wall: geometric mean of the per-round ratio [95% t-interval],",
        "# over the rounds both cells ran; cpu: ratio of the cells' mean user + sys a run (no interval: the export",
        "# keeps no per-run CPU time); pgo adds: lto / release - lto-pgo / release, of the wall ratios as printed.",
        "",
        f"{'test':<24} {'rounds':>6}  {'lto-pgo / release, wall':<24} {'cpu':>6}  {'lto / release, wall':<24} {'cpu':>6}  {'pgo adds':>8}",
    ]
    for test in TESTS:
        release = cells[(test, "release")]
        cpu_release = release["user"] + release["system"]
        row = []
        printed = []
        for profile in ("lto-pgo", "lto"):
            cell = cells[(test, profile)]
            value, low, high, n = paired(cell["times"], release["times"])
            cpu = (cell["user"] + cell["system"]) / cpu_release
            row.append(f"{f'{value:.2f}x [{low:.2f}-{high:.2f}]':<24} {f'{cpu:.2f}x':>6}")
            printed.append(round(value, 2))
        adds = printed[1] - printed[0]
        out.append(f"{test:<24} {n:>6}  {row[0]}  {row[1]}  {f'{adds:.2f}x':>8}")
    walls = {p: [paired(cells[(t, p)]["times"], cells[(t, "release")]["times"])[0] for t in TESTS] for p in ("lto-pgo", "lto")}
    out += [
        "",
        f"lto-pgo / release, wall, over the ten tests: {min(walls['lto-pgo']):.2f}x to {max(walls['lto-pgo']):.2f}x",
        f"lto / release, wall, over the ten tests: {min(walls['lto']):.2f}x to {max(walls['lto']):.2f}x",
    ]
    (HERE / "builds.txt").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
