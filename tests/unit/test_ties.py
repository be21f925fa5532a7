"""Ties as ties: each ranked cell's place is the range its 95% interval allows (analysis.Place), and a table's
caption names every cell that shares the first place (analysis.Lead, tables.lead_text), on hand-built
sessions whose intervals are known in advance."""

import pytest
from sessions import cell, session

from iorace.analyse.analysis import analyse, interval
from iorace.export.json_export import result
from iorace.report.tables import group_caption, lead_text

# two cells whose rounds alternate which one is faster: their paired ratio's interval covers 1.00
A = [10, 10.4, 10, 10.4, 10, 10.4]
B = [10.4, 10, 10.4, 10, 10.4, 10]


def table(*cells):
    (g,) = analyse(session(list(cells)))
    return g, {r.cell.key: r for r in g.rows}


def places(rows: dict) -> dict:
    return {key: str(r.place) if r.place is not None else None for key, r in rows.items()}


def test_a_clear_leader_is_ahead_by_the_low_end_of_the_next_interval():
    g, rows = table(
        cell("fast", inner=[10, 10, 11, 10, 10, 10]),
        cell("next", inner=[12, 12.2, 13, 12, 11.9, 12]),
        cell("slow", inner=[30, 31, 30, 29, 30, 30]),
        cell("fast~aa", kind="control", inner=[10, 11, 10, 10, 10, 10]),  # overlaps the leader, but is not ranked
        cell("simd", kind="limit", inner=[2, 2, 2, 2, 2, 2]),  # faster, but another method
    )
    assert places(rows) == {"c/simd": None, "c/fast": "1", "c/fast~aa": None, "c/next": "2", "c/slow": "3"}
    lead = g.lead()
    assert lead is not None and not lead.tie and lead.rows == [rows["c/fast"]]
    assert lead.ahead == pytest.approx(rows["c/next"].vs_fastest.low - 1)
    assert 0.1 < lead.ahead < 0.2
    assert lead_text(g) == f"Fastest: c/fast gcc release, ahead of the next by at least {lead.ahead:.1%} (95% intervals)."
    assert lead_text(g) in group_caption(g)
    assert result(rows["c/next"])["place"] == [2, 2] and result(rows["c/next"])["tied"] is False
    assert result(rows["c/fast"])["place"] == [1, 1] and result(rows["c/fast"])["tied"] is False
    assert result(rows["c/simd"])["place"] is None and result(rows["c/simd"])["tied"] is None


def test_a_two_way_tie_shares_the_first_place():
    g, rows = table(cell("a", inner=A), cell("b", inner=B), cell("slow", inner=[20, 21, 20, 19, 20, 20]))
    assert rows["c/b"].vs_fastest.overlaps_one()
    assert places(rows) == {"c/a": "1-2", "c/b": "1-2", "c/slow": "3"}
    lead = g.lead()
    assert lead is not None and lead.tie and lead.rows == [rows["c/a"], rows["c/b"]]
    low, high = interval(rows["c/b"])
    assert lead.within == pytest.approx(max(high - 1, 1 - low))
    names = "c/a gcc release and c/b gcc release"
    assert lead_text(g) == f"Fastest: {names}, a tie at 95%: each within +-{lead.within:.1%} of the fastest's time."
    assert result(rows["c/b"])["place"] == [1, 2] and result(rows["c/b"])["tied"] is True


def test_a_three_way_tie_and_a_cell_tied_with_its_neighbours_only():
    g, rows = table(
        cell("a", inner=A),
        cell("b", inner=B),
        cell("c", inner=[10.3, 10.1, 10.4, 10.3, 10.1, 10.4]),
        cell("d", inner=[20, 20.5, 20, 20.5, 20, 20.5]),
        cell("e", inner=[20.5, 20, 20.5, 20, 20.5, 20]),
    )
    assert places(rows) == {"c/a": "1-3", "c/b": "1-3", "c/c": "1-3", "c/d": "4-5", "c/e": "4-5"}
    lead = g.lead()
    assert lead is not None and [r.cell.key for r in lead.rows] == ["c/a", "c/b", "c/c"]  # fastest first, by median
    assert lead.within == pytest.approx(max(max(h - 1, 1 - lo) for lo, h in (interval(rows["c/b"]), interval(rows["c/c"]))))
    assert lead_text(g).startswith("Fastest: c/a gcc release, c/b gcc release and c/c gcc release, a tie at 95%")
    assert result(rows["c/d"])["place"] == [4, 5] and result(rows["c/d"])["tied"] is True  # tied, though not for the lead


