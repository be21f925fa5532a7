"""Duet benchmarking on this machine (Bulej et al., ICPE 2020), tried before iorace adopts it (scripts/duet-trial).

In a duet round a cell and its reference run at once, one per core, released together, and swap cores every
round; the shorter program is started again until the longer one ends (its extra runs are not measured), so
both measured runs see both cores busy and whatever hit the machine meanwhile hit both. Each round also runs
the two solo, one after the other in a random order, as iorace does, so a duet ratio is set beside the solo
ratio of the same rounds. An A/A duet (a program against itself) shows what the two cores alone do to a ratio.

Kept only if (the issue's bar): A/A duets agree within 1% (their interval inside 0.99-1.01) and CPU-bound
cells' duet ratios match their solo ratios within 2%. Each program's own time is its `inner_ns` (the
iorace-result line), so the launch is not in it.

usage: scripts/duet-trial EXPORT.json [--rounds N] [--pair LABEL_A LABEL_B]... [--aa LABEL]...
  EXPORT.json: a session's --export-json (the cells' commands are taken from it: build them first with
  `iorace run`). Default pairs: the readbytes count cells below. Asserts nothing: it prints what it measured.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from iorace.analyse.stats import Ratio, paired_ratio  # noqa: E402
from iorace.run.launcher import RESULT_PREFIX  # noqa: E402  (the checkout's iorace)

CPU_BOUND = "cpu"  # a pair whose cells spend their time in calls and branches, not waiting on memory
MEMORY_BOUND = "memory"
DEFAULT_PAIRS = [  # (numerator, denominator, what bounds them): the readbytes seed cells, byte counting
    ("cpp/fgetc@g++:release[mode=count,passes=10]", "c/getc-unlocked@gcc:release[mode=count,passes=10]", CPU_BOUND),
    ("cpp/istreambuf-iterator@g++:release[mode=count,passes=10]", "c/getc-unlocked@gcc:release[mode=count,passes=10]", CPU_BOUND),
    ("c/read-64k@gcc:release[mode=count,passes=10]", "cpp/mmap@g++:release[mode=count,passes=10]", MEMORY_BOUND),
]
DEFAULT_AA = ["c/getc-unlocked@gcc:release[mode=count,passes=10]", "cpp/mmap@g++:release[mode=count,passes=10]"]


def _inner_seconds(stderr: str, argv: list[str]) -> float:
    for line in reversed(stderr.splitlines()):
        if line.startswith(RESULT_PREFIX):
            return json.loads(line[len(RESULT_PREFIX) :])["inner_ns"] / 1e9
    sys.exit(f"duet-trial: {shlex.join(argv)} printed no {RESULT_PREFIX.strip()} line")


def _start(argv: list[str], cpu: int, gate: int | None) -> subprocess.Popen:
    """argv pinned to one core; with a gate, a shell holds it until a line arrives on the gate (the shell's own
    start is before the release; Popen returns only once the child has exec'd, so the wait cannot be before)."""
    held = argv if gate is None else ["sh", "-c", f'read -r _ <&{gate}; exec "$@"', "duet", *argv]
    return subprocess.Popen(
        held,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
        pass_fds=() if gate is None else (gate,),
    )


def solo(argv: list[str]) -> float:
    proc = _start(argv, 0, None)
    _, err = proc.communicate()
    return _inner_seconds(err, argv)


def duet(a: list[str], b: list[str], swap: bool) -> tuple[float, float]:
    """a and b released together on cores 0 and 1 (1 and 0 when swap); the first to end is started again,
    unmeasured, until the other ends, so that each measured run had a co-runner throughout."""
    gate_r, gate_w = os.pipe()
    cores = (1, 0) if swap else (0, 1)
    sides = (a, b)
    procs = [_start(a, cores[0], gate_r), _start(b, cores[1], gate_r)]
    os.close(gate_r)
    os.write(gate_w, b"go\ngo\n")  # a line each: both leave their wait at once
    os.close(gate_w)
    measured: list[float | None] = [None, None]
    fillers: list[subprocess.Popen | None] = [None, None]  # a side's unmeasured rerun while the other still runs
    while None in measured:
        for i in (0, 1):
            if measured[i] is None and procs[i].poll() is not None:
                measured[i] = _inner_seconds(procs[i].communicate()[1], sides[i])
            filler = fillers[i]
            if measured[i] is not None and measured[1 - i] is None and (filler is None or filler.poll() is not None):
                fillers[i] = _start(sides[i], cores[i], None)
        time.sleep(0.0005)
    for filler in fillers:
        if filler is not None:
            filler.kill()
            filler.communicate()
    return measured[0] or 0.0, measured[1] or 0.0


def _text(r: Ratio | None) -> str:
    if r is None or r.low is None or r.high is None:
        return "-"
    return f"{r.value:.3f} [{r.low:.3f}-{r.high:.3f}] +-{(r.half_width or 0):.1%}"


def trial(a: list[str], b: list[str], rounds: int, rng: random.Random) -> dict[str, dict[int, float]]:
    times: dict[str, dict[int, float]] = {"solo_a": {}, "solo_b": {}, "duet_a": {}, "duet_b": {}}
    for r in range(rounds):
        steps = ["solo_a", "solo_b", "duet"]
        rng.shuffle(steps)
        for step in steps:
            if step == "duet":
                times["duet_a"][r], times["duet_b"][r] = duet(a, b, swap=r % 2 == 1)
            else:
                times[step][r] = solo(a if step == "solo_a" else b)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("export", type=Path)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--pair", nargs=3, action="append", metavar=("LABEL_A", "LABEL_B", "BOUND"))
    parser.add_argument("--aa", action="append", metavar="LABEL")
    args = parser.parse_args()
    if os.cpu_count() is None or len(os.sched_getaffinity(0)) < 2:
        sys.exit("duet-trial: needs two cores")
    try:
        commands = {c["label"]: shlex.split(c["command"]) for c in json.loads(args.export.read_text())["results"]}
    except (OSError, ValueError, KeyError) as exc:
        sys.exit(f"duet-trial: {args.export}: not an iorace JSON export ({exc})")
    pairs = [tuple(p) for p in args.pair] if args.pair else DEFAULT_PAIRS
    aa = args.aa or ([] if args.pair else DEFAULT_AA)
    missing = [label for p in pairs for label in p[:2] if label not in commands] + [label for label in aa if label not in commands]
    if missing:
        sys.exit(f"duet-trial: {args.export} has no cell {missing[0]}")
    rng = random.Random(1)
    print(f"# scripts/duet-trial {args.export.name}, {args.rounds} rounds, load average {os.getloadavg()[0]:.2f}")
    for label in aa:
        t = trial(commands[label], commands[label], args.rounds, rng)
        a_a = paired_ratio(t["duet_a"], t["duet_b"])  # the sides swap cores every round
        solo_aa = paired_ratio(t["solo_a"], t["solo_b"])
        inside = a_a is not None and a_a.low is not None and a_a.high is not None and a_a.low >= 0.99 and a_a.high <= 1.01
        print(f"A/A {label}\n  duet {_text(a_a)}  ({'within' if inside else 'NOT within'} 1%)\n  solo {_text(solo_aa)}")
    for a_label, b_label, bound in pairs:
        t = trial(commands[a_label], commands[b_label], args.rounds, rng)
        s, d = paired_ratio(t["solo_a"], t["solo_b"]), paired_ratio(t["duet_a"], t["duet_b"])
        line = f"{a_label} / {b_label} ({bound}-bound)\n  solo {_text(s)}\n  duet {_text(d)}"
        if s and d and s.se_log and d.se_log:
            diff = math.log(d.value / s.value)
            half = 1.96 * math.hypot(s.se_log, d.se_log)
            line += f"\n  duet / solo {math.exp(diff) - 1:+.1%} [{math.exp(diff - half) - 1:+.1%}, {math.exp(diff + half) - 1:+.1%}]"
            slow = {k: statistics.median(t[k].values()) for k in ("solo_a", "duet_a", "solo_b", "duet_b")}
            line += (
                f"\n  co-running cost: A {slow['duet_a'] / slow['solo_a'] - 1:+.1%}, B {slow['duet_b'] / slow['solo_b'] - 1:+.1%} (medians)"
            )
        print(line)


if __name__ == "__main__":
    main()
