"""Several stored sessions of the same cells as one result (`show 12 13 14`, `report`, `compare 12,13 14,15`).

The pooled session holds each cell's runs of every session, their rounds numbered session by session
(stats.SESSION_STRIDE apart), so that a paired ratio pairs runs of the same round of the same session, and
over several sessions becomes a hierarchical estimate (stats._pooled: resample sessions, then rounds). A
claim can then rest on three sessions, and its interval holds what moves from one session to the next.

Only sessions of one host are pooled (core/host.py): this VM kind's hosts differ in a ratio by more than its
interval (readbytes' java-1: 38-41x on an Intel Xeon, 8x on an AMD EPYC Zen 4), so a pool across them would
be an interval around no host's answer. The last session's host is kept; the others are left out and said so.
"""

from __future__ import annotations

import dataclasses

from iorace.analyse.stats import SESSION_STRIDE
from iorace.core.errors import UsageError
from iorace.core.host import left_out_note
from iorace.core.ids import CellId
from iorace.core.status import Status
from iorace.store.db import CellData, SessionData

HOST_NOTE = "host_note"  # the pooled session's options: which sessions of other hosts were left out


def by_host(sessions: list[SessionData]) -> list[list[SessionData]]:
    """The sessions in groups of one host each, in the order each host first appears."""
    groups: dict[object, list[SessionData]] = {}
    for s in sessions:
        groups.setdefault(s.host, []).append(s)
    return list(groups.values())


def one_host(sessions: list[SessionData], what: str) -> tuple[list[SessionData], str]:
    """The sessions of the last one's host, and the line saying which others `what` left out ('' if none)."""
    last = sessions[-1]
    others = {s.id: s.host for s in sessions if s.host != last.host}
    return [s for s in sessions if s.host == last.host], left_out_note(last.host, others, what)


def pool(sessions: list[SessionData]) -> SessionData:
    """One session made of several of one host (the last one's): the last one's facts, every cell any of them
    measured, each ok cell's timed runs from every session where it was ok; sessions of another host are left
    out, and the pooled session's options say so (HOST_NOTE)."""
    if not sessions:
        raise UsageError("no session to pool")
    if len(sessions) == 1:
        return sessions[0]
    last = sessions[-1]
    sessions, note = one_host(sessions, "pooling")
    if len(sessions) == 1:
        return dataclasses.replace(last, options={**last.options, HOST_NOTE: note})
    cells: dict[CellId, CellData] = {}
    for i, s in enumerate(sessions):
        for c in s.cells:
            key = c.ident(s.settings(c.suite).scale_params)
            runs = [dataclasses.replace(r, round=i * SESSION_STRIDE + r.round) for r in c.runs] if c.status == Status.OK else []
            held = cells.get(key)
            if held is None:
                cells[key] = dataclasses.replace(c, runs=runs)
            else:
                ok = held.status == Status.OK or c.status == Status.OK
                cells[key] = dataclasses.replace(
                    c if c.status == Status.OK or held.status != Status.OK else held,
                    runs=held.runs + runs,
                    status=Status.OK if ok else c.status,
                )
    ids = [s.id for s in sessions]
    return dataclasses.replace(
        last,
        cells=list(cells.values()),
        command_line=f"pooled sessions {', '.join(map(str, ids))}",
        options={**last.options, "pooled": ids, **({HOST_NOTE: note} if note else {})},
        suites={k: v for s in sessions for k, v in s.suites.items()},
    )
