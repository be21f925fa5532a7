"""`iorace compare A B`: did anything get slower between two sessions? The judging (its sides are read in
sides.py, its table and lines drawn in draw.py).

Per cell present on both sides: the change of its ratio to its reference (the typical mover of the cells of
its table it shared rounds with: pairable), each side's ratio paired round by round (stats.paired_ratio),
tested by t = (ln r_B - ln r_A) / sqrt(se_A^2 + se_B^2 + tau_A^2 + tau_B^2) with Welch's degrees of freedom
from both sides' rounds, tau each side's session level (ratio_change; for a suite neither side carries one
for, fitted on the two sides themselves: fitted_levels): what moved the whole machine between two sessions
does not move a ratio, and the test is that of a repeat (Cumming & Maillardet), not "is B inside A's
interval". The reference of a table of two, and a cell with no reference, is compared by its times (ratio
of medians with a bootstrap interval, Mann-Whitney U, as asv and benchstat do); a cell of a larger table
that no other cell shared rounds with is shown by them, not judged. A cell regressed when the test is
significant, the interval excludes 1 and the change is beyond the threshold; instruction counts, where both
sides have them, are exact and compared without a test. Cells that changed status, appeared or disappeared are listed.
"""

from __future__ import annotations

import dataclasses
import json
import math
import statistics
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

from iorace.analyse.analysis import AA_SUFFIX
from iorace.analyse.rules import ALPHA, DEFAULT_RULE, Rule, direction
from iorace.analyse.session_spread import MIN_CHANGES, MIN_ROUNDS, RatioStep, fit
from iorace.analyse.stats import NO_LEVEL, Level, Ratio, layout_clusters, median_ratio, paired_ratio, within_layouts_ratio
from iorace.compare.sides import CellSample, Side
from iorace.core import machine
from iorace.core.errors import UsageError
from iorace.core.ids import CellId, TableId
from iorace.core.kind import Kind
from iorace.core.status import Status
from iorace.core.verdict import Verdict


@dataclass
class Change:
    a: CellSample
    b: CellSample
    ratio: Ratio | None = None  # B / A, with its 95% interval: of the ratio to the table's reference, or of medians
    p_value: float | None = None  # two-sided, Holm-adjusted over the comparison's cells: t test of the ratios, or Mann-Whitney
    instructions_change: float | None = None  # B / A - 1, exact
    verdict: Verdict = Verdict.SAME
    reference: str = ""  # the cell whose ratio is compared against ("" : absolute times, drift between sessions included)
    own: Ratio | None = None  # B / A of the cell's own times (ratio of medians, bootstrap interval): the machine's move included
    own_p: float | None = None  # Mann-Whitney U of its own times, Holm-adjusted over the comparison's cells
    by_own: bool = False  # judged by its own times: in a table of two, the other cell held while it moved
    estimated_cycles_change: float | None = None  # B / A - 1 of cachegrind's estimated cycles, exact
    df: float | None = None  # Welch's degrees of freedom of its ratio's test (None: the normal, or its own times)
    unpaired: bool = False  # in a table of three or more, no other cell shared MIN_PAIRED rounds with it: not judged
    layouts_held: bool = False  # both sides ran the same code layouts of it and its reference: judged within them

    @property
    def significant(self) -> bool:
        return (
            self.p_value is not None
            and self.p_value < ALPHA
            and self.ratio is not None
            and self.ratio.low is not None
            and not self.ratio.overlaps_one()
        )


@dataclass
class TableMove:
    """Every compared cell of a table moved the same way, each by its own times: a change of what they share
    (a library, the compiler, the machine), said as such instead of divided away."""

    table: TableId
    ratio: Ratio  # the reference's own change (the typical mover's), with its interval
    cells: int
    direction: int  # +1 slower, -1 faster
    machine: list[str] = field(default_factory=list)  # what of the machine changed between A and B ([] : nothing)

    @property
    def text(self) -> str:
        t = self.table
        params = " ".join(f"{k}={v}" for k, v in json.loads(t.params or "{}").items())
        where = f"{t.suite} {t.dataset}" + (f" {params}" if params else "")
        if self.machine:
            return (
                f"{where}: every cell moved {change_text(self.ratio)} together ({self.cells} cells, each by its own times): "
                f"the machine changed, not the code ({'; '.join(self.machine)}); not counted as a regression"
            )
        return f"{where}: every cell moved {change_text(self.ratio)} ({self.cells} cells, each by its own times)"


