"""Many machines, one store: which machines a store has seen (`iorace machines`), and which
rankings hold across them (`iorace compare-machines SUITE`).

compare-machines takes the latest finished session of each machine (by name) that has the suite. Per pair
of cells of each table (cells identified as compare.py identifies them: suite, dataset, parameters,
language/variant, toolchain, profile), each machine's paired ratio a / b over its rounds
(stats.paired_ratio, the report's own ratio) orders the pair when its 95% interval excludes 1. The pair's
order HOLDS when every machine that has both orders it the same way (two machines at least), FLIPS when
two machines order it opposite ways, and is UNRESOLVED otherwise. A flip names what differs between the
machines that disagree (their fingerprints, CPU models, kernels, mitigations, filesystems, toolchains).
Between each two machines, Spearman's rank correlation of the cells' medians per table, averaged.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

from iorace.analyse.analysis import params_text
from iorace.analyse.stats import Ratio, paired_ratio
from iorace.compare.sides import CellSample, side_from_session
from iorace.core import machine
from iorace.core.errors import UsageError
from iorace.core.host import host_of
from iorace.core.ids import CellId, TableId
from iorace.core.kind import Kind
from iorace.core.status import Status
from iorace.report.markdown import draw_table as draw_markdown
from iorace.report.markdown import escape
from iorace.report.tables import Column, Table
from iorace.store.db import Store


def _date(text: str | None) -> str:
    return (text or "?")[:16].replace("T", " ")


def machines_table(store: Store) -> Table:
    """One row per machine (its name and fingerprint) the store has seen: its host (core/host.py: the CPU with
    its family/model, which tells apart the hosts of one name) and cores (from its latest session), how many
    sessions, the first and the last."""
    columns = [
        Column("machine", "left"),
        Column("fingerprint", "left"),
        Column("host", "left", wrap=True),
        Column("cores"),
        Column("sessions"),
        Column("first session", "left"),
        Column("last session", "left"),
    ]
    rows = [
        [
            m["machine_name"] or "?",
            m["machine_fingerprint"] or "?",
            host_of(m["facts"]).label if m["facts"].get("cpu_model") else "?",
            str(m["facts"].get("cores") or "?"),
            str(m["sessions"]),
            _date(m["first_started"]),
            _date(m["last_started"]),
        ]
        for m in store.machines()
    ]
    return Table("machines in the store", "", columns, rows)


# --- compare-machines -----------------------------------------------------------------------------

HOLDS, FLIPS, UNRESOLVED = "holds", "flips", "unresolved"
NAMES_SHOWN = 6  # machines named in a table cell, then "+N more"


@dataclass
class Machine:
    """One machine of the comparison: its latest session that has the suite."""

    name: str
    session_id: int
    context: dict  # sides.context_of: machine, fingerprint, cpu_model, context, options
    cells: dict[CellId, CellSample]  # by CellSample.ident, ok and compared cells only
    host: str = ""  # its host's label (core/host.py)


@dataclass
class Pair:
    """Two cells of one table (a before b in the table's order) and their order on each machine."""

    table: TableId
    a: CellSample
    b: CellSample
    ratios: dict[str, Ratio | None] = field(default_factory=dict)  # machine -> a / b paired round by round
    a_faster: list[str] = field(default_factory=list)  # machines where a's ratio interval lies below 1
    b_faster: list[str] = field(default_factory=list)  # ... above 1
    unresolved: list[str] = field(default_factory=list)  # ... covers 1, or no interval
    differs: list[str] = field(default_factory=list)  # a flip: what differs between the machines that disagree

    @property
    def verdict(self) -> str:
        """flips: significant both ways on different machines; holds: significant the same way on every
        machine (two at least) that has both; otherwise unresolved."""
        if self.a_faster and self.b_faster:
            return FLIPS
        if not self.unresolved and len(self.a_faster) + len(self.b_faster) >= 2:
            return HOLDS
        return UNRESOLVED


@dataclass
class FleetComparison:
    suite: str
    machines: list[Machine]
    pairs: list[Pair]
    correlations: list[tuple[str, str, float, int]]  # (machine, machine, mean Spearman rho over tables, tables)

    def count(self, verdict: str) -> int:
        return sum(p.verdict == verdict for p in self.pairs)


def _machine(store: Store, session_id: int, suite: str) -> Machine:
    s = store.load(session_id)
    side = side_from_session(s)
    cells = {c.ident: c for c in side.cells if c.suite == suite and c.status == Status.OK and c.rounds and Kind.of(c.kind).compared}
    return Machine(s.machine_name or f"session {s.id}", s.id, side.context, cells, s.host.label)


def compare_machines(store: Store, suite: str) -> FleetComparison:
    """The latest session of each machine that has `suite`: per pair of cells of each table, whether their
    order holds on every machine, flips, or is unresolved (each machine's paired ratio a / b over the
    rounds, stats.paired_ratio, as the reports give it); the rank correlation between each two machines."""
    ids = store.latest_by_machine(suite)
    if not ids:
        known = store.suites()
        raise UsageError(f"{suite}: no finished session has this suite (stored: {', '.join(known) or 'none'})")
    machines = [_machine(store, sid, suite) for sid in ids]
    shared = {m.name for m in machines if sum(o.name == m.name for o in machines) > 1}
    for m in machines:  # hosts of one name (every host of this VM kind is `vm`) are told apart by their host
        if m.name in shared:
            m.name = f"{m.name} on {m.host}"
    tables: dict[TableId, dict[CellId, CellSample]] = {}
    for m in machines:
        for ident, c in m.cells.items():
            tables.setdefault(c.table, {}).setdefault(ident, c)
    pairs = []
    for table, cells in tables.items():
        for a, b in itertools.combinations(sorted(cells.values(), key=lambda c: c.ident), 2):
            pairs.append(_pair(table, a, b, machines))
    return FleetComparison(suite, machines, pairs, _correlations(machines, tables))


def _pair(table: TableId, a: CellSample, b: CellSample, machines: list[Machine]) -> Pair:
    pair = Pair(table, a, b)
    for m in machines:
        ca, cb = m.cells.get(a.ident), m.cells.get(b.ident)
        if ca is None or cb is None or ca.metric != cb.metric:
            continue
        r = pair.ratios[m.name] = paired_ratio(ca.rounds, cb.rounds)
        if r is None or r.low is None or r.high is None or r.overlaps_one():
            pair.unresolved.append(m.name)
        else:
            (pair.a_faster if r.high < 1 else pair.b_faster).append(m.name)
    if pair.verdict == FLIPS:  # the fewer machines are the odd ones: what differs from the first of the others
        odd, usual = sorted((pair.a_faster, pair.b_faster), key=len)
        by_name = {m.name: m for m in machines}
        for name in odd:
            pair.differs.append(f"{name} vs {usual[0]}: {'; '.join(context_difference(by_name[usual[0]].context, by_name[name].context))}")
    return pair


def context_difference(a: dict, b: dict) -> list[str]:
    """What differs between two machines' contexts (sides.context_of), or that nothing stored does."""
    out = []
    if a["fingerprint"] != b["fingerprint"]:
        out.append(f"fingerprint {a['fingerprint'] or '?'} -> {b['fingerprint'] or '?'}")
    if a.get("host") != b.get("host"):  # the CPU and its family/model: tells one `vm` host from another
        out.append(f"host {a.get('host') or '?'} -> {b.get('host') or '?'}")
    elif a["cpu_model"] != b["cpu_model"]:
        out.append(f"CPU {a['cpu_model'] or '?'} -> {b['cpu_model'] or '?'}")
    out += machine.context_changes(a["context"], b["context"])
    return out or ["nothing stored differs (the same kind of machine and context)"]


def _correlations(machines: list[Machine], tables: dict[TableId, dict[CellId, CellSample]]) -> list[tuple[str, str, float, int]]:
    """Between each two machines, Spearman's rho of their cells' medians in each table (over the cells both
    measured, three at least), averaged over the tables."""
    sums: dict[tuple[int, int], list[float]] = {}
    for idents in tables.values():
        have = [i for i, m in enumerate(machines) if sum(ident in m.cells for ident in idents) >= 3]
        common = [ident for ident in idents if all(ident in machines[i].cells for i in have)]
        if len(have) >= 2 and len(common) >= 3:  # one matrix for every machine that has them all (fast)
            medians = np.array([[float(np.median(machines[i].cells[ident].values)) for ident in common] for i in have])
            rho = np.atleast_2d(sps.spearmanr(medians, axis=1).statistic)
            if rho.shape == (1, 1):
                rho = np.array([[1.0, float(rho[0, 0])], [float(rho[0, 0]), 1.0]])
            for x, y in itertools.combinations(range(len(have)), 2):
                sums.setdefault((have[x], have[y]), []).append(float(rho[x, y]))
    return [(machines[i].name, machines[j].name, float(np.mean(v)), len(v)) for (i, j), v in sorted(sums.items())]


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:NAMES_SHOWN])
    return shown + (f" +{len(names) - NAMES_SHOWN} more" if len(names) > NAMES_SHOWN else "") if names else "-"


