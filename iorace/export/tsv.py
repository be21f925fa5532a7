"""One row per timed run in the dcat seed's layout: test elapsed user system cpu_pct mem
(seconds, seconds, seconds, percent, max RSS in KB), so the seed's tsv-summarize line works on it."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from iorace.report.document import Report
from iorace.store.db import SessionData

HEADER = ["test", "elapsed", "user", "system", "cpu_pct", "mem"]


def rows(session: SessionData) -> Iterator[list[str]]:
    multi_dataset = len({c.dataset for c in session.cells}) > 1 or len({c.suite for c in session.cells}) > 1
    for c in session.cells:
        test = f"{c.suite}/{c.dataset}/{c.label}" if multi_dataset else c.label
        for r in c.measured():
            elapsed, user, system = r.wall_ns / 1e9, r.user_ns / 1e9, r.sys_ns / 1e9
            cpu = round(100 * (user + system) / elapsed) if elapsed > 0 else 0
            yield [test, f"{elapsed:.4f}", f"{user:.4f}", f"{system:.4f}", f"{cpu}%", str(r.max_rss_kb)]


def write_tsv(report: Report, path: Path) -> None:
    """Every timed run of the report's session (runs, not statistics: nothing of the analysis is needed)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(rows(report.session))
