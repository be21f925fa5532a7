"""Charts of a session as Vega-Lite specs (Altair), rendered to static SVG offline by vl-convert.

Static SVG keeps the HTML report self-contained, script-free for its charts and small: no Vega runtime
(~1 MB of JavaScript) travels with it, and nothing is fetched when it opens.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from contextvars import ContextVar
from itertools import count
from typing import Any

import altair as alt

from iorace.analyse.analysis import GridTable, Group, Row, SeedTableData
from iorace.analyse.leaders import LeaderTable
from iorace.core.kind import Kind
from iorace.report.tables import cell_name

ROW_PX = 16  # height of one cell's row in the per-cell charts
WIDTH = 560
MAX_POINTS = 4000  # above this, the distribution chart shows boxes only (a strip of every run gets heavy)
# The charts' text: vl-convert measures every label in Liberation Sans, the face it carries in memory, and the
# browser draws it in Liberation Sans or Arial, whose widths Liberation Sans was made to match, so every label
# fits the space measured for it. A face named here that is installed on the system (DejaVu Sans, this chart
# font before; Liberation Sans too, where fonts-liberation is installed) is read from its file for each label:
# 3 s for a chart of 50 cells instead of 0.5 s, 70 of make bench's 80 s of exports. So scripts/setup does not
# install fonts-liberation (only DejaVu, which the charts no longer name).
FONT = "Liberation Sans"
FONT_FAMILY = "Liberation Sans, Arial, sans-serif"


def chart_label(r: Row) -> str:
    """A cell's label on a chart's axis: its name in the tables (tables.cell_name), then the work it did
    when scaled (two cells of a scaled group may differ only in it) and its kind's tag."""
    c = r.cell
    name = cell_name(r)
    if r.scale != 1.0:
        name += " (" + ", ".join(f"{k}={v}" for k, v in c.params.items()) + ")"
    if r.kind.tag:
        name += f" [{r.kind.tag}]"
    return name


def _colour(languages: list[str], legend: str = "language") -> alt.Color:
    return alt.Color("language:N", scale=alt.Scale(domain=languages, scheme="tableau10"), legend=alt.Legend(title=legend))


def _log_needed(low: float, high: float) -> bool:
    return low > 0 and high / low > 10


def ratio_chart(g: Group, languages: list[str]) -> alt.Chart | None:
    """Every measured cell's time as a ratio to the fastest, with its 95% interval; limit and peer rows
    marked by shape."""
    data: list[dict[str, Any]] = []
    for r in g.rows:
        if r.vs_fastest is None:
            continue
        low = r.vs_fastest.low if r.vs_fastest.low is not None else r.vs_fastest.value
        high = r.vs_fastest.high if r.vs_fastest.high is not None else r.vs_fastest.value
        data.append(
            {
                "cell": chart_label(r),
                "language": r.cell.language,
                "kind": r.cell.kind,
                "ratio": r.vs_fastest.value,
                "low": low,
                "high": high,
            }
        )
    if len(data) < 1:
        return None
    order = [d["cell"] for d in data]
    lo = min(d["low"] for d in data)
    hi = max(d["high"] for d in data)
    scale = alt.Scale(type="log", padding=8) if _log_needed(lo, hi) else alt.Scale(zero=False, padding=8)
    title = f"x fastest (median {g.metric} time, 95% CI{', log scale' if _log_needed(lo, hi) else ''})"
    base = alt.Chart(alt.Data(values=data))
    y = alt.Y("cell:N", sort=order, title=None, axis=alt.Axis(labelLimit=360))
    bars = base.mark_rule(strokeWidth=2, opacity=0.6).encode(
        x=alt.X("low:Q", scale=scale, title=title), x2="high:Q", y=y, color=_colour(languages)
    )
    points = base.mark_point(filled=True, size=50, opacity=1).encode(
        x=alt.X("ratio:Q", scale=scale),
        y=y,
        color=_colour(languages),
        shape=alt.Shape(
            "kind:N", scale=alt.Scale(domain=[k.value for k in Kind], range=[k.chart_shape for k in Kind]), legend=alt.Legend(title="kind")
        ),
    )
    one = alt.Chart(alt.Data(values=[{"x": 1}])).mark_rule(color="#888", strokeDash=[4, 3]).encode(x="x:Q")
    return (bars + points + one).properties(width=WIDTH, height=ROW_PX * len(data), title="time relative to the fastest cell")


