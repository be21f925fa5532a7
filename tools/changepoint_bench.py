#!/usr/bin/env python3
"""Rules for finding regressions, measured on synthetic histories with a known truth.

A history is 30 sessions of one cell. Each session has 5 to 15 rounds (make bench: --runs 5, up to 3x while
the precision is not reached, which at this noise it never is); each round's log cost is the session's level
plus noise of sd sigma, sigma drawn per history from 0.10 to 0.25 (the per-round sd of log ratios this machine
shows: docs/results/dimension-readbytes-lines.txt, 19-24%). `--between SD` adds noise between sessions
(what stays fixed for one session; measured 0 here). A planted step multiplies the level by 1 + s from a
session drawn from 5 to 25 on.

History rules (each session against what came before):
  pairwise-z   each session against the previous one: z on the mean logs with both standard errors,
               p < 0.05 and the change beyond the threshold (what `history` flagged before)
  interval     each session against the previous one: the whole 95% interval beyond the threshold
  persist-N    the z rule against session i-1 in each of the sessions i .. i+N-1
  pelt(...)    iorace.analyse.changepoints: PELT change points, each split tested by a t-test; "w": the
               sessions weighted by their rounds (PELT's cost and the test), "r2": each split kept moved to
               the largest |t| within 2 sessions; the row without them is the detector before weighting and refinement
  otava        Apache Otava 0.8.0's E-divisive with its t-test (window 30, p < 0.001), when importable:
               PYTHONPATH=. /path/to/a/venv/with/apache-otava/bin/python tools/changepoint_bench.py

A flag within one session of the planted step finds it; any other flag is a false alarm. Reported: false
alarms per 100 sessions and per 100 histories, and the share of histories with any, on noise-only histories;
per step size, the share of histories whose step was found at the right session (within 1); the same per
step in units of the sd of the session values around their level, two ways:
  series sd    the history's own: sqrt(sigma^2 x mean(1 / rounds) over its sessions + between^2), the noise
               the detector sees (and noise_sd estimates); a session of 5 rounds is noisier than one of 15,
               and the mean of 1/rounds over 5-15 is 0.112, not 1/10
  sigma/sqrt10 a session of 10 rounds (the mean rounds), between sessions left out: the unit used before,
               which makes "3 sd" 2.83 of the series' sd (0.316 / 0.335 with 5-15 rounds)

Gate rules (`compare`): a table of 6 cells, sessions A and B, each cell's ratio to the table's reference over
the rounds (the same noise model); one cell gets the step in B (and in the sessions after B, which persist
reads). Reported per rule: false alarms per 100 comparisons (a flagged unchanged cell) and detection by step.

Prints the tables (docs/changepoints-benchmark.txt keeps one run's). Draws only numbers: times nothing.
usage: tools/changepoint_bench.py [--histories N] [--step-histories N] [--between SD] [--seed S] [--grid] [--no-gate]
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from scipy import stats as sps

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from iorace.analyse.changepoints import DEFAULT, Detector, change_points
from iorace.analyse.rules import Rule, direction
from iorace.analyse.stats import Ratio
from iorace.compare.judge import ratio_change

SESSIONS = 30
ROUNDS = (5, 15)
SIGMA = (0.10, 0.25)
STEPS = (0.02, 0.03, 0.05, 0.07, 0.10, 0.15, 0.20)
SD_STEPS = (1, 2, 3, 4, 5)
SD_UNITS = ("series", "sqrt10")  # the step_sd's unit: see the docstring
Z95 = 1.959963984540054


@dataclass
class History:
    means: np.ndarray  # each session's mean log
    ses: np.ndarray  # each session's standard error of it
    rounds: np.ndarray  # each session's rounds
    step_at: int | None  # the first session of the new level
    sigma: float


def draw(rng: np.random.Generator, step: float, between: float, step_sd: float | None = None, unit: str = "sqrt10") -> History:
    sigma = rng.uniform(*SIGMA)
    rounds = rng.integers(ROUNDS[0], ROUNDS[1] + 1, SESSIONS)
    level = rng.normal(0, between, SESSIONS) if between else np.zeros(SESSIONS)
    at = None
    if step_sd is not None:
        sd = math.sqrt(sigma**2 * float(np.mean(1 / rounds)) + between**2) if unit == "series" else sigma / math.sqrt(10)
        step = math.exp(step_sd * sd) - 1
    if step:
        at = int(rng.integers(5, 26))
        level[at:] += math.log(1 + step)
    means, ses = np.empty(SESSIONS), np.empty(SESSIONS)
    for i, n in enumerate(rounds):
        logs = level[i] + rng.normal(0, sigma, n)
        means[i] = logs.mean()
        ses[i] = logs.std(ddof=1) / math.sqrt(n)
    return History(means, ses, rounds, at, sigma)


def pair(h: History, i: int, j: int) -> tuple[Ratio, float]:
    """Session j against session i: the ratio with its 95% interval and the two-sided p of z."""
    d = h.means[j] - h.means[i]
    se = math.sqrt(h.ses[i] ** 2 + h.ses[j] ** 2)
    p = float(2 * sps.norm.sf(abs(d) / se))
    return Ratio(math.exp(d), math.exp(d - Z95 * se), math.exp(d + Z95 * se), se), p


def pairwise(rule: Rule, threshold: float):
    def flags(h: History) -> list[int]:
        return [j for j in range(1, SESSIONS) if direction(rule, *pair(h, j - 1, j), threshold)]

    return flags


def persist(n: int, threshold: float):
    def flags(h: History) -> list[int]:
        out = []
        for i in range(1, SESSIONS - n + 1):
            ds = {direction(Rule.Z, *pair(h, i - 1, j), threshold) for j in range(i, i + n)}
            if len(ds) == 1 and 0 not in ds:
                out.append(i)
        return out

    return flags


def pelt(detector: Detector):
    def flags(h: History) -> list[int]:
        return [c.index for c in change_points(h.means, detector, h.rounds)]

    return flags


def otava(threshold: float):
    from otava.analysis import compute_change_points

    def flags(h: History) -> list[int]:
        cps, _ = compute_change_points(list(h.means), window_len=30, max_pvalue=0.001)
        out = []
        for c in cps:
            k = int(c.index)
            before, after = h.means[max(0, k - 30) : k], h.means[k : k + 30]
            if abs(math.exp(after.mean() - before.mean()) - 1) > threshold:
                out.append(k)
        return out

    return flags


def score(flags, histories: list[History]) -> tuple[int, int, int]:
    """(histories whose step was found within one session, false flags, histories with a false flag)."""
    found = false = with_false = 0
    for h in histories:
        got = flags(h)
        hit = h.step_at is not None and any(abs(k - h.step_at) <= 1 for k in got)
        found += hit
        wrong = [k for k in got if h.step_at is None or abs(k - h.step_at) > 1]
        false += len(wrong)
        with_false += bool(wrong)
    return found, false, with_false


def pelt_name(d: Detector) -> str:
    return (
        f"pelt(pen {d.penalty:g}, min {d.min_size}, p {d.alpha:g}"
        + (", w" if d.weighted else "")
        + (f", r{d.refine}" if d.refine else "")
        + ")"
    )


def history_rules(threshold: float, detectors: list[Detector], with_otava: bool) -> dict:
    rules = {
        "pairwise-z": pairwise(Rule.Z, threshold),
        "interval": pairwise(Rule.INTERVAL, threshold),
        "persist-3": persist(3, threshold),
    }
    for d in detectors:
        rules[pelt_name(d)] = pelt(replace(d, threshold=threshold))
    if with_otava:
        rules["otava (E-divisive, t-test)"] = otava(threshold)
    return rules


def run_histories(args: argparse.Namespace, threshold: float, detectors: list[Detector], with_otava: bool) -> None:
    rng = np.random.default_rng(args.seed)
    noise = [draw(rng, 0.0, args.between) for _ in range(args.histories)]
    by_step = {s: [draw(rng, s, args.between) for _ in range(args.step_histories)] for s in STEPS}
    by_sd = {k: [draw(rng, 0.0, args.between, step_sd=k) for _ in range(args.step_histories)] for k in SD_STEPS}
    # drawn after the rest, so that the other histories are those a seed drew before the series' unit was added
    by_series_sd = {k: [draw(rng, 0.0, args.between, step_sd=k, unit="series") for _ in range(args.step_histories)] for k in SD_STEPS}
    print(
        f"\n## histories: {SESSIONS} sessions, {ROUNDS[0]}-{ROUNDS[1]} rounds each, per-round sd {SIGMA[0]}-{SIGMA[1]},"
        f" between sessions {args.between}; threshold {threshold:.0%}"
    )
    print(f"   noise-only: {args.histories} histories; each step: {args.step_histories} histories (step at a session from 5 to 25)")
    print(
        "   false: on the noise-only histories, per 100 sessions, per 100 histories, histories with any; then the share of"
        " histories whose step was found at the right session (+-1), by step, and by step in the series' sd and in"
        " sigma/sqrt(10) (see the docstring)"
    )
    head = f"{'rule':<44} {'/100 sess':>9} {'/100 hist':>9} {'hist w/':>11} | by step:" + "".join(f"{s:>7.0%}" for s in STEPS)
    head += " | series sd:" + "".join(f"{k:>6}sd" for k in SD_STEPS) + " | sigma/sqrt10:" + "".join(f"{k:>6}sd" for k in SD_STEPS)
    print(head)
    for name, flags in history_rules(threshold, detectors, with_otava).items():
        _, false, with_false = score(flags, noise)
        found = [score(flags, by_step[s])[0] / len(by_step[s]) for s in STEPS]
        found_series = [score(flags, by_series_sd[k])[0] / len(by_series_sd[k]) for k in SD_STEPS]
        found_sd = [score(flags, by_sd[k])[0] / len(by_sd[k]) for k in SD_STEPS]
        print(
            f"{name:<44} {100 * false / (len(noise) * SESSIONS):>9.2f} {100 * false / len(noise):>9.2f} {with_false:>5}/{len(noise):<5} |"
            + f" {'':8}"
            + "".join(f"{f:>7.1%}" for f in found)
            + f" | {'':10}"
            + "".join(f"{f:>8.1%}" for f in found_series)
            + f" | {'':13}"
            + "".join(f"{f:>8.1%}" for f in found_sd)
        )
        sys.stdout.flush()


# --- the gate: two sessions of a table ---------------------------------------------------------------


def table_session(rng: np.random.Generator, sigma: np.ndarray, changed: float, between: float) -> tuple[np.ndarray, np.ndarray, int]:
    """Each cell's mean log ratio to the reference over its rounds, its standard error, and the rounds."""
    k = len(sigma)
    n = int(rng.integers(ROUNDS[0], ROUNDS[1] + 1))
    level = rng.normal(0, between, k) if between else np.zeros(k)
    level[0] += math.log(1 + changed)
    logs = level[:, None] + rng.normal(0, 1, (k, n)) * sigma[:, None]
    return logs.mean(axis=1), logs.std(axis=1, ddof=1) / math.sqrt(n), n


