"""Two back-to-back `iorace run` sessions of the same cells (scripts/bench-repro): do the ratios reproduce, and
do the intervals tell the truth?

Per cell: its ratio to its table's reference in each session (the reference `iorace compare` takes: the
typical mover), the change, and z = (ln r2 - ln r1) / sqrt(se1^2 + se2^2). With honest intervals |z| < 1.96
for about 95% of the cells and z's standard deviation is about 1 (Cumming & Maillardet 2006: "the second
ratio inside the first interval" would expect only about 83%). Then the precision (median 95% half-width of
the ratios), each session's A/A check, and whether `iorace compare` flags anything between the two.

usage: scripts/bench-repro [--sessions N] [iorace run arguments...]
  default cells: the C/C++ readbytes cells on the seed file, default settings. Asserts nothing (the figures
  depend on the machine); --db FILE keeps the sessions (default: a temporary database).
"""

from __future__ import annotations

import math
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from iorace import compare  # noqa: E402  (the checkout's iorace, whatever is installed)
from iorace.document import build  # noqa: E402
from iorace.kind import Kind  # noqa: E402
from iorace.store import Store  # noqa: E402

DEFAULT = ["readbytes", "--size", "seed", "--variant", "cpp/*", "--variant", "c/*"]


def run_session(args: list[str], db: Path, n: int) -> int:
    load_before = os.getloadavg()[0]
    proc = subprocess.run(
        [sys.executable, "-m", "iorace", "run", *args, "--db", str(db)], cwd=REPO, capture_output=True, text=True, check=False
    )
    if proc.returncode not in (0, 1):
        sys.exit(f"bench-repro: session {n} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
    busy = [line.strip() for line in proc.stderr.splitlines() if "machine was busy" in line]
    print(
        f"session {n}: load average {load_before:.2f} -> {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
        + (f"; {busy[0]}" if busy else "")
    )
    return Store(db).session_ids()[-1]


def describe(values: list[float]) -> str:
    return f"median {statistics.median(values):.1%}, largest {max(values):.1%}" if values else "-"


def main() -> None:
    argv = sys.argv[1:]
    db_path = None
    if "--db" in argv:
        i = argv.index("--db")
        db_path = Path(argv[i + 1])
        del argv[i : i + 2]
    args = argv or DEFAULT
    os.environ.setdefault("IORACE_CACHE", str(REPO / ".cache"))
    with tempfile.TemporaryDirectory(prefix="iorace-bench-repro-") as t:
        db = db_path or Path(t) / "db.sqlite"
        ids = [run_session(args, db, 1), run_session(args, db, 2)]
        store = Store(db)
        sessions = [store.load(i) for i in ids]
    a, b = (compare.side_from_session(s) for s in sessions)
    cmp = compare.compare(a, b)
    zs, changes = [], []
    print(f"\n{'cell':70} {'change':>8} {'[95% CI]':>18} {'z':>6}")
    for ch in sorted(cmp.changes, key=lambda c: c.a.name):
        if not ch.reference or ch.ratio is None or not ch.ratio.se_log:
            continue
        z = math.log(ch.ratio.value) / ch.ratio.se_log
        zs.append(z)
        changes.append(abs(ch.ratio.value - 1))
        ci = f"[{ch.ratio.low - 1:+.1%}, {ch.ratio.high - 1:+.1%}]" if ch.ratio.low is not None and ch.ratio.high is not None else ""
        print(f"{ch.a.name:70} {ch.ratio.value - 1:>+8.1%} {ci:>18} {z:>6.2f}")
    widths = [
        r.vs_fastest.half_width
        for s in sessions
        for g in build(s).groups
        for r in g.rows
        if r.vs_fastest is not None and r.vs_fastest.half_width and r.kind.compared
    ]
    print()
    if zs:
        inside = sum(abs(z) < 1.96 for z in zs)
        print(
            f"calibration: |z| < 1.96 for {inside} of {len(zs)} cells ({inside / len(zs):.0%}; honest: about 95%), "
            f"sd(z) {statistics.pstdev(zs):.2f} (honest: about 1)"
        )
    print(f"reproducibility: |change of a ratio| {describe(changes)}")
    print(f"precision: 95% half-width of the ratios {describe(widths)}")
    for s in sessions:
        aa = [r.vs_original for g in build(s).groups for r in g.rows if r.kind is Kind.CONTROL and r.vs_original is not None]
        covered = sum(r.low is not None and r.overlaps_one() for r in aa)
        shown = ", ".join(f"{r.value:.3f}x [{r.low:.3f}-{r.high:.3f}]" for r in aa if r.low is not None)
        print(f"A/A session {s.id}: {covered} of {len(aa)} cover 1.00 ({shown})")
    print(f"iorace compare {ids[0]} {ids[1]}: {len(cmp.regressions)} flagged" + "".join(f"\n  {line}" for line in cmp.regressions))
    print(f"command: iorace run {shlex.join(args)} (twice)")


if __name__ == "__main__":
    main()