@dataclass
class Comparison:
    a: Side
    b: Side
    threshold: float
    changes: list[Change] = field(default_factory=list)
    status_changes: list[tuple[CellSample, CellSample]] = field(default_factory=list)
    appeared: list[CellSample] = field(default_factory=list)
    disappeared: list[CellSample] = field(default_factory=list)
    rule: Rule = DEFAULT_RULE
    moves: list[TableMove] = field(default_factory=list)
    persisted: list[str] = field(default_factory=list)  # rule persist: the later sessions B was judged with
    drift: Drift | None = None  # how the tables' own times moved between A and B (None: too few tables to say)
    # the session level each suite's ratios were judged with when neither side carried one (fitted_levels: on
    # this comparison's own pairs of cells); None: each side's own, fitted on its machine's earlier sessions
    fitted: dict[str, Level] | None = None

    @property
    def regressions(self) -> list[str]:
        """One line per cell that got significantly slower beyond the threshold, or broke, and per table whose
        every cell did on the same machine."""
        out = [f"{c.a.name}: {describe(c)}" for c in self.changes if c.verdict is Verdict.REGRESSED]
        out += [m.text for m in self.moves if m.direction > 0 and not m.machine]
        out += [f"{a.name}: {a.status} -> {b.status}" for a, b in self.status_changes if a.status == Status.OK and _broken(b.status)]
        return out

    @property
    def geomean(self) -> float | None:
        ratios = [c.ratio.value for c in self.changes if c.ratio is not None and c.ratio.value > 0]
        return statistics.geometric_mean(ratios) if ratios else None


def _broken(status: str) -> bool:
    """An ok cell that becomes a bad status (Status.bad) regressed."""
    known = Status.of(status)
    return known is not None and known.bad


# --- comparing ------------------------------------------------------------------------------------


def compare(a: Side, b: Side, threshold: float = 0.05, between: float = 0.0, rule: Rule = DEFAULT_RULE) -> Comparison:
    """Every cell of both sides, each table's reference included: its change, judged by `rule` against the
    noise of both sessions and their session levels (each side's own, at least `between`, the standard
    deviation of a log ratio from session to session); then each table whose every cell moved alike (TableMove)."""
    if not a.suites & b.suites:
        raise UsageError(
            f"{a.name} and {b.name} have no suite in common ({', '.join(sorted(a.suites)) or 'none'}"
            f" vs {', '.join(sorted(b.suites)) or 'none'}): nothing to compare"
        )
    result = Comparison(a, b, threshold, rule=rule)
    refs = references(a, b)
    result.fitted = fitted_levels(a, b, refs)
    if result.fitted is not None:
        # judged with the fitted levels; result.a and .b stay the sides given (rule persist compares them again)
        a, b = (_with_levels(side, result.fitted) for side in (a, b))
        refs = references(a, b)
    bs = {c.ident: c for c in b.cells}
    as_ = {c.ident: c for c in a.cells}
    for i, ca in enumerate(a.cells):
        cb = bs.get(ca.ident)
        if cb is None:
            result.disappeared.append(ca)
            continue
        if ca.status != cb.status:
            result.status_changes.append((ca, cb))
        if ca.status == cb.status == Status.OK:
            movers = refs.get(ca.table, [])
            # the reference's own reference is the next typical mover, with three cells or more: of two, each
            # one's ratio to the other is the other's inverse, and the reference is judged by its own times
            others = [m for m in movers if m[0].ident != ca.ident] if len(movers) > 2 or movers[:1] != [(ca, cb)] else []
            ref = pairable(ca, cb, others)
            unpaired = ref is None and len(movers) > 2  # a table of three or more, and no cell shares its rounds
            twin_of = _original(ca, as_, bs)
            if twin_of is not None:
                # an A/A twin is its original again: what it shows across sessions is whether the two still
                # agree (a program against itself has no session level); against the table's reference it
                # would repeat its original's verdict with another interval (+122% flagged where the original,
                # the same program, was not: docs/results/2026-11-27-session-level-fit)
                ref = twin_of
            ch = _change(ca, cb, threshold, seed=i, refs=ref, between=between, rule=rule, aa=twin_of is not None)
            if unpaired and twin_of is None and ch.own is not None:
                # its own times carry the machine's move between the sessions, which only a ratio to a cell of
                # the same rounds takes out (make bench's serialize table: the four ser-fixed cells, 64 rounds
                # each, ran 27-31% faster by their own times, the table's typical cell 19%, raced out after one
                # round, and were called improved; their ratios to go/ser-fixed, 13 rounds in common, moved
                # -1% and +11%): shown, not judged
                ch.ratio, ch.p_value, ch.unpaired = Ratio(ch.own.value, None, None), None, True
                ch.verdict = Verdict.SAME
            ch.by_own = ref is None and bool(movers) and not ch.unpaired
            result.changes.append(ch)
    result.appeared = [c for c in b.cells if c.ident not in as_]
    _holm(result.changes, threshold, rule)
    _tables(result, refs)
    return result


