"""Two back-to-back `iorace run` sessions of the same cells (scripts/bench-repro): does each cell's ratio to the
fastest cell of its table reproduce? Prints both ratios per cell, their disagreement (second / first - 1), the
largest one, and how busy the machine was (load average) around each session."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT = ["readbytes", "--size", "seed", "--variant", "cpp/*", "--variant", "c/*", "--toolchain", "g++",
           "--toolchain", "gcc", "--runs", "5"]


def session(args: list[str], tmp: Path, n: int) -> tuple[dict[str, float], float, float]:
    export = tmp / f"s{n}.json"
    load_before = os.getloadavg()[0]
    proc = subprocess.run([sys.executable, "-m", "iorace", "run", *args, "--db", str(tmp / "db.sqlite"),
                           "--export-json", str(export)], cwd=REPO, capture_output=True, text=True, check=False)
    if proc.returncode not in (0, 1) or not export.exists():
        sys.exit(f"bench-repro: session {n} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    for line in proc.stderr.splitlines():
        if "machine was busy" in line:
            print(f"session {n}: {line.strip()}")
    ratios = {}
    for r in json.loads(export.read_text())["results"]:
        if r.get("status") == "ok" and r.get("ratio") is not None:
            ratios[f"{r['label']} {r['dataset']}"] = r["ratio"]
    return ratios, load_before, os.getloadavg()[0]


def main() -> None:
    args = sys.argv[1:] or DEFAULT
    os.environ.setdefault("IORACE_CACHE", str(REPO / ".cache"))
    with tempfile.TemporaryDirectory(prefix="iorace-bench-repro-") as t:
        tmp = Path(t)
        first, l0, l1 = session(args, tmp, 1)
        second, l2, l3 = session(args, tmp, 2)
    print(f"{'cell':60} {'ratio 1':>8} {'ratio 2':>8} {'2/1 - 1':>8}")
    worst = (0.0, "")
    for label in sorted(first, key=first.get):
        if label not in second:
            print(f"{label:60} {first[label]:>7.3f}x {'-':>8}")
            continue
        d = second[label] / first[label] - 1
        worst = max(worst, (abs(d), label))
        print(f"{label:60} {first[label]:>7.3f}x {second[label]:>7.3f}x {d * 100:>+7.1f}%")
    print(f"largest disagreement: {worst[0] * 100:.1f}% ({worst[1]})")
    print(f"load average (1 min) before/after: session 1 {l0:.2f}/{l1:.2f}, session 2 {l2:.2f}/{l3:.2f} "
          f"on {os.cpu_count()} cores")
    print(f"command: iorace run {shlex.join(args)} (twice)")


if __name__ == "__main__":
    main()
