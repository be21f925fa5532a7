"""iorace's timer against hyperfine's, on the same binaries (tools/bench_timer.py).

Both harnesses time the same two programs of tools/timerbench, built by iorace: `work` (a fixed
amount of work, about 30 ms here) and `empty` (one write). Per program and block, `iorace run`
measures it (its cell alone, so it follows itself as in hyperfine), and `hyperfine -N` measures the
same command line; the blocks alternate which harness goes first. Printed: each block's two medians
and their ratio, then the median of all runs of each harness and the median of the blocks' ratios. Nothing is asserted: a shared machine's
noise is larger than the differences looked for, which is why there are blocks.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SUITE_DIR = REPO / "tools" / "timerbench"


def iorace(args: list[str], db: Path, export: Path) -> dict:
    cmd = [
        sys.executable,
        "-m",
        "iorace",
        "run",
        "timerbench",
        "--suite-dir",
        str(SUITE_DIR),
        "--size",
        "tiny",
        "--db",
        str(db),
        "--export-json",
        str(export),
        # a comparison tool: a contended block shows in its own figures, it need not stop the rest
        "--allow-contended",
        *args,
    ]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"bench-timer: iorace run failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    return json.loads(export.read_text())


def hyperfine(command: str, runs: int, warmup: int, export: Path) -> dict:
    proc = subprocess.run(
        ["hyperfine", "-N", "--style", "none", "--warmup", str(warmup), "--runs", str(runs), "--export-json", str(export), command],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        sys.exit(f"bench-timer: hyperfine failed: {proc.stderr.strip()[-500:]}")
    return json.loads(export.read_text())["results"][0]


def commands(tmp: Path, iterations: int) -> dict[str, str]:
    """Each program's command line, as iorace runs it (built and verified by a --check-only run)."""
    doc = iorace(["--check-only", "--param", f"iterations={iterations}"], tmp / "check.sqlite", tmp / "check.json")
    # a --check-only session times nothing: its cells are in iorace_unmeasured, not hyperfine's results
    return {r["variant"]: r["command"] for r in doc["results"] + doc.get("iorace_unmeasured", [])}


def median_interval(ratios: list[float]) -> str:
    """The 95% interval of the median block ratio (distribution-free, from the order statistics: scipy's
    binomial quantiles), so that a block-to-block spread larger than the difference sought shows as such."""
    from scipy.stats import binom

    n = len(ratios)
    if n < 6:
        return ""
    lo = int(binom.ppf(0.025, n, 0.5))
    hi = n - 1 - lo
    r = sorted(ratios)
    return f", 95% interval [{r[max(lo - 1, 0)]:.4f}, {r[min(hi + 1, n - 1)]:.4f}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", type=int, default=10, help="alternating iorace/hyperfine blocks per program")
    ap.add_argument("--runs-work", type=int, default=20)
    ap.add_argument("--runs-empty", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--target-ms", type=float, default=30.0)
    ap.add_argument("--programs", default="work,empty", help="which programs, comma-separated (work, empty)")
    a = ap.parse_args()
    if not shutil.which("hyperfine"):
        sys.exit("bench-timer: hyperfine not found (scripts/setup installs it: apt-get install hyperfine)")
    os.environ.setdefault("IORACE_CACHE", str(REPO / ".cache"))
    with tempfile.TemporaryDirectory(prefix="iorace-bench-timer-") as t:
        tmp = Path(t)
        probe = 10_000_000
        h = hyperfine(commands(tmp, probe)["work"], 5, 1, tmp / "probe.json")
        iterations = max(1000, int(probe * a.target_ms / 1000 / h["median"]))
        cmds = commands(tmp, iterations)
        print(f"work: {iterations} iterations (about {a.target_ms:g} ms); load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print(f"{'program':8} {'block':>5} {'iorace median':>14} {'hyperfine median':>17} {'iorace/hyperfine':>17}")
        summary = {}
        wanted = a.programs.split(",")
        for program, runs in [(p, r) for p, r in (("work", a.runs_work), ("empty", a.runs_empty)) if p in wanted]:
            ratios, pooled_mine, pooled_theirs = [], [], []
            for block in range(a.blocks):
                steps = ["iorace", "hyperfine"] if block % 2 == 0 else ["hyperfine", "iorace"]
                for step in steps:
                    if step == "iorace":
                        doc = iorace(
                            ["--variant", program, "--runs", str(runs), "--warmup", str(a.warmup), "--param", f"iterations={iterations}"],
                            tmp / f"{program}{block}.sqlite",
                            tmp / f"{program}{block}.json",
                        )
                        # the program's own cell, not the A/A twin that the export lists beside it
                        (res,) = [r for r in doc["results"] if r["kind"] == "variant"]
                        mine = res["times"]
                    else:
                        theirs = hyperfine(cmds[program], runs, a.warmup, tmp / f"{program}{block}-h.json")["times"]
                m, h = statistics.median(mine), statistics.median(theirs)
                pooled_mine += mine
                pooled_theirs += theirs
                ratios.append(m / h)
                print(f"{program:8} {block + 1:>5} {m * 1e3:>11.3f} ms {h * 1e3:>14.3f} ms {m / h:>17.4f}", flush=True)
            summary[program] = (ratios, statistics.median(pooled_mine), statistics.median(pooled_theirs))
        print()
        for program, (ratios, m, h) in summary.items():
            ratio = statistics.median(ratios)
            print(
                f"{program}: median of all runs: iorace {m * 1e3:.3f} ms, hyperfine {h * 1e3:.3f} ms "
                f"(ratio {m / h:.4f}); median of the {a.blocks} blocks' ratios {ratio:.4f} ({(ratio - 1) * 100:+.1f}%)"
                f"{median_interval(ratios)}"
            )
        command = shlex.join([".venv/bin/python", "tools/bench_timer.py", *sys.argv[1:]])
        print(f"load average at the end {os.getloadavg()[0]:.2f}; command: {command}")


if __name__ == "__main__":
    main()
