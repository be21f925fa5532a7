"""Statuses and variant kinds are closed sets that every module asks (iorace.core.status, iorace.core.kind): each
member drives every place that depends on it, so adding a member is one edit."""

from __future__ import annotations

import html

import pytest
from sessions import cell, session

from iorace.core.kind import Kind
from iorace.core.status import BAD_STATES, Status
from iorace.export.html import CSS, render
from iorace.manifest.schema import Variant
from iorace.report.document import build


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_is_accepted_noted_drawn_and_styled(kind):
    Variant(name="v", language="c", description="d", sources=["v.c"], kind=kind.value)  # the manifest takes it
    s = session([cell("ref", inner=[10, 10, 10]), cell("v", kind=kind.value, inner=[5, 5, 5])])
    page = render(build(s))
    row = next(line for line in page.splitlines() if 'data-language="c"' in line and ">c/v<" in line)
    assert (f'class="{kind.value}"' in row) == kind.marked
    assert (f"tr.{kind.value} td" in CSS) == kind.marked
    if kind.note:
        assert html.escape(kind.note) in page
    from iorace.analyse.analysis import analyse

    (g,) = analyse(s)
    assert (g.fastest.cell.variant == "v") == kind.compared  # 5 ms beats 10 ms only where it is compared


@pytest.mark.parametrize("status", list(Status))
def test_every_status_sorts_colours_and_judges(status):
    assert (f"td.s-{status.value}" in CSS) == bool(status.css)
    assert Status.sort_key(status.value) == status.order < Status.sort_key("a status from a newer iorace")
    assert (status in BAD_STATES) == status.bad
    assert status.style or status is Status.PLANNED


def test_unknown_stored_values_do_not_break_a_report():
    assert Status.of("paused") is None and Kind.of("oracle") is Kind.VARIANT
