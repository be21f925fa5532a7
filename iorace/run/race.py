"""How many rounds a suite gets, decided between chunks: precision on demand, a time budget, and racing.

pyperf and criterion choose how many values to take; here the unit is a round of every cell (interleaved),
and the question is each cell's ratio to its table's fastest (stats.paired_ratio). After the minimum number
of rounds, measuring goes on until every cell still timed has an interval within the precision asked
(`--precision 2%`), the budget is spent or the maximum number of rounds is reached.

Racing (Maron & Moore's Hoeffding races, Birattari's F-race): a cell whose interval no longer overlaps
any other cell's of its table has a settled place; it stops being timed, so the rounds go where the
ranking is still open (a cell 30x behind the leader needs a few rounds, not as many as the leader's
neighbours). Two slow cells close to each other never part that way (two Python peers, two debug
builds), so, as F-race drops every candidate clearly worse than the best, a cell whose whole interval
lies beyond FAR_BEHIND (2x) the fastest stops too: it decides nothing at the top of its table, and its
place among the laggards (a seed's ratio of two slow cells) keeps the interval its rounds gave. That rule
is judged from RACE_FAR_ROUNDS (2) on: on two rounds the interval is wide (t = 12.7), so only a cell many
times behind stops there (a Python reference, a debug build), and its rounds are the longest of a table.
From RACE_MIN_ROUNDS (3) on, a place may settle, and a cell stops when its whole interval lies beyond those
of its table's TOP_PLACES (3) fastest cells: the rounds past that go to the top of each table, where the
answer (which wins, and by how much) is decided (so with --precision a settled cell among the TOP_PLACES
fastest goes on until it is within it: the precision is asked of how far the leader leads, not only of the
order); and a table whose every cell still timed is within --precision stops whole, so they go to the tables
still open. The precision is judged on the intervals the report will draw, the suite's session level in them
(Plan.level, Race.precision_ratios), unless that level alone is wider than the precision: no round narrows it,
so there the rounds' share is judged and the report says so. A cell's minimum comes from its interval, not a fixed
count: --runs is the minimum of the cells that may still be among the fastest three. The table's fastest
cell and its A/A twin are never stopped: every ratio refers to the one, and the other checks the intervals. A
cell of another kind (bulk, limit) stops from the third round, wherever it lies: it is never a reference and gets
no place. readbytes' folded as-written loops (0.01 instructions a byte, level with each other) otherwise kept every
`--precision` session of readbytes timing them to its budget, and capnp's two `null` limits a table, level with
the fastest and so never apart from it, took 2 of about 11 runs of each round to the end of make bench's budget
and kept its tables from stopping within the precision (docs/results/2026-11-27-paired-fastest).

A table whose rounds are cheap gets more of them (Plan.floor_s, a quarter of --budget-per-table): none of its
cells stops (far behind, settled, behind the top three, within the precision) before min(FLOOR_ROUNDS,
floor_s / its round's seconds) rounds, as pyperf spends a minimum time rather than a count; over K code
layouts, K times as many rounds and seconds (an interval is then over turns of the layouts: Race.floor_rounds). A ratio from 5
rounds has 4 degrees of freedom, a change between two such sessions about 8, and `iorace compare` over 800
cells (Holm: p < 0.05 / 800) then needs t of 7.6 (4.5 from 20 rounds a session). A register-only loop's
planted 10% was flagged in 2 of 5 pairs of make bench sessions: at 5 rounds, and in the fifth pair, with
only the top three kept to the floor, the race stopped it as over 2x behind (2.19x); its table's 20 rounds
cost about 1.3 s of a 6 s budget (docs/results/2026-11-27-cheap-tables).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from iorace.analyse.analysis import TOP_PLACES  # from RACE_MIN_ROUNDS, rounds go to cells that may still be among them
from iorace.analyse.stats import NO_LEVEL, Z95, Level, Ratio, fastest_paired, layout_clusters, paired_ratio
from iorace.core.ids import TableId
from iorace.core.kind import Kind
from iorace.manifest.cells import Cell

RACE_MIN_ROUNDS = 3  # a place is judged on no fewer rounds (t = 4.30 on 2 degrees of freedom: only cells far apart part)
RACE_FAR_ROUNDS = 2  # far behind is judged from two rounds (t = 12.7 on 1 degree of freedom: many times behind only)
# After one round, a cell this many times its table's fastest leaves with a bound, not an interval: it is at least
# FAR_BOUND times behind (a factor over 3 of margin for one run's noise, a displaced run being repeated anyway).
# readbytes' first rounds spent 12.6 s of a 19 s round on 16 cells over 10x behind, timed again in the second.
FIRST_ROUND_FAR = 10.0
FAR_BOUND = 3.0
FAR_BEHIND = 2.0  # F-race's elimination: a cell whose whole interval lies beyond this many times the fastest
FLOOR_ROUNDS = 20  # a cheap table's rounds (turns of its K layouts) at most by its floor: from 20 a ratio is a trimmed mean
FLOOR_SHARE = 0.25  # of --budget-per-table: the seconds of rounds a cheap table is timed whole at least


@dataclass(frozen=True)
class Plan:
    """--runs (the minimum), --max-runs, --precision, --budget and --race of one `iorace run`."""

    min_rounds: int
    max_rounds: int | None = None  # None: min_rounds (a fixed count) unless a precision asks for more
    precision: float | None = None  # a ratio's 95% half-width to reach, e.g. 0.02
    budget_s: float | None = None  # seconds of measuring per suite, at most
    race: bool = False
    floor_s: float | None = None  # seconds of rounds a table is timed whole at least, up to FLOOR_ROUNDS rounds
    level: Level = NO_LEVEL  # the suite's session level, which the report adds to every interval: the precision is judged with it
    block: int = 1  # with a precision, rounds end on a multiple of this unless the budget is spent (a turn of K code layouts)

    @staticmethod
    def floor_of(budget_per_table: float | None, max_rounds: int | None) -> float | None:
        """A cheap table's floor: FLOOR_SHARE of --budget-per-table; none without one, or with --max-runs (the
        user's cap stands)."""
        return None if budget_per_table is None or max_rounds is not None else FLOOR_SHARE * budget_per_table

    @property
    def most_rounds(self) -> int:
        if self.max_rounds is not None:
            return max(self.max_rounds, self.min_rounds)
        return self.min_rounds if self.precision is None else 3 * self.min_rounds


