"""Two back-to-back `iorace run` sessions of the same cells (tools/bench_repro.py): do the ratios reproduce, and
do the intervals tell the truth?

Per cell: its ratio to its table's reference in each session (the reference `iorace compare` takes: the
typical mover), the change, and z = (ln r2 - ln r1) / sqrt(se1^2 + se2^2 + tau1^2 + tau2^2), tau each session's
level, how much its suite's ratios moved between this machine's earlier sessions (0 when its store had none:
analyse/session_spread.py; the z of the rounds alone are shown too). With honest intervals |z| < 1.96
for about 95% of the cells and z's standard deviation is about 1 (Cumming & Maillardet 2006: "the second
ratio inside the first interval" would expect only about 83%). Then the precision (median 95% half-width of
the ratios), each session's A/A check, and whether `iorace compare` flags anything between the two.

usage: .venv/bin/python tools/bench_repro.py [iorace run arguments...] [--db FILE] [--from ID,ID]
  default cells: the C/C++ readbytes cells on the seed file, default settings. Asserts nothing (the figures
  depend on the machine); --db FILE keeps the sessions (default: a temporary database); --from ID,ID reads two
  sessions already stored in --db instead of running them (e.g. two `make bench` sessions).

Also: each session's duration, and the precision at the top of the tables, the figure `make bench` promises:
the median 95% half-width of the ratios of each table's three fastest cells (the second's and third's ratio to
the fastest, pooled over the tables).
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

from scipy.stats import norm  # noqa: E402

from iorace.analyse.stats import NO_LEVEL, paired_ratio  # noqa: E402
from iorace.compare import judge as compare  # noqa: E402  (the checkout's iorace, whatever is installed)
from iorace.compare import sides  # noqa: E402
from iorace.core.kind import Kind  # noqa: E402
from iorace.core.status import Status  # noqa: E402
from iorace.report.document import build  # noqa: E402
from iorace.store.db import Store  # noqa: E402

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


def disjoint_pair_zs(a: sides.Side, b: sides.Side, levels: bool = True, student: bool = False) -> list[float]:
    """z of independent ratios: within each table, cells taken two by two (in name order), each cell in one pair.

    The z of every cell against one shared reference are not independent: whatever the reference's own mean did
    in a session moves all of them together, and the spread of z across cells leaves that shared part out (with
    the reference as noisy as a cell, sd(z) about 0.71 when the intervals are honest). Disjoint pairs share
    nothing, so their sd(z) is the calibration check.

    student: each z from its Student t on the rounds' degrees of freedom (Welch-Satterthwaite), as compare tests
    it and as the intervals are drawn, carried to the normal scale (the normal quantile of its two-sided p). A
    raced cell has 3 rounds, so a ratio's standard error rests on 2 degrees of freedom, and d / se then follows
    a t with heavy tails, not the normal: its sd across cells is over 1 even when every interval covers as it
    claims."""
    bs = {c.ident: c for c in b.cells}
    tables: dict[tuple, list[tuple[sides.CellSample, sides.CellSample]]] = {}
    for ca in a.cells:
        cb = bs.get(ca.ident)
        if cb is not None and ca.status == cb.status == Status.OK and Kind.of(ca.kind).compared and ca.rounds and cb.rounds:
            tables.setdefault(ca.table, []).append((ca, cb))
    zs = []
    for pairs in tables.values():
        pairs.sort(key=lambda p: p[0].name)
        for (a1, b1), (a2, b2) in zip(pairs[::2], pairs[1::2], strict=False):  # an odd cell out sits out
            # each side's ratio with its session's level (0 where the store knew none): what a repeat is tested by
            t1, t2 = (a1.level, b1.level) if levels else (NO_LEVEL, NO_LEVEL)
            r1, r2 = paired_ratio(a1.rounds, a2.rounds, t1), paired_ratio(b1.rounds, b2.rounds, t2)
            if r1 and r2 and r1.se_total and r2.se_total:
                d = math.log(r2.value / r1.value)
                if student:
                    p = max(compare.ratio_change(r1, r2)[1], 1e-300)
                    zs.append(math.copysign(float(norm.isf(p / 2)), d))
                else:
                    zs.append(d / math.hypot(r1.se_total, r2.se_total))
    return zs


def calibration(zs: list[float]) -> str:
    inside = sum(abs(z) < 1.96 for z in zs)
    return (
        f"|z| < 1.96 for {inside} of {len(zs)} ({inside / len(zs):.0%}; honest: about 95%), "
        f"sd(z) {statistics.stdev(zs):.2f}, rms(z) {math.sqrt(statistics.fmean(z * z for z in zs)):.2f} (honest: about 1)"
    )


def top_widths(session) -> list[float]:
    """The 95% half-widths of the ratios of each table's three fastest compared cells to its fastest (the fastest's
    own ratio is 1 exactly and has none): what decides which cell wins a table, and by how much."""
    out = []
    for g in build(session).groups:
        # the fastest itself left out by identity, not as the lowest ratio: another cell's paired ratio to it can
        # fall just below 1 (a near tie), and its own 1 +- 0 then counted as one of the three, a width of nothing
        fastest = g.fastest
        rest = [r for r in g.rows if r.kind.compared and r.vs_fastest is not None and r is not fastest]
        ranked = sorted(rest, key=lambda r: r.vs_fastest.value)
        out += [r.vs_fastest.half_width for r in ranked[:2] if r.vs_fastest.half_width is not None]
    return out


def minutes(session) -> str:
    import datetime as dt

    if not session.finished:
        return "?"
    span = dt.datetime.fromisoformat(session.finished) - dt.datetime.fromisoformat(session.started)
    return f"{span.total_seconds() / 60:.1f} min"


def describe(values: list[float]) -> str:
    return f"median {statistics.median(values):.1%}, largest {max(values):.1%}" if values else "-"


def _take(argv: list[str], flag: str) -> str | None:
    """The value of `flag VALUE` in argv (removed from it), or None."""
    if flag not in argv:
        return None
    i = argv.index(flag)
    value = argv[i + 1]
    del argv[i : i + 2]
    return value


def main() -> None:
    argv = sys.argv[1:]
    if argv and argv[0] in ("-h", "--help"):  # not a session's arguments: the usage, not two sessions
        print(__doc__)
        return
    db_text, from_text = _take(argv, "--db"), _take(argv, "--from")
    db_path = Path(db_text) if db_text else None
    stored = [int(x) for x in from_text.split(",")] if from_text else None
    if stored is not None and (len(stored) != 2 or db_path is None):
        sys.exit("bench-repro: --from takes two session ids, with --db FILE")
    args = argv or DEFAULT
    os.environ.setdefault("IORACE_CACHE", str(REPO / ".cache"))
    with tempfile.TemporaryDirectory(prefix="iorace-bench-repro-") as t:
        db = db_path or Path(t) / "db.sqlite"
        ids = stored or [run_session(args, db, 1), run_session(args, db, 2)]
        store = Store(db)
        sessions = [store.load(i) for i in ids]
    a, b = (sides.side_from_session(s) for s in sessions)
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
    rows = [r for s in sessions for g in build(s).groups for r in g.rows]
    widths = [r.vs_fastest.half_width for r in rows if r.vs_fastest is not None and r.vs_fastest.half_width and r.kind.compared]
    raced = [  # the cells timed to the end: those that decide their table's ranking (racing stopped the rest)
        r.vs_fastest.half_width
        for r in rows
        if r.vs_fastest is not None and r.vs_fastest.half_width and r.kind.compared and "stopped" not in r.cell.timing_note
    ]
    print()
    if len(zs) > 1:
        print(f"calibration, each cell against its table's reference (z share the reference's move): {calibration(zs)}")
    pair_zs = disjoint_pair_zs(a, b)
    if len(pair_zs) > 1:
        print(f"calibration, disjoint pairs of cells (independent z): {calibration(pair_zs)}")
        rounds_only = disjoint_pair_zs(a, b, levels=False)
        print(f"calibration, disjoint pairs of cells, the rounds alone (no session level): {calibration(rounds_only)}")
        as_tested = disjoint_pair_zs(a, b, student=True)
        print(
            "calibration, disjoint pairs of cells, each z from its Student t on the rounds' degrees of freedom (as compare "
            f"tests it and the intervals are drawn): {calibration(as_tested)}"
        )
    levels = {(s.id, g.suite): g.session_level for s in sessions for g in build(s).groups if g.session_level}
    print("session levels: " + (", ".join(f"session {i} {suite} {lv.text()}" for (i, suite), lv in sorted(levels.items())) or "none"))
    print(f"reproducibility: |change of a ratio| {describe(changes)}")
    print(f"precision: 95% half-width of the ratios {describe(widths)}; of the cells timed to the end {describe(raced)}")
    for s in sessions:
        top = top_widths(s)
        print(
            f"session {s.id} ({minutes(s)}): 95% half-width of the ratios of each table's three fastest cells "
            f"{describe(top)} over {len(top)} ratios"
        )
    for s in sessions:
        aa = [r.vs_original for g in build(s).groups for r in g.rows if r.kind is Kind.CONTROL and r.vs_original is not None]
        covered = sum(r.low is not None and r.overlaps_one() for r in aa)
        shown = ", ".join(f"{r.value:.3f}x [{r.low:.3f}-{r.high:.3f}]" for r in aa if r.low is not None)
        print(f"A/A session {s.id}: {covered} of {len(aa)} cover 1.00 ({shown})")
    print(f"iorace compare {ids[0]} {ids[1]}: {len(cmp.regressions)} flagged" + "".join(f"\n  {line}" for line in cmp.regressions))
    if not stored:
        print(f"command: iorace run {shlex.join(args)} (twice)")


if __name__ == "__main__":
    main()