def fitted_levels(a: Side, b: Side, refs: dict[TableId, list[tuple[CellSample, CellSample]]]) -> dict[str, Level] | None:
    """The session level of each suite neither side carries one for (the first sessions of a store, a JSON
    export of one: no earlier sessions to fit it on), fitted on this comparison's own cells; None when every
    suite has one on a side (its own, fitted on its machine's earlier sessions, rests on more than two).

    A and B are two sessions: within each table, the cells of both taken two by two (disjoint pairs, in
    identity order, MIN_ROUNDS rounds at least, as session_spread.changes takes two stored sessions) give each
    pair's change of log ratio between them and its rounds' share of it, and session_spread.fit finds the level
    at which the median of those changes' Student-t p is 1/2: the same estimator, on the same two sessions the
    test is then made on. The median makes it robust to a few cells whose code changed (they are what the
    comparison is after); a comparison where most cells changed fits a level that hides some. A suite with
    MIN_CHANGES such pairs gets its own sd; one with fewer the level of every suite's pairs, relative to each
    pair's per-round sd (session_spread's rule: spin's quiet loops move less than capnp's), or none when the
    whole comparison has too few. Without it two sessions of unchanged binaries differ in the ratio of two of
    their cells by more than their rounds allow: in make bench's serialize tables (two sessions of one commit,
    docs/results/2026-11-28-make-bench-with-formats) a D decoder's ratio to the C++ one moved -14.5%, its
    interval +-4.5% from 60 rounds a side."""
    carried = {c.suite for c in a.cells + b.cells if c.level}
    bare = sorted((a.suites & b.suites) - carried)
    if not bare:
        return None
    steps: dict[str, list[RatioStep]] = {}
    for table, pairs in refs.items():
        ordered = sorted(pairs, key=lambda p: p[0].ident)
        for (xa, xb), (ya, yb) in zip(ordered[::2], ordered[1::2], strict=False):
            ra, rb = paired_ratio(ya.rounds, xa.rounds), paired_ratio(yb.rounds, xb.rounds)
            if ra is None or rb is None or ra.se_log is None or rb.se_log is None or min(ra.n, rb.n) < MIN_ROUNDS:
                continue
            steps.setdefault(table.suite, []).append(RatioStep(math.log(rb.value / ra.value), ra.se_log, ra.n, rb.se_log, rb.n))
    every = [step for found in steps.values() for step in found]
    relative = Level(per_round=fit(every, relative=True)) if len(every) >= MIN_CHANGES else None
    out = {}
    for suite in bare:
        found = steps.get(suite, [])
        level = Level(sd=fit(found)) if len(found) >= MIN_CHANGES else relative
        if level is not None:
            out[suite] = level
    return out


def _with_levels(side: Side, levels: dict[str, Level]) -> Side:
    cells = [dataclasses.replace(c, level=levels[c.suite]) if c.suite in levels else c for c in side.cells]
    return dataclasses.replace(side, cells=cells)


