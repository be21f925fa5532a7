"""Two back-to-back `iorace run` sessions of the same cells (scripts/bench-repro): does each cell's ratio to the
fastest cell of its table reproduce? Prints both ratios per cell, their disagreement (second / first - 1), the
largest one, whether the second ratio lies inside the first session's 95% interval (what the report promises
on a noisy machine: the interval, not the point, is the claim), and how busy the machine was (load average)
around each session."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT = [
    "readbytes",
    "--size",
    "seed",
    "--variant",
    "cpp/*",
    "--variant",
    "c/*",
    "--toolchain",
    "g++",
    "--toolchain",
    "gcc",
    "--runs",
    "5",
]


Ratio = tuple[float, tuple[float, float] | None]  # the ratio to the fastest and its 95% interval


def session(args: list[str], tmp: Path, n: int) -> tuple[dict[str, Ratio], float, float]:
    export = tmp / f"s{n}.json"
    load_before = os.getloadavg()[0]
    proc = subprocess.run(
        [sys.executable, "-m", "iorace", "run", *args, "--db", str(tmp / "db.sqlite"), "--export-json", str(export)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode not in (0, 1) or not export.exists():
        sys.exit(f"bench-repro: session {n} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    for line in proc.stderr.splitlines():
        if "machine was busy" in line:
            print(f"session {n}: {line.strip()}")
    ratios = {}
    for r in json.loads(export.read_text())["results"]:
        if r.get("status") == "ok" and r.get("ratio") is not None:
            ci = r.get("ratio_ci95")
            ratios[f"{r['label']} {r['dataset']}"] = (r["ratio"], tuple(ci) if ci else None)
    return ratios, load_before, os.getloadavg()[0]


def main() -> None:
    args = sys.argv[1:] or DEFAULT
    os.environ.setdefault("IORACE_CACHE", str(REPO / ".cache"))
    with tempfile.TemporaryDirectory(prefix="iorace-bench-repro-") as t:
        tmp = Path(t)
        first, l0, l1 = session(args, tmp, 1)
        second, l2, l3 = session(args, tmp, 2)
    print(f"{'cell':64} {'ratio 1 [95% CI]':>22} {'ratio 2':>8} {'2/1 - 1':>8}  in CI 1")
    worst = (0.0, "")
    inside = compared = 0
    for label in sorted(first, key=lambda k: first[k][0]):
        (r1, ci), r2 = first[label], second.get(label, (None, None))[0]
        ci_text = f"[{ci[0]:.2f}-{ci[1]:.2f}]" if ci else ""
        if r2 is None:
            print(f"{label:64} {r1:>7.3f}x {ci_text:>13} {'-':>8}")
            continue
        d = r2 / r1 - 1
        worst = max(worst, (abs(d), label))
        within = ci is not None and ci[0] <= r2 <= ci[1]
        inside += within
        compared += ci is not None
        print(f"{label:64} {r1:>7.3f}x {ci_text:>13} {r2:>7.3f}x {d * 100:>+7.1f}%  {'yes' if within else 'NO'}")
    print(f"largest disagreement: {worst[0] * 100:.1f}% ({worst[1]})")
    print(f"second ratio inside the first session's 95% interval: {inside} of {compared} cells")
    print(f"load average (1 min) before/after: session 1 {l0:.2f}/{l1:.2f}, session 2 {l2:.2f}/{l3:.2f} on {os.cpu_count()} cores")
    print(f"command: iorace run {shlex.join(args)} (twice)")


if __name__ == "__main__":
    main()