def distribution_chart(g: Group, languages: list[str]) -> alt.Chart | None:
    """Each cell's timed runs (its primary metric, scaled to the group's work): a box per cell and a tick
    per run."""
    runs: list[dict[str, Any]] = []
    order: list[str] = []
    for r in g.rows:
        if not r.ok:
            continue
        name = chart_label(r)
        order.append(name)
        runs += [{"cell": name, "language": r.cell.language, "seconds": v} for v in r.cost_values()]
    if not runs:
        return None
    values = [d["seconds"] for d in runs]
    log = _log_needed(min(values), max(values))
    scale = alt.Scale(type="log") if log else alt.Scale(zero=False)
    x = alt.X(
        "seconds:Q", scale=scale, title=f"{g.metric} time per run, seconds{' (log scale)' if log else ''}", axis=alt.Axis(format="~s")
    )
    y = alt.Y("cell:N", sort=order, title=None, axis=alt.Axis(labelLimit=360))
    base = alt.Chart(alt.Data(values=runs))
    # No ARIA description per run or box part: it would be two thirds of the chart's Vega scenegraph
    # (to_svg drops what is left of ARIA in every chart's SVG).
    box = base.mark_boxplot(
        extent="min-max", size=10, opacity=0.5, box={"aria": False}, median={"aria": False}, rule={"aria": False}, ticks=False
    ).encode(x=x, y=y, color=_colour(languages))
    layers = box
    if len(runs) <= MAX_POINTS:
        layers = box + base.mark_tick(thickness=1, size=12, color="#222", opacity=0.7, aria=False).encode(x=x, y=y)
    return layers.properties(width=WIDTH, height=ROW_PX * len(order), title="distribution of the timed runs")


def best_chart(g: Group, languages: list[str]) -> alt.Chart | None:
    """The best strategy per language x toolchain x profile, as bars of x fastest."""
    data: list[dict[str, Any]] = [
        {
            "toolchain": f"{r.cell.language} {r.cell.toolchain} {r.cell.profile}: {r.cell.variant}",
            "language": r.cell.language,
            "ratio": r.vs_fastest.value,
        }
        for r in g.best_per_toolchain()
        if r.vs_fastest is not None
    ]
    if len(data) < 2:
        return None
    hi = max(d["ratio"] for d in data)
    log = _log_needed(1.0, hi)
    x = alt.X("ratio:Q", scale=alt.Scale(type="log") if log else alt.Scale(zero=True), title=f"x fastest{' (log scale)' if log else ''}")
    base = alt.Chart(alt.Data(values=data))
    y = alt.Y("toolchain:N", sort=[d["toolchain"] for d in data], title=None, axis=alt.Axis(labelLimit=360))
    bars = base.mark_bar(height=ROW_PX - 4).encode(x=x, y=y, color=_colour(languages))
    text = base.mark_text(align="left", dx=3, fontSize=10).encode(x=x, y=y, text=alt.Text("ratio:Q", format=".2f"))
    return (bars + text).properties(width=WIDTH, height=ROW_PX * len(data), title="best strategy per language and toolchain")


def leaders_chart(leader_tables: list[LeaderTable], languages: list[str]) -> alt.Chart | None:
    """The overview in one picture: per suite, each language x toolchain's best cell as the geometric mean of
    its ratio to each table's fastest (a dot), with the range over the suite's tables (a rule)."""
    data: list[dict[str, Any]] = [
        {
            "row": f"{t.suite} · {r.language} {r.toolchain}",
            "language": r.language,
            "ratio": r.geomean,
            "low": min(r.ratios),
            "high": max(r.ratios),
            "won": f"{r.won} of {r.tables}",
        }
        for t in leader_tables
        for r in t.rows
    ]
    if not data:
        return None
    log = _log_needed(1.0, max(d["high"] for d in data))
    scale = alt.Scale(type="log", padding=8) if log else alt.Scale(zero=False, padding=8)
    title = f"x each table's fastest: geometric mean and range over the suite's tables{' (log scale)' if log else ''}"
    base = alt.Chart(alt.Data(values=data))
    y = alt.Y("row:N", sort=[d["row"] for d in data], title=None, axis=alt.Axis(labelLimit=360))
    x = alt.X("low:Q", scale=scale, title=title)
    rules = base.mark_rule(strokeWidth=2, opacity=0.5).encode(x=x, x2="high:Q", y=y, color=_colour(languages))
    dots = base.mark_point(filled=True, size=50, opacity=1).encode(x=alt.X("ratio:Q", scale=scale), y=y, color=_colour(languages))
    one = alt.Chart(alt.Data(values=[{"x": 1}])).mark_rule(color="#888", strokeDash=[4, 3]).encode(x="x:Q")
    title = "the best cell per language and toolchain, per suite"
    return (rules + dots + one).properties(width=WIDTH, height=ROW_PX * len(data), title=title)


