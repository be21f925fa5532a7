"""Charts rendered in a batch (charts.batched: placeholders while the page is written, every chart rendered at the
end, in worker processes from POOL_FROM charts) give the same page as charts rendered one by one."""

from __future__ import annotations

import re

import altair as alt

from iorace.report import charts


def _chart(i: int) -> alt.Chart:
    data = alt.Data(values=[{"x": k, "y": (k * i) % 7} for k in range(5)])
    return alt.Chart(data).mark_point().encode(x="x:Q", y="y:Q").properties(title=f"chart {i}")


def _page() -> str:
    return "\n".join(f"<figure>{charts.to_svg(_chart(i))}</figure>" for i in range(charts.POOL_FROM + 2))


def _ids_out(text: str) -> str:
    """The page with its charts' unique id prefixes (a running count) taken out."""
    return re.sub(r"c\d+-", "c-", text)


def test_a_batch_renders_every_chart_in_workers_as_one_by_one():
    one_by_one = _page()
    batched = charts.batched(_page)
    assert "\x00" not in batched and batched.count("<svg") == charts.POOL_FROM + 2
    assert _ids_out(batched) == _ids_out(one_by_one)