def _original(twin: CellSample, a: dict[CellId, CellSample], b: dict[CellId, CellSample]) -> tuple[CellSample, CellSample] | None:
    """An A/A twin's original on both sides (both ok and timed by round), or None for any other cell."""
    if Kind.of(twin.kind) is not Kind.CONTROL or not twin.key.endswith(AA_SUFFIX):
        return None
    ident = dataclasses.replace(twin.ident, key=twin.key.removesuffix(AA_SUFFIX))
    oa, ob = a.get(ident), b.get(ident)
    if oa is None or ob is None or not (oa.status == ob.status == Status.OK) or not (oa.rounds and ob.rounds):
        return None
    return oa, ob


def _holm(changes: list[Change], threshold: float, rule: Rule = DEFAULT_RULE) -> None:
    """Holm's step-down correction over the cells of one comparison: each p becomes the family-wise one, and
    verdicts are judged again with it. Forty cells tested at 5% each would flag two of unchanged code by
    chance in most comparisons; a regression gate must not (measured: 5 false flags in 19 comparisons of
    20 sessions of unchanged code before, docs/results/2026-11-23-compare-false-alarms/aa-and-compare.txt). The cells' own times' p
    (Mann-Whitney) are adjusted the same way, apart."""
    for get, put in ((lambda c: c.p_value, "p_value"), (lambda c: c.own_p, "own_p")):
        tested = sorted((c for c in changes if get(c) is not None), key=lambda c: get(c) or 0.0)
        m, running = len(tested), 0.0
        for i, c in enumerate(tested):
            running = max(running, min(1.0, (m - i) * (get(c) or 0.0)))
            setattr(c, put, running)
    for c in changes:
        if c.verdict in (Verdict.REGRESSED, Verdict.IMPROVED, Verdict.SAME):
            _judge(c, threshold, rule)


def _tables(cmp: Comparison, refs: dict[TableId, list[tuple[CellSample, CellSample]]]) -> None:
    """Per table (two compared cells at least), from each cell's own times: every cell moved the same way by
    the rule -> a TableMove, and its reference's verdict says so; else, in a table of two, a cell whose own
    times moved by the rule while the other's did not is judged by them (a ratio of two cannot tell which one
    moved). With three cells or more every cell has its ratio, the reference too, and own times across
    sessions carry the machine's drift besides: one cell's, significant only because it had more rounds than
    the rest, is not a change (make bench's lines table, docs/results/2026-11-26-session-level). A table's move on
    a machine whose fingerprint or context (kernel, mitigations, filesystem) changed between A and B is said,
    not failed."""
    by_table: dict[TableId, list[Change]] = {}
    for c in cmp.changes:
        if c.a.table in refs and Kind.of(c.a.kind).compared and c.own is not None:
            by_table.setdefault(c.a.table, []).append(c)
    machine_changes = _machine_changes(cmp)
    cmp.drift = _drift(by_table)
    for table, cells in by_table.items():
        if len(cells) < 2:
            continue
        dirs = [direction(cmp.rule, c.own, c.own_p, cmp.threshold) for c in cells]
        reference = refs[table][0][0].ident
        if dirs[0] != 0 and len(set(dirs)) == 1 and not _within_drift(cells, cmp.drift):
            ref = next(c for c in cells if c.a.ident == reference)
            assert ref.own is not None
            cmp.moves.append(TableMove(table, ref.own, len(cells), dirs[0], machine_changes))
            if ref.verdict is Verdict.SAME or ref.by_own:
                ref.verdict = Verdict.MOVED
            continue
        if len(cells) == 2:
            _by_own_times(cells, dirs)
    _suite_moves(cmp, by_table)


def _suite_moves(cmp: Comparison, by_table: dict[TableId, list[Change]]) -> None:
    """Every table of a suite (two at least) moved the same way: what they all share is the machine (two
    contended sessions moved every cell of a suite +114%), not each table's code, which a compiler's new
    version would name (it is the code's, and not taken for the machine). One table moving whole on a machine
    that did not change stays a regression: a library only it uses."""
    tables: dict[str, list[TableId]] = {}
    for table, cells in by_table.items():
        if len(cells) >= 2:
            tables.setdefault(table.suite, []).append(table)
    if any(c.a.toolchain_version != c.b.toolchain_version for c in cmp.changes):
        return
    for suite, ids in tables.items():
        moves = [m for m in cmp.moves if m.table.suite == suite]
        if len(ids) >= 2 and len(moves) == len(ids) and len({m.direction for m in moves}) == 1:
            for m in moves:
                m.machine = [*m.machine, f"every one of suite {suite}'s {len(ids)} tables moved the same way"]