def test_a_cell_without_an_interval_could_be_anywhere():
    g, rows = table(
        cell("fast", inner=[10, 10, 11, 10, 10]),
        cell("mid", inner=[20, 20, 21, 20, 19]),
        cell("once", inner=[30]),  # one round: a ratio but no interval
    )
    assert rows["c/once"].vs_fastest.low is None
    # it ties with every cell, so it widens the others' worst place by one and shares the first place
    assert places(rows) == {"c/fast": "1-2", "c/mid": "2-3", "c/once": "1-3"}
    lead = g.lead()
    assert lead is not None and lead.tie and lead.unknown == [rows["c/once"]] and lead.within is None
    names = "c/fast gcc release and c/once gcc release"
    assert lead_text(g) == f"Fastest: {names}, a tie at 95% (c/once gcc release: no interval, so any place)."


def test_no_lead_with_fewer_than_two_ranked_cells():
    g, rows = table(cell("only", inner=[10, 10, 11]), cell("simd", kind="limit", inner=[2, 2, 2]))
    assert places(rows) == {"c/simd": None, "c/only": "1"}
    assert g.lead() is None and lead_text(g) == ""


def test_every_format_shows_the_tie():
    from iorace.export.html import render as html
    from iorace.report.document import build
    from iorace.report.markdown import render as markdown

    report = build(session([cell("a", inner=A), cell("b", inner=B), cell("slow", inner=[20, 21, 20, 19, 20, 20])]))
    page = html(report)
    assert "fastest: a tie of 2 (c/a gcc release, c/b gcc release)" in page  # the folded table's summary line
    assert "<th>place</th>" in page and '<td class="l">1-2</td>' in page
    text = markdown(report)
    assert "a tie at 95%" in text and "| place |" in text and "| 1-2 | c/b |" in text


def test_a_cell_the_race_stopped_early_is_not_named_in_the_lead():
    """Two rounds give a raced-out cell an interval wide enough to reach the first place (2.16x [0.17-27.17]):
    the caption names the cells timed to the end, and the stopped one apart, never a tie within +-2600%."""
    early = cell("early", inner=[8, 30])
    early.timing_note = "stopped after 2 rounds: over 2x behind the fastest (race)"
    g, rows = table(
        cell("fast", inner=[10, 10, 11, 10, 10, 10]),
        cell("next", inner=[12, 12.2, 13, 12, 11.9, 12]),
        early,
    )
    assert rows["c/early"].place is not None and rows["c/early"].place.best == 1  # its interval reaches the top
    lead = g.lead()
    assert lead is not None and not lead.tie and lead.rows == [rows["c/fast"]] and lead.early == [rows["c/early"]]
    assert lead.ahead == pytest.approx(rows["c/next"].vs_fastest.low - 1)  # ahead of the cells timed to the end
    text = lead_text(g)
    assert text.startswith("Fastest: c/fast gcc release, ahead of the next by at least")
    assert text.endswith("(c/early gcc release: stopped early by the race, not placed).")
    assert "tie" not in text


def test_the_only_cell_timed_to_the_end_is_named_alone():
    early = cell("early", inner=[8, 30])
    early.timing_note = "stopped after 2 rounds: over 2x behind the fastest (race)"
    g, _ = table(cell("fast", inner=[10, 10, 11, 10, 10, 10]), early)
    only = "Fastest: c/fast gcc release, the only cell timed to the end"
    assert lead_text(g) == only + " (c/early gcc release: stopped early by the race, not placed)."
