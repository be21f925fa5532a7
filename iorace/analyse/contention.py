"""Was the machine quiet while a session measured? Read from the runs themselves, not guessed afterwards.

Each timed run carries its own CPU time (user + system, from wait4) and the whole machine's busy and stolen
CPU time while it ran (/proc/stat, read by the launcher just before and after it). Two things can spoil a
figure, and both are counted here:

- a *displaced* run: its CPU share, (user + system) / wall, fell well below the share its cell usually has
  in the session (`DISPLACED_BELOW` of it): the program was runnable but not running. The measuring loop
  stores such a run as phase "displaced" instead of "measure" (no statistic uses it) and repeats the round,
  within a limit (iorace.run.measure);
- a *busy machine*: other processes used CPU meanwhile. On this project's 2-core machines a build, a test
  run or a second session beside a benchmark shows as a fraction of a CPU or more (`BUSY_CPUS`); a quiet
  machine shows a few hundredths. The figure is a ratio of sums over the session's runs, because one run's
  /proc/stat delta is in 10 ms ticks and only the sum is precise.

A session is *contended* when either rule fires (or, for sessions stored before the launcher read /proc/stat,
when its cells' median CPU share is below `OLD_SHARE_BELOW`). Every format says so at its top; such a session
is exported all the same, marked, and the command exits 4 unless told otherwise (`--allow-contended`). This is
the one definition: `make docs` (scripts/docs.py) reads it too."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from iorace.store.db import SessionData

DISPLACED_BELOW = 0.9  # a run whose CPU share is below 0.9 x its cell's usual share was displaced
MIN_JUDGED_WALL_NS = 20_000_000  # shorter runs are not judged: exec and a scheduler tick move their share
BUSY_CPUS = 0.25  # other processes using a quarter of a CPU or more, over the session's runs: contended
DISPLACED_SHARE = 0.05  # more than 5% of the timed runs displaced: contended
OLD_SHARE_BELOW = 0.85  # sessions without /proc/stat figures: their cells' median CPU share below this


def usual_share(shares: list[float]) -> float | None:
    """The share a cell reaches when nothing interferes: the upper quartile of its runs' shares (robust to a
    minority of displaced runs, and a program of several threads keeps its own level above 1)."""
    if len(shares) < 3:
        return None
    return statistics.quantiles(shares, n=4)[2]


def displaced(wall_ns: int, share: float | None, usual: float | None) -> bool:
    """Whether one run waited instead of running, judged against its cell's usual share."""
    return wall_ns >= MIN_JUDGED_WALL_NS and share is not None and usual is not None and share < DISPLACED_BELOW * usual


@dataclass(frozen=True)
class Contention:
    """What the session's timed runs say about the machine while they ran."""

    timed_runs: int  # measured runs, the displaced ones included
    displaced_runs: int
    others_cpus: float | None  # CPUs that other processes used on average while the runs ran (None: not read)
    steal_cpus: float | None  # CPUs the hypervisor stole on average meanwhile
    median_share: float | None  # the median over cells of each cell's median CPU share

    @property
    def contended(self) -> bool:
        if self.timed_runs == 0:
            return False
        if self.displaced_runs > DISPLACED_SHARE * self.timed_runs:
            return True
        if self.others_cpus is not None:
            return self.others_cpus >= BUSY_CPUS
        return self.median_share is not None and self.median_share < OLD_SHARE_BELOW

    @property
    def line(self) -> str:
        """One line for the top of a report: 'contended: ...', or 'quiet: ...'."""
        facts = []
        if self.others_cpus is not None:
            facts.append(f"other processes used {self.others_cpus:.2f} CPUs while the runs ran")
        if self.steal_cpus:
            facts.append(f"the hypervisor stole {self.steal_cpus:.2f} CPUs")
        if self.median_share is not None:
            facts.append(f"median CPU share {self.median_share:.2f}")
        facts.append(f"{self.displaced_runs} of {self.timed_runs} timed runs displaced (repeated)")
        if self.others_cpus is None and self.timed_runs:
            facts.append("no /proc/stat figures in this session: judged by its CPU share")
        verdict = "contended: the programs waited for the CPU; these figures are not fit to publish" if self.contended else "quiet"
        return f"{verdict} ({'; '.join(facts)})"

    def as_dict(self) -> dict:
        return {
            "contended": self.contended,
            "timed_runs": self.timed_runs,
            "displaced_runs": self.displaced_runs,
            "others_cpus": self.others_cpus,
            "steal_cpus": self.steal_cpus,
            "median_cpu_share": self.median_share,
        }


def contention(session: SessionData) -> Contention:
    timed = displaced_n = 0
    busy_ns = own_ns = wall_ns = steal_ns = 0
    host_known = True
    medians = []
    for c in session.cells:
        shares = []
        for r in c.runs:
            if r.phase not in ("measure", "displaced"):
                continue
            timed += 1
            displaced_n += r.phase == "displaced"
            if r.phase == "measure" and (s := r.cpu_share) is not None:
                shares.append(s)
            if r.host_busy_ns is None:
                host_known = False
            else:
                busy_ns += r.host_busy_ns
                steal_ns += r.host_steal_ns or 0
                own_ns += r.cpu_ns
                wall_ns += r.wall_ns
        if shares:
            medians.append(statistics.median(shares))
    known = host_known and wall_ns > 0
    return Contention(
        timed,
        displaced_n,
        max(0.0, (busy_ns - own_ns) / wall_ns) if known else None,
        steal_ns / wall_ns if known else None,
        statistics.median(medians) if medians else None,
    )