@dataclass(frozen=True)
class Drift:
    """How the tables' own times moved between A and B, each table by the median of its compared cells' log
    own ratios: their median and robust sd (1.4826 MAD) over `tables` tables. This VM runs in two speeds;
    between make bench's consecutive sessions the tables' typical moves spread with an sd of 7-9% around +4-7%
    (docs/results/2026-11-27-cheap-tables), so every cell of one table moving alike by 8% is the machine."""

    median: float
    sd: float
    tables: int

    def text(self) -> str:
        return (
            f"the tables' own times moved a median {math.expm1(self.median):+.1%} (sd {self.sd:.1%} from table to table, "
            f"{self.tables} tables) between A and B: a whole table is said to move only beyond that"
        )


DRIFT_TABLES = 8  # tables needed to tell the machine's drift from one table's move (fewer: every move counts)


def _table_move(cells: list[Change]) -> float:
    """A table's typical move by its own times: the median of its cells' log own ratios."""
    return statistics.median(math.log(c.own.value) for c in cells if c.own)


def _drift(by_table: dict[TableId, list[Change]]) -> Drift | None:
    moves = [_table_move(cells) for cells in by_table.values() if len(cells) >= 2]
    if len(moves) < DRIFT_TABLES:
        return None
    centre = float(np.median(moves))
    return Drift(centre, 1.4826 * float(np.median([abs(m - centre) for m in moves])), len(moves))


def _within_drift(cells: list[Change], drift: Drift | None) -> bool:
    """Whether a table whose every cell moved alike moved no more than the comparison's tables do, by Holm's
    first bar over its tables (normal, on the robust sd): a move of what the table's cells share stands out."""
    if drift is None or drift.sd <= 0:
        return False
    p = 2 * float(sps.norm.sf(abs(_table_move(cells) - drift.median) / drift.sd))
    return p * drift.tables >= ALPHA


def _by_own_times(cells: list[Change], dirs: list[int]) -> None:
    """A table of two that did not move as a whole: a cell whose own times moved by the rule while the other's
    held is judged by them; the other one's ratio to it (that move, inverted) is not a change."""
    for c, d in zip(cells, dirs, strict=True):
        other_held = all(_own_held(o) for o in cells if o is not c)
        if d != 0 and (c.verdict is Verdict.SAME or c.by_own) and other_held:
            c.by_own = True
            c.verdict = Verdict.REGRESSED if d > 0 else Verdict.IMPROVED
        elif c.by_own and not other_held and c.verdict in (Verdict.REGRESSED, Verdict.IMPROVED):
            c.verdict = Verdict.SAME  # its own times moved, and so did the other's: a ratio of two cannot tell
    moved = [c for c in cells if c.by_own and c.verdict in (Verdict.REGRESSED, Verdict.IMPROVED)]
    if moved:
        for o in cells:
            if o not in moved and _own_held(o) and not o.by_own and o.verdict in (Verdict.REGRESSED, Verdict.IMPROVED):
                o.verdict = Verdict.SAME


def _own_held(c: Change) -> bool:
    """No significant change of its own times (p >= ALPHA, or an interval covering 1)."""
    return c.own_p is None or c.own_p >= ALPHA or c.own is None or c.own.overlaps_one()


def _machine_changes(cmp: Comparison) -> list[str]:
    """What of the machine changed between A and B: a side measured on a busy machine (contended), its
    fingerprint, kernel, mitigations, data filesystem (a toolchain's version is the code's: a compiler
    regression is a regression)."""
    busy = [f"{side.name} was measured on a busy machine" for side in (cmp.a, cmp.b) if side.context.get("contended")]
    a, b = cmp.a.context, cmp.b.context
    if not a or not b:
        return busy
    out = busy
    if a["fingerprint"] != b["fingerprint"]:
        out.append(f"fingerprint {a['fingerprint'] or '?'} -> {b['fingerprint'] or '?'}")
    out += [line for line in machine.context_changes(a["context"], b["context"]) if not line.startswith("toolchain ")]
    return out