def pairs_table(cmp: FleetComparison) -> Table:
    """Each pair of cells, flips first: its verdict and which machines order it which way."""
    columns = [
        Column("table", "left", wrap=True),
        Column("cell A", "left", wrap=True),
        Column("cell B", "left", wrap=True),
        Column("order", "left"),
        Column("A faster on", "left", wrap=True),
        Column("B faster on", "left", wrap=True),
        Column("unresolved on", "left", wrap=True),
    ]
    order = {FLIPS: 0, UNRESOLVED: 1, HOLDS: 2}
    rows = [
        [
            f"{p.a.dataset} {params_text(json.loads(p.table.params))}",
            p.a.label,
            p.b.label,
            p.verdict,
            _names(p.a_faster),
            _names(p.b_faster),
            _names(p.unresolved),
        ]
        for p in sorted(cmp.pairs, key=lambda p: (order[p.verdict], p.table, p.a.ident, p.b.ident))
    ]
    title = f"{cmp.suite}: the order of each pair of cells on {len(cmp.machines)} machines (the latest session of each)"
    return Table(title, "", columns, rows)


CORRELATIONS_SHOWN = 20


def correlation_table(cmp: FleetComparison) -> Table:
    """The rank correlation between each two machines, the least alike first (CORRELATIONS_SHOWN at most)."""
    columns = [Column("machine", "left"), Column("machine", "left"), Column("Spearman rho"), Column("tables")]
    rows = [[a, b, f"{rho:+.2f}", str(n)] for a, b, rho, n in sorted(cmp.correlations, key=lambda c: (c[2], c[0], c[1]))]
    more = len(rows) - CORRELATIONS_SHOWN
    caption = f"the {CORRELATIONS_SHOWN} least alike of {len(rows)} pairs of machines" if more > 0 else ""
    return Table(
        "rank correlation of the cells' medians between machines (per table, averaged)", caption, columns, rows[:CORRELATIONS_SHOWN]
    )