@dataclass
class Race:
    """The state of one suite's rounds: each cell's cost per round, and the cells no longer timed (why)."""

    plan: Plan
    costs: dict[int, dict[int, float]] = field(default_factory=dict)  # id(cell) -> round -> cost
    layouts: dict[int, dict[int, int | None]] = field(default_factory=dict)  # id(cell) -> round -> its code layout
    stopped: dict[int, str] = field(default_factory=dict)  # id(cell) -> why it is no longer timed
    started: float = field(default_factory=time.monotonic)
    shares: dict[int, list[float]] = field(default_factory=dict)  # id(cell) -> CPU share of each timed run so far
    walls: dict[int, list[float]] = field(default_factory=dict)  # id(cell) -> wall seconds of each counted run so far
    repeated: int = 0  # rounds added because a run of theirs was displaced (analyse.contention)
    fee_s: float = 0.0  # wall seconds of the first-round runs of cells that left far behind: not the budget's

    @property
    def repeat_limit(self) -> int:
        """At most this many rounds are repeated for displaced runs: half the minimum (two at least), so a
        machine that stays busy ends the session, marked contended, instead of measuring forever."""
        return max(2, self.plan.min_rounds // 2)

    @property
    def min_rounds(self) -> int:
        return self.plan.min_rounds + self.repeated

    @property
    def most_rounds(self) -> int:
        return self.plan.most_rounds + self.repeated

    def repeat_round(self) -> bool:
        """One more round for a round that had a displaced run; False once the limit is spent."""
        if self.repeated >= self.repeat_limit:
            return False
        self.repeated += 1
        return True

    def median_cost(self, cell: Cell) -> float:
        """Its median cost so far (infinity before its first counted run)."""
        costs = self.costs.get(id(cell))
        return _median(costs) if costs else float("inf")

    def add(self, cell: Cell, round_no: int, cost: float, wall_s: float | None = None, layout: int | None = None) -> None:
        self.costs.setdefault(id(cell), {})[round_no] = cost
        self.layouts.setdefault(id(cell), {})[round_no] = layout
        if wall_s is not None:
            self.walls.setdefault(id(cell), []).append(wall_s)

    def floor_rounds(self, table: list[Cell]) -> int:
        """The rounds before which no cell of this table stops (Plan.floor_s): as many as fit in floor_s at its
        round's cost so far (every cell of it that was timed, its median run each), FLOOR_ROUNDS at most; 0
        without a floor or a timed run."""
        if self.plan.floor_s is None or self.plan.precision is None:  # --precision none: exactly --runs rounds
            return 0
        round_s = sum(statistics.median(w) for c in table if (w := self.walls.get(id(c))))
        # Over K code layouts a round is a K-th of a turn: 20 rounds were 5 runs a layout, and a planted 10% in
        # spin's loop went unflagged, +8.9% [+2.3%, +15.9%] (docs/results/2026-11-28-make-bench-four-layouts).
        # compare judges a cell whose sessions ran the same layouts on the rounds within each pair of layouts
        # (stats.within_layouts_ratio: n - K degrees of freedom), so the floor is FLOOR_ROUNDS turns, in K times
        # the seconds (FLOOR_SHARE x K of --budget-per-table: its whole at K = 4, a budget a table has).
        turns = max(1, self.plan.block)
        return min(FLOOR_ROUNDS * turns, int(self.plan.floor_s * turns / round_s + 1e-9)) if round_s > 0 else 0

    def floor_target(self, cells: list[Cell]) -> int:
        """The highest floor among the tables with a cell still timed (0: none is cheap)."""
        live = [t for t in _tables(cells).values() if any(id(c) not in self.stopped for c in t)]
        floor = max((self.floor_rounds(t) for t in live), default=0)
        return floor + self.repeated if floor else 0

    def ratios(self, cells: list[Cell], level: Level = NO_LEVEL) -> dict[int, Ratio]:
        """Each cell's ratio to its table's fastest compared cell (stats.fastest_paired), over the rounds so far;
        with `level`, its interval as the report draws it (the fastest's own and its A/A twin's without one)."""
        out: dict[int, Ratio] = {}
        for table in _tables(cells).values():
            measured = [c for c in table if self.costs.get(id(c))]
            compared = [c for c in measured if Kind.of(c.variant.kind).compared]
            if not compared:
                continue
            ref_id = fastest_paired({id(c): self.costs[id(c)] for c in compared})  # in shared rounds, as the report judges it
            ref = next(c for c in compared if id(c) == ref_id)
            for c in measured:
                same = c is ref or Kind.of(c.variant.kind) is Kind.CONTROL  # one program: no session level between them
                clusters = layout_clusters(self.layouts.get(id(c), {}), self.layouts.get(id(ref), {}))  # as the report judges it
                if (r := paired_ratio(self.costs[id(c)], self.costs[id(ref)], NO_LEVEL if same else level, clusters)) is not None:
                    out[id(c)] = r
        return out

    def precision_ratios(self, cells: list[Cell], plain: dict[int, Ratio] | None = None) -> dict[int, Ratio]:
        """The ratios the precision is judged on: as the report will show them, the suite's session level in
        their intervals, wherever the precision is within its reach; the rounds alone where the level by itself
        is wider (Z95 x it at or beyond the precision: no number of rounds reaches it, and the report says so,
        report.document.precision_floors). Judged on the rounds alone, a --precision 2 session of serialize
        ended with top ratios at +-2.1% in the report. `plain`: self.ratios(cells), when the caller has them."""
        plain = self.ratios(cells) if plain is None else plain
        if not self.plan.level or self.plan.precision is None:
            return plain
        out = {}
        for key, r in self.ratios(cells, self.plan.level).items():
            out[key] = r if Z95 * r.between < self.plan.precision else plain[key]
        return out

    def settle(self, cells: list[Cell], rounds_done: int) -> list[Cell]:
        """Racing: the cells whose place in their table is settled now (and were still timed); marks them."""
        if not self.plan.race or rounds_done < 1:
            return []
        if rounds_done < RACE_FAR_ROUNDS:
            return self._far_after_one_round(cells)
        judged = rounds_done >= RACE_MIN_ROUNDS  # places and the top three; before, only far behind
        ratios = self.ratios(cells)
        widths = self.precision_ratios(cells, ratios)
        settled = []
        for table in _tables(cells).values():
            if rounds_done < self.floor_rounds(table):
                continue  # a cheap table is timed whole to its floor: any cell of it may be the one that changes
            live = [c for c in table if id(c) in ratios]
            top = _top_ids(live, ratios)
            for c in live:
                wide = self.plan.precision is not None and _wider_than(widths[id(c)], self.plan.precision)
                if id(c) not in self.stopped and (why := _why_stop(c, live, ratios, judged, id(c) in top and wide)):
                    self.stopped[id(c)] = f"stopped after {ratios[id(c)].n} rounds: {why} (race)"
                    settled.append(c)
            settled += self._within_precision(table, widths, rounds_done)
        return settled

    def _far_after_one_round(self, cells: list[Cell]) -> list[Cell]:
        """After the first round: a cell FIRST_ROUND_FAR times its table's fastest leaves with a bound (at least
        FAR_BOUND times behind), not an interval: one run cannot give one, and a second round of such a cell
        costs the most and decides nothing at the top. Not in a cheap table short of its floor."""
        out = []
        for table in _tables(cells).values():
            if self.floor_rounds(table) > 1:
                continue
            compared = [c for c in table if Kind.of(c.variant.kind).compared and self.costs.get(id(c))]
            if len(compared) < 2:
                continue
            fastest = min(self.median_cost(c) for c in compared)
            for c in compared:
                times = self.median_cost(c) / fastest if fastest > 0 else 0.0
                if id(c) not in self.stopped and times >= FIRST_ROUND_FAR:
                    self.fee_s += sum(self.walls.get(id(c), []))
                    self.stopped[id(c)] = (
                        f"stopped after 1 round: at least {FAR_BOUND:g}x behind the fastest (a bound, not an interval:"
                        f" {times:.0f}x its time in the first round) (race)"
                    )
                    out.append(c)
        return out

    def _within_precision(self, table: list[Cell], ratios: dict[int, Ratio], rounds_done: int) -> list[Cell]:
        """A table whose every cell still timed is within the precision asked, after the minimum rounds, is done:
        all of it stops (its fastest and A/A twin too, since no ratio needs them any more), so the rounds that
        the budget buys go to the tables still open."""
        if self.plan.precision is None or rounds_done < self.min_rounds:
            return []
        live = [c for c in table if id(c) in ratios and id(c) not in self.stopped]
        if not live:
            return []
        if any(_wider_than(ratios[id(c)], self.plan.precision) for c in live):
            return []
        for c in live:
            self.stopped[id(c)] = (
                f"stopped after {ratios[id(c)].n} rounds: its table is within the precision asked (+-{self.plan.precision:.1%})"
            )
        return live

    def more_rounds(self, cells: list[Cell], rounds_done: int) -> bool:
        """Whether another round is needed: below the minimum; else, with a precision, while a cell still
        timed is wider than it, within the budget and the maximum; and, with code layouts, until the rounds
        end a turn (every cell then ran each of its layouts alike), unless the budget is spent."""
        if self._more_rounds(cells, rounds_done):
            return True
        in_block = self.plan.precision is not None and rounds_done % self.plan.block != 0  # --precision none: exactly --runs
        return in_block and not self._budget_spent()

    def _budget_spent(self) -> bool:
        """The budget buys rounds for the cells still in the race: the one run of each cell that left far behind
        after the first round (fee_s) is the price of timing every cell once, not of precision. Counted, rdb's
        slow parsers spent 46 s of its 40 s budget in the first round, and its fastest parsers ended at 5 rounds
        with intervals of +-16-26% (docs/results/2026-11-28-make-bench-four-layouts)."""
        if self.plan.budget_s is None:
            return False
        return time.monotonic() - self.started - self.fee_s >= self.plan.budget_s

    def _more_rounds(self, cells: list[Cell], rounds_done: int) -> bool:
        if rounds_done < self.min_rounds:
            return True
        if self._budget_spent():
            return False
        if rounds_done < self.floor_target(cells):
            return True  # a cheap table is short of its floor
        if rounds_done >= self.most_rounds or self.plan.precision is None:
            return False
        return bool(self.too_wide(cells))

    def too_wide(self, cells: list[Cell]) -> list[tuple[Cell, float]]:
        """Cells still timed whose interval is wider than the precision asked, with their half-width."""
        if self.plan.precision is None:
            return []
        ratios = self.precision_ratios(cells)
        out = []
        for c in cells:
            r = ratios.get(id(c))
            if r is None or id(c) in self.stopped:
                continue
            if _wider_than(r, self.plan.precision):
                out.append((c, r.half_width if r.half_width is not None else float("inf")))
        return out


def _why_stop(c: Cell, live: list[Cell], ratios: dict[int, Ratio], judged: bool, open_top: bool = False) -> str | None:
    """Why the race stops timing `c` now (None: it goes on); `judged`: from RACE_MIN_ROUNDS on; `open_top`: it is
    among its table's TOP_PLACES fastest and wider than --precision, so a settled place does not stop it: the
    precision is asked of the ratios at the top (by how much the leader leads), not only of their order."""
    r = ratios[id(c)]
    kind = Kind.of(c.variant.kind)
    if r.low is None or r.high is None or kind is Kind.CONTROL:
        return None
    if not kind.compared:  # a folded as-written loop, a bulk copy, a limit: never anyone's reference, never ranked
        if not judged:
            return None
        where = "faster than its table's fastest" if r.high < 1.0 else "timed"
        return f"{where} by another method ({kind.value}): it decides no place"
    if r.value <= 1.0:
        return None  # the fastest (and anything level with it) is always timed
    if judged and not open_top and all(_apart(r, ratios[id(o)]) for o in live if o is not c):
        return "its place is settled"
    if r.low > FAR_BEHIND:
        return f"over {FAR_BEHIND:g}x behind the fastest"
    if judged and r.low > _top_high(live, ratios, c):
        return f"behind the fastest {TOP_PLACES}"
    return None


def _top_ids(live: list[Cell], ratios: dict[int, Ratio]) -> set[int]:
    """id() of the table's TOP_PLACES fastest compared cells by ratio, its fastest among them."""
    compared = sorted((c for c in live if Kind.of(c.variant.kind).compared), key=lambda c: ratios[id(c)].value)
    return {id(c) for c in compared[:TOP_PLACES]}


def _wider_than(r: Ratio, precision: float) -> bool:
    """An interval wider than the precision asked (the fastest's own 1 +- 0 never is)."""
    is_reference = r.value == 1.0 and r.low == r.high
    return not is_reference and (r.half_width is None or r.half_width > precision)


def _top_high(live: list[Cell], ratios: dict[int, Ratio], cell: Cell) -> float:
    """The highest upper end among the intervals of the table's TOP_PLACES fastest compared cells other than
    `cell` (by ratio): a cell whose interval starts beyond it cannot be among the fastest TOP_PLACES.
    Infinity while some of them have no interval yet, or the table has too few cells to say."""
    rivals = sorted((ratios[id(o)] for o in live if o is not cell and Kind.of(o.variant.kind).compared), key=lambda r: r.value)
    top = rivals[:TOP_PLACES]
    if len(top) < TOP_PLACES or any(r.high is None for r in top):
        return float("inf")
    return max(r.high for r in top if r.high is not None)


def _apart(a: Ratio, b: Ratio) -> bool:
    """Two intervals that do not overlap (a cell without an interval is never apart from anything)."""
    if a.low is None or a.high is None or b.low is None or b.high is None:
        return False
    return a.low > b.high or b.low > a.high


def _tables(cells: list[Cell]) -> dict[TableId, list[Cell]]:
    out: dict[TableId, list[Cell]] = {}
    for c in cells:
        out.setdefault(c.table, []).append(c)
    return out


def _median(values: dict[int, float]) -> float:
    ordered = sorted(values.values())
    n = len(ordered)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
