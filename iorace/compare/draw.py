"""`iorace compare`'s output: a comparison (judge.py) as the report's table model, its summary, the lines under
its table (what it could have seen, tables that moved whole, what changed besides the code, statuses) and the
Markdown of a pull-request comment."""

from __future__ import annotations

import json

import numpy as np

from iorace.compare.judge import MIN_PAIRED, Comparison, change_text, smallest_flagged
from iorace.core import machine
from iorace.core.verdict import Verdict
from iorace.report.markdown import draw_table as draw_markdown
from iorace.report.markdown import escape
from iorace.report.tables import Column, Table


def _seconds(v: float | None) -> str:
    from iorace.analyse.fmt import seconds

    return seconds(v)


COLUMNS = [
    Column("cell", "left"),
    Column("metric", "left"),
    Column("A median"),
    Column("B median"),
    Column("change [95% CI]"),
    Column("p"),
    Column("instructions"),
    Column("verdict", "left"),
]


def table(cmp: Comparison) -> Table:
    """Every compared cell, regressions first, in the report's table model (drawn by the terminal and the
    Markdown drawers); the verdict is the status column. Estimated cycles have a column where a cell has them."""
    cycles = any(c.estimated_cycles_change is not None for c in cmp.changes)
    columns = COLUMNS[:-1] + ([Column("est. cycles")] if cycles else []) + COLUMNS[-1:]
    out = []
    for c in sorted(cmp.changes, key=lambda c: (c.verdict is not Verdict.REGRESSED, c.verdict is not Verdict.IMPROVED, c.a.name)):
        row = [
            c.a.name,
            c.a.metric,
            _seconds(float(np.median(c.a.values)) if c.a.values else None),
            _seconds(float(np.median(c.b.values)) if c.b.values else None),
            change_text(c.own if c.by_own else c.ratio),
            "-" if c.p_value is None else f"{(c.own_p if c.by_own else c.p_value) or 0.0:.3f}",
            "-" if c.instructions_change is None else f"{c.instructions_change:+.2%}",
        ]
        if cycles:
            row.append("-" if c.estimated_cycles_change is None else f"{c.estimated_cycles_change:+.2%}")
        out.append([*row, c.verdict])
    return Table("", "", columns, out, [row[-1] for row in out], len(columns) - 1)


def summary(cmp: Comparison) -> str:
    n = len(cmp.changes)
    counts = {v: sum(c.verdict is v for c in cmp.changes) for v in (Verdict.REGRESSED, Verdict.IMPROVED)}
    gm = cmp.geomean
    text = (
        f"{n} cells compared: {counts[Verdict.REGRESSED]} regressed, {counts[Verdict.IMPROVED]} improved"
        f" ({cmp.rule.describe(cmp.threshold, len(cmp.persisted) + 1)}"
        + (f": B and {', '.join(cmp.persisted)}" if cmp.persisted else "")
        + "; a change is that of the cell's ratio to its reference, the typical mover of the cells of its table it"
        " shared rounds with, and the reference's to the next typical mover; every cell's own times are judged too)"
    )
    if gm is not None:
        text += f"; geometric mean of B/A {gm:.3f}"
    return text


def power_line(cmp: Comparison) -> str | None:
    """What this comparison could have seen: the smallest slowdown each cell's noise lets the rule flag, its
    median and quartiles over the cells that could show one under 2x, and how many could not. Over 800 cells
    Holm's bar is 4.0 standard errors by the normal, t of 4.5 on the 38 degrees of freedom of two sessions of
    20 rounds, 7.6 on the 8 of two of 5 and 125 on the 2 of two of 2 (a cell raced out as far behind): "nothing
    regressed" says that much and no more."""
    tested = sum(c.p_value is not None for c in cmp.changes)
    found = [x for c in cmp.changes if (x := smallest_flagged(c, tested, cmp.threshold, cmp.rule)) is not None]
    if not found:
        return None
    seen = sorted(x for x in found if x < 1.0)
    blind = len(found) - len(seen)
    rest = f"; {blind} could not show one under 2x (a few rounds each: raced out, or rounds far apart)" if blind else ""
    if not seen:
        return f"the smallest slowdown it could flag in a cell: none of the {len(found)} cells could show one under 2x"
    q1, med, q3 = (float(np.percentile(seen, q, method="nearest")) for q in (25, 50, 75))
    return (
        f"the smallest slowdown it could flag in a cell, were it the only change: {med:+.1%} for the median of the "
        f"{len(seen)} cells that could show one under 2x (quartiles {q1:+.1%} to {q3:+.1%}; Holm over {tested}){rest}"
    )


