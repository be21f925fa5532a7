"""`iorace site`: the results of a store (SQLite or PostgreSQL) as a static site, one folder of HTML pages that
opens offline (no server, nothing fetched) and is small enough to publish as a CI artifact.

index.html: the suites, the machines, the latest session of each machine with what changed since the one
before, the open change points. suite-S.html: its data sets, the machines' verdicts (`compare-machines`), the
seeds' then-and-now tables, its cells. table-S-D.html: each table of the data set as a chart and its ratios to
the fastest with 95% intervals, on each machine, filtered by language, toolchain and variant. cell-*.html: a
cell's history over the sessions with its change points (`history`).

collect.py reads the store, pages.py draws, layout.py names the files and holds the page shell.
"""

from __future__ import annotations

from pathlib import Path

from iorace.export.site import pages
from iorace.export.site.collect import WINDOW, collect
from iorace.export.site.layout import ASSETS, INDEX, cell_page, suite_page, table_page
from iorace.report import charts
from iorace.store.db import Store


def build_site(store: Store, out: Path, window: int = WINDOW) -> list[Path]:
    """Write every page of the store's site, its style and its script into `out` (made if missing); returns the
    files written."""
    site = collect(store, window)

    def every_page() -> dict[str, str]:
        files = {**ASSETS, INDEX: pages.index(site)}
        for sd in site.suites:
            files[suite_page(sd.suite)] = pages.suite(site, sd)
            for name in sd.datasets:
                files[table_page(sd.suite, name)] = pages.dataset(site, sd, name)
            for ser in sd.series:
                files[cell_page(ser.ident)] = pages.cell(site, sd, ser)
        return files

    files = charts.batched_pages(every_page)  # the charts of every page rendered at once, one worker per CPU
    out.mkdir(exist_ok=True)
    written = []
    for name, text in files.items():
        (out / name).write_text(text)
        written.append(out / name)
    return written
