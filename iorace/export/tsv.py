"""One row per timed run in the dcat seed's layout: test elapsed user system cpu_pct mem
(seconds, seconds, seconds, percent, max RSS in KB), so the seed's tsv-summarize line works on it; then
two columns of iorace's own: the run's code layout (its name; empty for the as-linked build) and, for a cell
that layouts alone move by more than 5%, "placement-sensitive"."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from iorace.report.document import Report
from iorace.store.db import SessionData

HEADER = ["test", "elapsed", "user", "system", "cpu_pct", "mem", "layout", "placement"]


def rows(session: SessionData, sensitive: frozenset[int] | set[int] = frozenset()) -> Iterator[list[str]]:
    """`sensitive`: the row ids of the placement-sensitive cells."""
    multi_dataset = len({c.dataset for c in session.cells}) > 1 or len({c.suite for c in session.cells}) > 1
    for c in session.cells:
        test = f"{c.suite}/{c.dataset}/{c.label}" if multi_dataset else c.label
        flag = "placement-sensitive" if c.id in sensitive else ""
        for r in c.measured():
            elapsed, user, system = r.wall_ns / 1e9, r.user_ns / 1e9, r.sys_ns / 1e9
            cpu = round(100 * (user + system) / elapsed) if elapsed > 0 else 0
            layout = c.layout_names[r.layout] if r.layout is not None and r.layout < len(c.layout_names) else ""
            yield [test, f"{elapsed:.4f}", f"{user:.4f}", f"{system:.4f}", f"{cpu}%", str(r.max_rss_kb), layout, flag]


def write_tsv(report: Report, path: Path) -> None:
    """Every timed run of the report's session, with its layout and its cell's placement flag."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(HEADER)
        sensitive = {r.cell.id for g in report.groups for r in g.rows if r.placement is not None and r.placement.sensitive}
        w.writerows(rows(report.session, sensitive))
