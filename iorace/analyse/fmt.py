"""Human formatting of times, sizes, rates and ratios (shared by the terminal report and Markdown)."""

from __future__ import annotations

from iorace.analyse.analysis import Row
from iorace.analyse.stats import Ratio, Summary
from iorace.core.status import Status
from iorace.store.db import CellData


def seconds(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 10:
        return f"{value:.1f} s"
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.1f} ms"
    if value >= 1e-6 or value <= 0:
        return f"{value * 1e6:.0f} µs"
    return f"{value * 1e9:.3g} ns"  # a cost per unit of work (a byte, a step) compared across sessions


def spread(s: Summary | None) -> str:
    """median (min..max)"""
    if s is None:
        return "-"
    return f"{seconds(s.median)} ({seconds(s.min)}..{seconds(s.max)})" if s.n > 1 else seconds(s.median)


def ratio(r: Ratio | None) -> str:
    if r is None:
        return "-"
    if r.low is None:
        return f"{r.value:.2f}x"
    return f"{r.value:.2f}x [{r.low:.2f}-{r.high:.2f}]"


def count(n: int | None) -> str:
    """A large count in engineering form: 1.23 G, 456 M."""
    if n is None:
        return "-"
    for scale, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return str(n)


def number(value: object) -> str:
    """A figure a program reported (extra): three significant digits, thousands separated."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "-" if value is None else str(value)
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def per_unit(value: float | None) -> str:
    """Instructions per unit of work: 4.00 per byte, 1,234 per key."""
    if value is None:
        return "-"
    return f"{value:.2f}" if value < 100 else f"{value:,.0f}"


def unit_singular(unit: str) -> str:
    return unit[:-1] if unit.endswith("s") else unit


def rss(kb: int | None) -> str:
    return "-" if kb is None else f"{kb / 1024:.1f} MB"


RATE_UNITS = {"bytes": ("MB/s", 1e6), "lines": ("Mlines/s", 1e6)}


def rates(row: Row) -> str:
    parts = []
    for unit, per_s in row.rates.items():
        label, scale = RATE_UNITS.get(unit, (f"{unit}/s", 1))
        parts.append(f"{per_s / scale:,.0f} {label}" if per_s / scale >= 10 else f"{per_s / scale:,.2f} {label}")
    return ", ".join(parts) or "-"


def notes(row: Row) -> str:
    """What a row's numbers need said beside them: how it was measured and compared, then what happened to
    its cell while it was timed."""
    out = []
    if row.kind.note:
        out.append(row.kind.note)
    if row.noisy and row.primary is not None:
        out.append(f"noisy (cv {row.primary.cv:.0%})")
    if row.vs_fastest is not None and row.vs_fastest.value != 1.0 and row.vs_fastest.overlaps_one():
        out.append("~ fastest")
    if row.ok and row.metric == "wall" and row.cell.metric == "inner":
        out.append("wall: no inner time")
    if row.ok and row.metric == "cpu" and row.cpu_pct is not None and row.cpu_pct.median > 105:
        out.append(f"cpu: several threads ({row.cpu_pct.median / 100:.1f} CPUs), all counted")
    if row.scale != 1.0:
        out.append("less work: compared per unit of work")
    if row.placement is not None and (text := row.placement.text()):
        out.append(text)
    return ", ".join(out + _cell_notes(row.cell))


def _cell_notes(cell: CellData) -> list[str]:
    out = [note for note in (cell.sizing_note, cell.timing_note, cell.cpus_note) if note]
    if cell.layout_note.startswith("one layout"):  # the session measured over code layouts, this cell over one
        out.append("one layout" if cell.language in ("java", "python") else cell.layout_note)
    if displaced := sum(r.phase == "displaced" for r in cell.runs):
        out.append(f"{displaced} displaced run{'s' if displaced != 1 else ''} repeated")
    if cell.known_wrong and cell.status == Status.WRONG:
        out.append("known wrong")
    return out
