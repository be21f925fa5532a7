"""Several stored sessions of the same cells as one result (`show 12 13 14`, `report`, `compare 12,13 14,15`).

The pooled session holds each cell's runs of every session, their rounds numbered session by session
(stats.SESSION_STRIDE apart), so that a paired ratio pairs runs of the same round of the same session, and
over several sessions becomes a hierarchical estimate (stats._pooled: resample sessions, then rounds). A
claim can then rest on three sessions, and its interval holds what moves from one session to the next.
"""

from __future__ import annotations

import dataclasses

from iorace.analyse.stats import SESSION_STRIDE
from iorace.core.errors import UsageError
from iorace.core.ids import CellId
from iorace.core.status import Status
from iorace.store.db import CellData, SessionData


def pool(sessions: list[SessionData]) -> SessionData:
    """One session made of several: the last one's facts, every cell any of them measured, each ok cell's
    timed runs from every session where it was ok."""
    if not sessions:
        raise UsageError("no session to pool")
    if len(sessions) == 1:
        return sessions[0]
    last = sessions[-1]
    cells: dict[CellId, CellData] = {}
    for i, s in enumerate(sessions):
        for c in s.cells:
            key = c.ident(s.suite_setting(c.suite, "scale_params", []))
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
        options={**last.options, "pooled": ids},
        suites={k: v for s in sessions for k, v in s.suites.items()},
    )
