"""The overview's answer per suite: each language x toolchain's best cell, over every table of the suite.

A session of six suites has some forty tables (one per dataset x parameters); a reader who opens the report
first wants "who wins, by how much" per suite, not the first of those tables. Within one table a ratio to
its fastest cell compares like with like; across tables only such ratios can be summarised, so each
language x toolchain gets the geometric mean of its best cell's ratio over the tables it ran in, the range,
and how many tables it won.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from iorace.analyse.analysis import Group, Row

# What every leaders table's numbers are, said once per report (each table's caption points here).
EXPLAINED = (
    "In each table of a suite (one per dataset x parameters), every language x toolchain's fastest variant or "
    "peer, any profile, as a ratio to the table's fastest cell, round by round; per suite, the geometric mean of "
    "those ratios and their range over the tables it ran in, and the tables it won. Limit, bulk and A/A rows are "
    "left out: they use another method or are controls. Each table below the overview has every ratio's 95% interval."
)


@dataclass
class LeaderRow:
    language: str
    toolchain: str
    ratios: list[float] = field(default_factory=list)  # per table it ran in: its best cell's x fastest
    won: int = 0  # tables whose fastest cell is its best cell
    variants: Counter = field(default_factory=Counter)  # its best cell's "variant profile", per table

    @property
    def geomean(self) -> float:
        return statistics.geometric_mean(self.ratios)

    @property
    def tables(self) -> int:
        return len(self.ratios)

    @property
    def usual_best(self) -> str:
        """Its best cell's variant (and profile) in most tables, and how many others there were."""
        (name, _), *others = self.variants.most_common()
        return name + (f" (+{len(others)} other)" if others else "")


@dataclass
class LeaderTable:
    suite: str
    tables: int  # the suite's tables with a fastest cell in this session
    rows: list[LeaderRow]  # closest to the fastest first


def leaders(groups: list[Group]) -> list[LeaderTable]:
    """Per suite (in the session's order), each language x toolchain's best compared cell (a variant or a
    peer: limit, bulk and A/A rows use another method or are controls) per table, as that table's ratio to
    its fastest, the paired per-round ratio the table prints."""
    by_suite: dict[str, dict[tuple[str, str], LeaderRow]] = {}
    counted: Counter = Counter()
    for g in groups:
        fastest = g.fastest
        if fastest is None:
            continue
        counted[g.suite] += 1
        rows = by_suite.setdefault(g.suite, {})
        for best in _best_per_language_toolchain(g):
            ratio = 1.0 if best is fastest else (best.vs_fastest.value if best.vs_fastest else best.cost / fastest.cost)
            row = rows.setdefault((best.cell.language, best.cell.toolchain), LeaderRow(best.cell.language, best.cell.toolchain))
            row.ratios.append(ratio)
            row.won += best is fastest
            row.variants[f"{best.cell.variant} {best.cell.profile}"] += 1
    return [
        LeaderTable(suite, counted[suite], sorted(rows.values(), key=lambda r: (r.geomean, -r.won, r.language, r.toolchain)))
        for suite, rows in by_suite.items()
    ]


def _best_per_language_toolchain(g: Group) -> list[Row]:
    """The fastest compared row of each language x toolchain (any profile) in one table."""
    best: dict[tuple[str, str], Row] = {}
    for r in g.best_per_toolchain():  # fastest first, per language x toolchain x profile
        best.setdefault((r.cell.language, r.cell.toolchain), r)
    return list(best.values())