MIN_PAIRED = 2  # rounds two cells must share on each side for their ratio to have a standard error


def _shared(x: CellSample, y: CellSample) -> int:
    return len(x.rounds.keys() & y.rounds.keys())


def pairable(ca: CellSample, cb: CellSample, movers: list[tuple[CellSample, CellSample]]) -> tuple[CellSample, CellSample] | None:
    """The cell's reference: the typical mover (as references() ranks them) among the cells of `movers` that
    shared MIN_ROUNDS rounds with it on each side (a ratio's standard error from fewer is too rough to judge
    with), else MIN_PAIRED; None when none did. Where every cell ran every round, that is the table's reference.

    With racing, the table's typical mover is often a cell raced out after a round or two, and the cells that
    ran on (the fastest, the contenders) share no rounds with it: no ratio to it can be formed. Their ratio to
    the typical mover of the cells they did run beside is the comparison the reference stands for (what moved
    the machine between the sessions cancels in it); judging them by their own times instead put the machine's
    move into their verdicts (docs/results/2026-11-28-make-bench-with-formats: four cells "improved" 27-31%).
    The typical one of those cells, the cell itself counted, not the first of them in the table's order: a
    contender that changed is then never the others' reference (of four contenders, one 10% slower, the
    nearest to the table's typical move would be the slower one, and the three unchanged "improved")."""
    for least in (MIN_ROUNDS, MIN_PAIRED):
        group = [m for m in movers if _shared(ca, m[0]) >= least and _shared(cb, m[1]) >= least]
        if group:
            typical = float(np.median([_move(ca, cb), *(_move(ma, mb) for ma, mb in group)]))
            return min(group, key=lambda m: (round(abs(_move(*m) - typical), 9), abs(_move(*m))))
    return None


def _move(ca: CellSample, cb: CellSample) -> float:
    """A cell's log change of median between the sides (its own times: the machine's move included)."""
    return math.log(float(np.median(cb.values)) / float(np.median(ca.values)))


def references(a: Side, b: Side) -> dict[TableId, list[tuple[CellSample, CellSample]]]:
    """Each table's compared cells ok on both sides (two at least), the typical mover first: the one whose
    change of median is nearest the median of all cells' log changes (of two, the smaller change); the
    second is the first one's own reference.

    Comparing each cell's ratio to it, round by round in each session, leaves out what moved the whole
    machine between the sessions (another tenant, the host's clock), which a comparison of absolute times
    calls a change of every cell; and the reference being the typical mover, one cell that really changed
    is never taken for the machine (three cells or more). What every cell shares is judged apart, from
    each cell's own times (compare's TableMove)."""
    bs = {c.ident: c for c in b.cells}
    tables: dict[TableId, list[tuple[CellSample, CellSample]]] = {}
    for ca in a.cells:
        cb = bs.get(ca.ident)
        if cb is None or ca.status != Status.OK or cb.status != Status.OK or not Kind.of(ca.kind).compared:
            continue
        if ca.rounds and cb.rounds and ca.metric == cb.metric:
            tables.setdefault(ca.table, []).append((ca, cb))
    out = {}
    for table, pairs in tables.items():
        if len(pairs) < 2:
            continue
        moves = [_move(ca, cb) for ca, cb in pairs]
        typical = float(np.median(moves))
        ranked = sorted(zip(moves, pairs, strict=True), key=lambda mp: (round(abs(mp[0] - typical), 9), abs(mp[0])))
        out[table] = [pair for _, pair in ranked]
    return out