def holm(ps: list[float]) -> list[float]:
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


def gate_flags(rule: Rule, a, bs, threshold: float) -> list[int]:
    """The cells a rule flags, comparing A with B (bs[0]) or, persist, with each of bs."""
    sessions = bs if rule is Rule.PERSIST else bs[:1]
    verdicts = []
    for b in sessions:
        # what compare does (judge.ratio_change): Student's t with Welch-Satterthwaite's degrees of freedom
        tested = [
            ratio_change(Ratio(1.0, None, None, float(sa), a[2]), Ratio(math.exp(x), None, None, float(sb), b[2]))
            for x, sa, sb in zip(b[0] - a[0], a[1], b[1], strict=True)
        ]
        ps = holm([p for _, p in tested])
        ratios = [r for r, _ in tested]
        verdicts.append([direction(Rule.Z if rule is Rule.PERSIST else rule, r, p, threshold) for r, p in zip(ratios, ps, strict=True)])
    return [c for c in range(len(a[0])) if len({v[c] for v in verdicts}) == 1 and verdicts[0][c] != 0]


def run_gate(args: argparse.Namespace, threshold: float) -> None:
    rng = np.random.default_rng(args.seed + 1)
    cells = 6
    print(
        f"\n## the gate: a table of {cells} cells, A against B ({ROUNDS[0]}-{ROUNDS[1]} rounds, per-round sd {SIGMA[0]}-{SIGMA[1]}"
        f" per cell), threshold {threshold:.0%}; one cell stepped in B and after; {args.comparisons} comparisons each"
    )
    print(f"{'rule':<36} {'false/100 cmp':>13} | the stepped cell flagged, by step: " + " ".join(f"{s:>5.0%}" for s in STEPS))
    for rule in Rule:
        false = 0
        found = dict.fromkeys(STEPS, 0)
        for _ in range(args.comparisons):
            sigma = rng.uniform(*SIGMA, cells)
            a = table_session(rng, sigma, 0.0, args.between)
            bs = [table_session(rng, sigma, 0.0, args.between) for _ in range(3)]
            false += len(gate_flags(rule, a, bs, threshold))
            for s in STEPS:
                bs = [table_session(rng, sigma, s, args.between) for _ in range(3)]
                found[s] += 0 in gate_flags(rule, a, bs, threshold)
        name = "persist-3" if rule is Rule.PERSIST else rule.value
        print(
            f"{name:<36} {100 * false / args.comparisons:>13.2f} | {'':34}"
            + " ".join(f"{found[s] / args.comparisons:>5.0%}" for s in STEPS)
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--histories", type=int, default=1000, help="noise-only histories (default 1000)")
    ap.add_argument("--step-histories", type=int, default=300, help="histories per step size (default 300)")
    ap.add_argument("--comparisons", type=int, default=1000, help="gate comparisons per rule (default 1000)")
    ap.add_argument("--between", type=float, default=0.0, help="sd of log cost between sessions (default 0: none measured here)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--grid", action="store_true", help="also PELT over a grid of settings (how DEFAULT was chosen)")
    ap.add_argument("--thresholds", default="5,0", help="the thresholds in percent, comma-separated (default 5,0)")
    ap.add_argument("--no-gate", action="store_true", help="histories only")
    args = ap.parse_args()
    try:
        import otava  # noqa: F401

        with_otava = True
    except ImportError:
        with_otava = False
    print(f"# tools/changepoint_bench.py --histories {args.histories} --step-histories {args.step_histories} --seed {args.seed}")
    print(f"# default detector: {DEFAULT.describe()}; otava {'included' if with_otava else 'not installed: left out'}")
    # the detector before the sessions were weighted and the splits refined, each of those, and the default
    detectors = [replace(DEFAULT, weighted=False, refine=0), replace(DEFAULT, refine=0), replace(DEFAULT, weighted=False), DEFAULT]
    if args.grid:
        detectors += [
            replace(DEFAULT, penalty=pen, min_size=m, alpha=a)
            for m in (3, 4)
            for pen in (2.0, 3.0, 5.0)
            for a in (0.001, 0.0003, 0.0002, 0.0001)
        ]
    thresholds = [float(t) / 100 for t in args.thresholds.split(",")]
    for threshold in thresholds:
        run_histories(args, threshold, detectors, with_otava and not args.grid)
    if not args.grid and not args.no_gate:
        for threshold in thresholds:
            run_gate(args, threshold)


if __name__ == "__main__":
    main()