def history_chart(points: list[dict[str, Any]], languages: list[str], title: str, legend: str = "language") -> alt.Chart:
    """`points`: {"session": label, "cell": name, "language": ..., "median": seconds, "change": "-" | "slower" |
    "faster"} across sessions. legend: what the colours ("language") stand for: a cell's page colours its
    machines."""
    values = [p["median"] for p in points]
    log = _log_needed(min(values), max(values))
    base = alt.Chart(alt.Data(values=points))
    x = alt.X(
        "session:O", sort=list(dict.fromkeys(p["session"] for p in points)), title="session", axis=alt.Axis(labelAngle=0, labelLimit=200)
    )
    y = alt.Y(
        "median:Q",
        scale=alt.Scale(type="log") if log else alt.Scale(zero=False),
        title=f"median, seconds{' (log scale)' if log else ''}",
        axis=alt.Axis(format="~s"),
    )
    lines = base.mark_line(opacity=0.6).encode(x=x, y=y, color=_colour(languages, legend), detail="cell:N")
    dots = base.mark_point(filled=True, opacity=0.9).encode(
        x=x,
        y=y,
        color=_colour(languages, legend),
        shape=alt.Shape(
            "change:N",
            scale=alt.Scale(domain=["-", "slower", "faster"], range=["circle", "triangle-up", "triangle-down"]),
            legend=alt.Legend(title="vs previous session"),
        ),
        size=alt.Size("change:N", scale=alt.Scale(domain=["-", "slower", "faster"], range=[25, 120, 120]), legend=None),
    )
    return (lines + dots).properties(width=WIDTH, height=260, title=title)