def ratio_change(ra: Ratio, rb: Ratio, between: float = 0.0) -> tuple[Ratio, float]:
    """rb / ra as a Ratio with its 95% interval, and the two-sided p of t = (ln rb - ln ra) / se, se the
    standard errors of both and each side's session level (its Ratio's `between`, at least `between`)
    combined (Cumming & Maillardet: the test of a repeat, not "inside the first interval"; a ratio moves from
    one session to the next on this machine by its session level, whatever the code did). Each standard
    error comes from a session's few rounds (5 to 15 in make bench) and is itself uncertain: the test takes
    Student's t with Welch-Satterthwaite's degrees of freedom from both sides' rounds, not the normal
    distribution, which flagged 11.6 unchanged cells per 100 comparisons of a 6-cell table on synthetic
    sessions (tools/changepoint_bench.py); the normal stays only where a side's rounds are unknown."""
    d = math.log(rb.value) - math.log(ra.value)
    sa, sb = ra.se_log or 0.0, rb.se_log or 0.0
    se = math.sqrt(sa**2 + sb**2 + max(ra.between, between) ** 2 + max(rb.between, between) ** 2)
    if se == 0:
        return Ratio(math.exp(d), math.exp(d), math.exp(d), 0.0), (0.0 if d else 1.0)
    df = welch_df(sa, ra.n, sb, rb.n)
    dist = sps.t(df) if df is not None else sps.norm
    p = float(2 * dist.sf(abs(d) / se))
    q = float(dist.ppf(1 - ALPHA / 2))
    return Ratio(math.exp(d), math.exp(d - q * se), math.exp(d + q * se), se), p


def welch_df(sa: float, na: int, sb: float, nb: int) -> float | None:
    """Welch-Satterthwaite's degrees of freedom of sa^2 + sb^2, each from n rounds; None when either side's
    rounds are unknown (a ratio from a JSON export without them) or too few."""
    if na < 2 or nb < 2:
        return None
    den = sa**4 / (na - 1) + sb**4 / (nb - 1)
    return (sa**2 + sb**2) ** 2 / den if den > 0 else None


def _change(
    a: CellSample,
    b: CellSample,
    threshold: float,
    seed: int,
    refs: tuple[CellSample, CellSample] | None = None,
    between: float = 0.0,
    rule: Rule = DEFAULT_RULE,
    aa: bool = False,
) -> Change:
    """One cell's change; aa: against its own original (refs), with no session level between them."""
    ch = Change(a, b)
    if a.instructions and b.instructions:
        ch.instructions_change = b.instructions / a.instructions - 1
    if a.estimated_cycles and b.estimated_cycles:
        ch.estimated_cycles_change = b.estimated_cycles / a.estimated_cycles - 1
    if a.values and b.values and a.metric == b.metric:
        ch.own = median_ratio(b.values, a.values, seed=seed)
        if len(set(a.values) | set(b.values)) > 1:
            ch.own_p = float(sps.mannwhitneyu(np.asarray(b.values), np.asarray(a.values), alternative="two-sided").pvalue)
        ra = rb = None
        if refs is not None:
            la, lb = (NO_LEVEL, NO_LEVEL) if aa else (a.level, b.level)
            ra, rb = _side_ratio(a, refs[0], la, refs[1], b), _side_ratio(b, refs[1], lb, refs[0], a)
            ch.layouts_held = _same_layouts(a, b, refs) and ra is not None and ra.low is not None
        if ra is not None and rb is not None and ra.se_log is not None and rb.se_log is not None:
            ch.ratio, ch.p_value = ratio_change(ra, rb, between)
            ch.df = welch_df(ra.se_log, ra.n, rb.se_log, rb.n)
            ch.reference = refs[0].key if refs is not None else ""
        else:
            ch.ratio, ch.p_value = ch.own, ch.own_p
    if ch.ratio is None and ch.instructions_change is None and ch.estimated_cycles_change is None:
        ch.verdict = Verdict.NOT_TIMED if not (a.values and b.values) else Verdict.OTHER_METRIC
        return ch
    _judge(ch, threshold, rule)
    return ch


def _same_layouts(a: CellSample, b: CellSample, refs: tuple[CellSample, CellSample]) -> bool:
    """Both sides ran the very same code layouts of the cell and of its reference, and one of the two has several:
    the placement they drew is the same, and cancels in the change."""
    return (bool(a.layout_set) or bool(refs[0].layout_set)) and a.layout_set == b.layout_set and refs[0].layout_set == refs[1].layout_set