def level_lines(cmp: Comparison) -> list[str]:
    """Which session level the ratios were judged with (each side's own, or fitted on this comparison: say
    which), and the cells left unjudged for want of a cell that shared their rounds."""
    out = []
    if cmp.fitted is None:
        out.append("ratios judged with each side's own session level (fitted on its machine's earlier sessions)")
    elif cmp.fitted:
        shown = ", ".join(f"{suite} {level.text()}" for suite, level in sorted(cmp.fitted.items()))
        own = sorted((cmp.a.suites & cmp.b.suites) - cmp.fitted.keys())
        out.append(
            "neither side carried a session level (no earlier sessions to fit it on) for "
            + ("these suites" if own else "any suite")
            + ": each one's was fitted on this comparison's own cells, disjoint pairs of them, at the median p of their "
            f"changes 1/2 ({shown}); every ratio's interval and test include it" + (f" ({', '.join(own)}: each side's own)" if own else "")
        )
    held = sum(c.layouts_held for c in cmp.changes)
    if held:
        out.append(
            f"{held} cells ran the very same code layouts (and so did their reference) on both sides: each one's change "
            "is judged against its runs' noise within those layouts, since the placement both sides drew is the same "
            "(each side's own interval, over its pairs of layouts, carries placement)"
        )
    unpaired = sum(c.unpaired for c in cmp.changes)
    if unpaired:
        out.append(
            f"{unpaired} cells shared fewer than {MIN_PAIRED} rounds with every other cell of their table on a side (raced "
            "out): their change is their own times', shown and not judged, since own times carry the machine's move "
            "between the sessions and only a ratio to a cell of the same rounds takes it out"
        )
    return out


def move_lines(cmp: Comparison) -> list[str]:
    """One line per table whose every cell moved alike, after the tables' drift."""
    return ([cmp.drift.text()] if cmp.drift is not None else []) + [m.text for m in cmp.moves]


def other_lines(cmp: Comparison) -> list[str]:
    out = [
        f"{side.name} was measured on a busy machine: {side.context['contention_line']}"
        for side in (cmp.a, cmp.b)
        if side.context.get("contended")
    ]
    out += [f"status changed: {a.name}: {a.status} -> {b.status}" for a, b in cmp.status_changes]
    out += [f"appeared in B: {c.name} ({c.status})" for c in cmp.appeared]
    out += [f"disappeared from A: {c.name} ({c.status})" for c in cmp.disappeared]
    return out


UNCOMPARED_OPTIONS = {"seed"}  # drawn anew each session: its change says nothing


def what_else_changed(cmp: Comparison) -> list[str]:
    """What changed between A and B besides the code, one line each: the machine (its name or fingerprint),
    the kernel, mitigations and data filesystem, the version of each toolchain of the compared cells, and
    the session's options (runs, flags, randomization, ...): a "regression" that came with a compiler
    upgrade says so."""
    a, b = cmp.a.context, cmp.b.context
    if not a or not b:
        return []
    out = [f"{side}: {ctx['host_note']}" for side, ctx in (("A", a), ("B", b)) if ctx.get("host_note")]
    if (a["machine"], a["fingerprint"]) != (b["machine"], b["fingerprint"]):
        cpu = f"; CPU {a['cpu_model'] or '?'} -> {b['cpu_model'] or '?'}" if a["cpu_model"] != b["cpu_model"] else ""
        if a.get("host") != b.get("host"):  # the host's label names the CPU and its family/model: one `vm` from another
            cpu = f"; host {a.get('host') or '?'} -> {b.get('host') or '?'}"
        out.append(f"machine: {a['machine'] or '?'} ({a['fingerprint'] or '?'}) -> {b['machine'] or '?'} ({b['fingerprint'] or '?'}){cpu}")
    versions: dict[str, tuple[set[str], set[str]]] = {}
    for c in cmp.changes:
        if c.a.toolchain_version or c.b.toolchain_version:
            va, vb = versions.setdefault(c.a.toolchain, (set(), set()))
            va.add(c.a.toolchain_version)
            vb.add(c.b.toolchain_version)
    toolchains_a = {**a["context"].get("toolchains", {}), **{t: " / ".join(sorted(v[0])) for t, v in versions.items()}}
    toolchains_b = {**b["context"].get("toolchains", {}), **{t: " / ".join(sorted(v[1])) for t, v in versions.items()}}
    ctx_a, ctx_b = {**a["context"], "toolchains": toolchains_a}, {**b["context"], "toolchains": toolchains_b}
    out += machine.context_changes(ctx_a, ctx_b)
    oa, ob = a["options"], b["options"]
    for name in sorted((set(oa) | set(ob)) - UNCOMPARED_OPTIONS):
        if oa.get(name) != ob.get(name):
            out.append(f"option {name}: {json.dumps(oa.get(name))} -> {json.dumps(ob.get(name))}")
    return [f"changed besides the code: {line}" for line in out]


def sides_text(cmp: Comparison) -> str:
    return (
        f"A = {cmp.a.name} ({cmp.a.started}, git {cmp.a.git_revision[:12]}) · "
        f"B = {cmp.b.name} ({cmp.b.started}, git {cmp.b.git_revision[:12]})"
    )


def markdown(cmp: Comparison) -> str:
    """For a pull-request comment."""
    verdict = "**regressed**" if cmp.regressions else "no regression"
    power = power_line(cmp)
    lines = [f"### iorace compare: {verdict}", "", sides_text(cmp), "", summary(cmp) + ".", ""]
    lines += [escape(power[0].upper() + power[1:]) + ".", ""] if power else []
    if cmp.changes:
        lines += [draw_markdown(table(cmp)), ""]
    lines += [f"- {escape(line)}" for line in level_lines(cmp) + move_lines(cmp) + what_else_changed(cmp) + other_lines(cmp)]
    return "\n".join(lines).rstrip() + "\n"
