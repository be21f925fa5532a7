"""How much code placement alone moves a cell: its runs grouped by code layout (run/layouts.py), each run's cost
taken relative to the other cells of its table in the same round (so that the machine's drift between rounds,
which hits every cell of a round alike, is not read as a layout's effect), and a one-way analysis of variance
across layouts.

A cell is *placement-sensitive* when its layouts differ beyond its runs' own noise (F-test, p below P_SENSITIVE)
and the slowest layout's mean lies more than PLACEMENT_SENSITIVE (5%) over the fastest's: then one build's ratio
(one layout, as a plain build times it) is evidence of where the linker put a loop as much as of the code. A cell
with fewer than two runs in some layout cannot be judged: it gets a spread but no verdict.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass

from scipy import stats as scipy_stats

from iorace.core.layout import AS_LINKED, PLACEMENT_SENSITIVE

P_SENSITIVE = 0.001  # a make bench judges hundreds of cells: at 0.001, about one false flag in a thousand


@dataclass(frozen=True)
class Placement:
    """A cell's spread over its code layouts."""

    layouts: int  # layouts with timed runs
    spread: float  # the slowest layout's mean over the fastest's, less 1 (0.12: layouts alone move it by 12%)
    fastest: str  # the fastest and slowest layout's names
    slowest: str
    p_value: float | None  # None: too few runs per layout to tell placement from noise
    as_linked: float | None = None  # the as-linked build's mean over the mean of every layout's (None: not among them)

    @property
    def sensitive(self) -> bool:
        return self.p_value is not None and self.p_value < P_SENSITIVE and self.spread > PLACEMENT_SENSITIVE

    def text(self) -> str:
        """The note a report prints beside a placement-sensitive cell ('' for any other: the JSON export keeps
        every cell's spread, also one with too few runs a layout to judge)."""
        if not self.sensitive:
            return ""
        linked = f"; as linked {self.as_linked:.2f}x their mean" if self.as_linked is not None else ""
        moved = f"layouts move it {self.spread:.0%} ({self.slowest} over {self.fastest}, {self.layouts} layouts{linked})"
        return f"placement-sensitive: {moved}"


def placement(
    costs: dict[int, float], layouts: dict[int, int | None], names: list[str], others: dict[int, list[float]]
) -> Placement | None:
    """A cell's Placement from its cost per round, the layout of each round's run and, per round, the costs of
    the other cells of its table in that round; None for a cell of one layout."""
    by_layout: dict[int, list[float]] = defaultdict(list)
    for rnd, cost in costs.items():
        layout = layouts.get(rnd)
        rest = [c for c in others.get(rnd, []) if c > 0]
        if layout is None or cost <= 0 or not rest:
            continue
        by_layout[layout].append(math.log(cost) - statistics.fmean(math.log(c) for c in rest))
    if len(by_layout) < 2:
        return None
    means = {k: statistics.fmean(v) for k, v in by_layout.items()}
    fast, slow = min(means, key=means.__getitem__), max(means, key=means.__getitem__)
    groups = list(by_layout.values())
    p_value = None
    if sum(len(g) for g in groups) > len(groups) and all(len(g) >= 1 for g in groups):
        within = sum(sum((x - statistics.fmean(g)) ** 2 for x in g) for g in groups)
        p_value = 0.0 if within == 0 else float(scipy_stats.f_oneway(*groups).pvalue)
        if math.isnan(p_value):
            p_value = None
    linked = next((k for k in means if _name(names, k) == AS_LINKED), None)
    as_linked = math.exp(means[linked] - statistics.fmean(means.values())) if linked is not None else None
    return Placement(len(by_layout), math.exp(means[slow] - means[fast]) - 1, _name(names, fast), _name(names, slow), p_value, as_linked)


def _name(names: list[str], index: int) -> str:
    return names[index] if 0 <= index < len(names) else f"layout {index}"