def _side_ratio(c: CellSample, ref: CellSample, level: Level, other_ref: CellSample, other: CellSample) -> Ratio | None:
    """One side's ratio of a cell to its reference, paired by round: with the layouts held fixed
    (stats.within_layouts_ratio) where both sides ran the same layouts of both, since a change between them cannot
    be placement; over the rounds as the report has it otherwise. Over four layouts of a loop that placement moves by
    30%, a planted 10% slowdown was +8.9% [+2.3%, +15.9%] and not flagged
    (docs/results/2026-11-28-make-bench-four-layouts)."""
    if _same_layouts(c, other, (ref, other_ref)):
        clusters = layout_clusters(c.layouts, ref.layouts)
        held = within_layouts_ratio(c.rounds, ref.rounds, clusters, level) if clusters is not None else None
        if held is not None:
            return held
    return paired_ratio(c.rounds, ref.rounds, level)


def _judge(ch: Change, threshold: float, rule: Rule = DEFAULT_RULE) -> None:
    """regressed, improved or ~: a change that `rule` counts, or an exact count's change beyond the threshold."""
    d = direction(rule, ch.ratio, ch.p_value, threshold)
    slower, faster = d > 0, d < 0
    for exact in (ch.instructions_change, ch.estimated_cycles_change):  # exact counts: any change is real, the threshold decides
        if exact is not None:
            slower = slower or exact > threshold
            faster = faster or exact < -threshold
    ch.verdict = Verdict.REGRESSED if slower else Verdict.IMPROVED if faster else Verdict.SAME


def persist(cmp: Comparison, earlier: list[Side]) -> Comparison:
    """Rule persist: a cell (or a table's move) counts only when A against each of `earlier` (the sessions
    before B on its machine, after A) says the same as A against B, by the z rule."""
    others = [compare(cmp.a, side, cmp.threshold, rule=Rule.Z) for side in earlier]
    for ch in cmp.changes:
        if ch.verdict in (Verdict.REGRESSED, Verdict.IMPROVED):
            same = [next((o for o in other.changes if o.a.ident == ch.a.ident), None) for other in others]
            if any(o is None or o.verdict is not ch.verdict for o in same):
                ch.verdict = Verdict.SAME
    cmp.moves = [
        m for m in cmp.moves if all(any((o.table, o.direction) == (m.table, m.direction) for o in other.moves) for other in others)
    ]
    cmp.persisted = [side.name for side in earlier]
    return cmp


def describe(c: Change) -> str:
    parts = []
    if c.by_own and c.own is not None:
        parts.append(f"{change_text(c.own)} (its own times; the other cell of its table held)")
    elif c.ratio is not None:
        parts.append(change_text(c.ratio))
    if c.instructions_change is not None:
        parts.append(f"instructions {c.instructions_change:+.2%}")
    if c.estimated_cycles_change is not None:
        parts.append(f"estimated cycles {c.estimated_cycles_change:+.2%}")
    return ", ".join(parts) or c.verdict


def change_text(r: Ratio | None) -> str:
    if r is None:
        return "-"
    text = f"{r.value - 1:+.1%}"
    return text + (f" [{r.low - 1:+.1%}, {r.high - 1:+.1%}]" if r.low is not None and r.high is not None else "")


def smallest_flagged(ch: Change, tested: int, threshold: float, rule: Rule = DEFAULT_RULE) -> float | None:
    """The smallest slowdown (B / A - 1) the rule could flag in this cell, were it the only cell that changed,
    from its change's standard error and degrees of freedom: rule z (and persist) needs Holm's first step,
    p < ALPHA / `tested`, and the threshold; rule interval the whole 95% interval beyond the threshold. None
    for a cell judged by its own times (no standard error)."""
    if ch.ratio is None or not ch.reference or ch.ratio.se_log is None:
        return None
    dist = sps.t(ch.df) if ch.df is not None else sps.norm
    se, floor = ch.ratio.se_log, math.log1p(threshold)
    if rule is Rule.INTERVAL:
        bar = floor + float(dist.ppf(1 - ALPHA / 2)) * se
    else:
        bar = max(floor, float(dist.ppf(1 - ALPHA / (2 * max(tested, 1)))) * se)
    return math.expm1(bar) if bar < 700 else math.inf  # a cell of two rounds 30x apart: nothing it could flag


def parse_threshold(text: str) -> float:
    t = text.strip()
    try:
        value = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        raise UsageError(f"--threshold {text}: not a percentage (e.g. 5%)") from None
    if not 0 <= value < 10:
        raise UsageError(f"--threshold {text}: out of range")
    return value