def summary_lines(cmp: FleetComparison) -> list[str]:
    sessions = ", ".join(f"{m.name} #{m.session_id}" for m in cmp.machines)
    out = [
        f"{len(cmp.pairs)} pairs of cells on {len(cmp.machines)} machines ({sessions}): {cmp.count(HOLDS)} hold, "
        f"{cmp.count(FLIPS)} flip, {cmp.count(UNRESOLVED)} unresolved (a machine orders a pair when its paired ratio's "
        "95% interval excludes 1)"
    ]
    for p in cmp.pairs:
        if p.verdict == FLIPS:
            out.append(
                f"flip: {p.a.dataset} {p.a.label} vs {p.b.label}: A faster on {_names(p.a_faster)}, B faster on {_names(p.b_faster)}; "
                + "; ".join(p.differs)
            )
    return out


def markdown(cmp: FleetComparison) -> str:
    lines = [f"### iorace compare-machines {cmp.suite}", "", draw_markdown(pairs_table(cmp)), ""]
    if cmp.correlations:
        corr = correlation_table(cmp)
        lines += [f"**{corr.title}**" + (f" ({corr.caption})" if corr.caption else ""), "", draw_markdown(corr), ""]
    lines += [f"- {escape(line)}" for line in summary_lines(cmp)]
    return "\n".join(lines) + "\n"