def grid_chart(grid: GridTable) -> alt.Chart | None:
    """The seed's own view (a manifest grid): per row value, a bar per column cell, in the manifest's order."""
    data: list[dict[str, Any]] = [
        {"row": str(value), "column": col, "median": entry.cost}
        for value, entries, _ in grid.rows
        for col, entry in zip(grid.columns, entries, strict=True)
        if entry is not None
    ]
    if not data:
        return None
    rows = [str(value) for value, _, _ in grid.rows]
    column = alt.Color("column:N", sort=grid.columns, scale=alt.Scale(scheme="tableau10"), legend=alt.Legend(title=None, labelLimit=300))
    base = alt.Chart(alt.Data(values=data))
    return (
        base.mark_bar()
        .encode(
            x=alt.X("row:N", sort=rows, title=grid.row_param, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("column:N", sort=grid.columns),
            y=alt.Y("median:Q", title="median, seconds", axis=alt.Axis(format="~s")),
            color=column,
        )
        .properties(width=max(200, 40 * len(data)), height=220, title=grid.title)
    )


def seed_chart(t: SeedTableData) -> alt.Chart | None:
    """A seed's tests in its order: each test's time over the baseline test's, this session's (with its 95%
    interval) beside the seed's own published ratio where it gave one."""
    ours = "this session"
    data: list[dict[str, Any]] = []
    for sr in t.rows:
        test = sr.test.split("/", 1)[-1]
        if sr.vs_baseline is not None:
            r = sr.vs_baseline
            data.append(
                {
                    "test": test,
                    "source": ours,
                    "ratio": r.value,
                    "low": r.low if r.low is not None else r.value,
                    "high": r.high if r.high is not None else r.value,
                }
            )
        if sr.seed_vs_baseline is not None and sr.vs_baseline is not None:  # side by side with ours only
            data.append(
                {"test": test, "source": "the seed", "ratio": sr.seed_vs_baseline, "low": sr.seed_vs_baseline, "high": sr.seed_vs_baseline}
            )
    if not data:
        return None
    tests = [sr.test.split("/", 1)[-1] for sr in t.rows]
    lo, hi = min(d["low"] for d in data), max(d["high"] for d in data)
    scale = alt.Scale(type="log") if _log_needed(lo, hi) else alt.Scale(zero=True)
    base_name = t.baseline.split("/", 1)[-1]
    x = alt.X("test:N", sort=tests, title=None, axis=alt.Axis(labelAngle=-35, labelLimit=220, labelOverlap=False))
    offset = alt.XOffset("source:N", sort=[ours, "the seed"])
    y = alt.Y("ratio:Q", scale=scale, title=f"time / {base_name}'s")
    colour = alt.Color("source:N", sort=[ours, "the seed"], scale=alt.Scale(scheme="tableau10"), legend=alt.Legend(title=None))
    base = alt.Chart(alt.Data(values=data))
    # Dots, not bars: a bar has no base on the log scale a wide spread needs.
    dots = base.mark_point(filled=True, size=70).encode(x=x, xOffset=offset, y=y, color=colour)
    whiskers = base.mark_rule().encode(x=x, xOffset=offset, y=alt.Y("low:Q", scale=scale), y2="high:Q", color=colour)
    return (whiskers + dots).properties(width=max(240, 60 * len(tests)), height=240, title=t.title)


_ids = count()


def to_svg(chart: alt.Chart) -> str:
    """Static SVG of a chart, with ids made unique so several charts can share one page; inside `batched()`, a
    placeholder that the batch's end fills."""
    spec = _spec(chart)
    batch = _batch.get()
    if batch is not None:
        batch.append(spec)
        return f"\x00iorace-svg-{len(batch) - 1}\x00"
    import vl_convert

    return _tidy(vl_convert.vegalite_to_svg(spec))


def _spec(chart: alt.Chart) -> dict:
    chart = chart.configure(font=FONT).configure_legend(orient="right").configure_axis(labelOverlap=True)
    # validate=False: the specs are ours and fixed (tests render each kind); jsonschema took 8 s a make bench.
    return json.loads(chart.to_json(validate=False))


_batch: ContextVar[list[dict] | None] = ContextVar("iorace_svg_batch", default=None)
_PLACEHOLDER = re.compile("\x00iorace-svg-(\\d+)\x00")
POOL_FROM = 8  # charts in a batch from which they are rendered in worker processes, one per CPU


def batched(make: Callable[[], str]) -> str:
    """`make()`'s text with every chart it drew (to_svg) rendered at the end, all at once: vl-convert renders one
    chart at a time in a process (a global lock), so a page of many charts is rendered in worker processes, one
    per CPU (a make bench report draws about 250: half a minute in one process)."""
    return batched_pages(lambda: {"": make()})[""]


def batched_pages(make: Callable[[], dict[str, str]]) -> dict[str, str]:
    """batched() for several pages (the site's): each page's text, its charts rendered in one batch."""
    token = _batch.set([])
    try:
        pages = make()
        specs = _batch.get() or []
    finally:
        _batch.reset(token)
    if not specs:
        return pages
    svgs = _render_all(specs)
    return {name: _PLACEHOLDER.sub(lambda m: svgs[int(m.group(1))], text) for name, text in pages.items()}


def _render_all(specs: list[dict]) -> list[str]:
    workers = min(os.cpu_count() or 1, len(specs) // (POOL_FROM // 2) or 1)
    if len(specs) < POOL_FROM or workers < 2:
        import vl_convert

        return [_tidy(vl_convert.vegalite_to_svg(spec)) for spec in specs]
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from iorace.report import svg_worker

    # spawn, not fork: the parent may hold threads (the progress display) and vl-convert's runtime
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        raw = list(pool.map(svg_worker.render, specs, chunksize=4))
    return [_tidy(svg) for svg in raw]


def _tidy(svg: str) -> str:
    """vl-convert's SVG for one page among others: the font named as the page names it, ids made unique,
    numbers shortened, the attributes nothing reads left out."""
    svg = svg.replace(f'font-family="{FONT}"', f'font-family="{FONT_FAMILY}"')
    n = next(_ids)
    svg = re.sub(r'id="([^"]+)"', rf'id="c{n}-\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#c{n}-\1)", svg)
    # Coordinates to a tenth of a pixel (vl-convert writes 15 digits): a third of the size, the same drawing.
    # Only inside tags: a label's text ("0.00001") is left alone.
    # No roles, classes or pointer-events either: neither the page's CSS nor its script selects them. The
    # ARIA labels and role descriptions stay: they are what a screen reader (and a test) reads of a mark.
    return re.sub(r"<[^>]+>", lambda m: _NOISE.sub("", _LONG_NUMBER.sub(r"\1", m.group(0))), svg)


_LONG_NUMBER = re.compile(r"(\d\.\d)\d+")
_NOISE = re.compile(r' (?:aria-hidden|role|class|pointer-events)="[^"]*"')
