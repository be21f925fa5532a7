"""`iorace site` over a real store of two machines, opened page by page in a real headless Chromium (Debian's,
driven by Playwright, as tests/test_html_browser.py does): no script error, charts drawn, filters working,
every link a file of the site, the planted step a change point on its cell's page, the flipped order on the
suite's page, a page's ratios those of the JSON export; and the same site from PostgreSQL.

The store: eleven real sessions of spin (tests/suites) and readbytes (tiny, C, gcc), on two machine names
(`--machine`): m2 three sessions with spin's loop doing 4x its steps (IORACE_SPIN_SLOWER, loop.c), so loop is
the slowest there and the fastest on m1, a flipped order; m1 eight sessions, the last four with loop3 doing 2x
its steps, a step in one cell. Every session is timed on CPU time (`--metric cpu`), which a busy machine does
not move."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_html_browser import chromium_page

from conftest import REPO, TEST_SUITES, run_iorace
from iorace.store.db import Store

# Alone, after the other tests (make test): its planted orders must be decided, which a busy second worker
# can leave unresolved.
pytestmark = pytest.mark.serial

RUN = [
    *("run", "spin", "readbytes", "--suite-dir", str(TEST_SUITES), "--size", "tiny", "--variant", "c/*", "--toolchain", "gcc"),
    *("--runs", "3", "--precision", "none", "--no-aa", "--target-ms", "none", "--metric", "cpu"),
]
M2_SESSIONS, M1_BEFORE, M1_AFTER = 3, 4, 4  # history needs 4 sessions a side of a change point
BUILD_SECONDS = 120  # generous: about 5 s of CPU here, on a machine other jobs share


def _cells_of(db: sqlite3.Connection, machine: str) -> str:
    return f"SELECT c.id FROM cells c JOIN sessions s ON c.session_id = s.id WHERE s.machine_name = '{machine}'"


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fleet")
    plan = [("m2", "loop:300")] * M2_SESSIONS + [("m1", "")] * M1_BEFORE + [("m1", "loop3:100")] * M1_AFTER
    for machine, slower in plan:
        res = run_iorace([*RUN, "--machine", machine], folder, export=False, env={"IORACE_SPIN_SLOWER": slower})
        assert res.returncode == 0, res.stderr[-2000:]
    path = folder / "iorace.sqlite"
    # The machine that runs the tests is shared, so its sessions are often contended, and `history` leaves a
    # contended session out of a series by design. What the machine did beside m1's runs is set to nothing
    # (and a run displaced and repeated dropped), and beside m2's to two CPUs busy: m1 quiet, m2 contended,
    # whatever the machine did, so the change point and the contended mark are both there to see.
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE runs SET host_busy_ns = 0, host_steal_ns = 0 WHERE cell_id IN ({_cells_of(db, 'm1')})")
        db.execute("DELETE FROM runs WHERE phase = 'displaced'")
        db.execute(f"UPDATE runs SET host_busy_ns = wall_ns * 2 WHERE cell_id IN ({_cells_of(db, 'm2')})")
    return path


def build(db: Path | str, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "iorace", "site", "--db", str(db), "--out", str(out)], cwd=REPO, capture_output=True, text=True
    )


def visible(page, selector: str) -> int:
    return page.eval_on_selector_all(selector, "rows => rows.filter(r => r.offsetParent !== null).length")


def test_the_site_of_a_fleet_store_in_chromium(store, tmp_path):
    out = tmp_path / "site"
    started = time.monotonic()
    res = build(store, out)
    took = time.monotonic() - started
    assert res.returncode == 0, res.stderr
    assert took < BUILD_SECONDS
    pages = sorted(out.glob("*.html"))
    names = {p.name for p in pages}
    assert {"index.html", "suite-spin.html", "suite-readbytes.html", "table-spin-tiny.html", "table-readbytes-tiny.html"} <= names
    assert sum(p.stat().st_size for p in pages) < 2_000_000  # a CI artifact

    step = next(p for p in pages if p.name.startswith("cell-spin-tiny-c-loop3-"))
    errors, requests, links = [], [], set()
    with chromium_page() as page:
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: requests.append(r.url))
        for p in pages:
            page.goto(p.as_uri())
            page.wait_for_selector("body[data-ready='1']", timeout=30_000)
            assert errors == [], p.name
            links |= set(page.eval_on_selector_all("a[href], link[href]", "as => as.map(a => a.getAttribute('href'))"))
            links |= set(page.eval_on_selector_all("script[src]", "ss => ss.map(s => s.getAttribute('src'))"))
            if p.name.startswith(("table-", "cell-")):  # the pages that draw charts
                assert page.locator("figure svg").count() >= 1, p.name
                assert page.locator("figure svg path, figure svg line").count() > 10, p.name

        # the planted step: a change point of about +100% on m1, from m1's fifth session on
        page.goto(step.as_uri())
        changes = page.locator("section#changes table tbody tr").all_inner_texts()
        assert len(changes) == 1 and changes[0].startswith("m1"), changes
        size = float(re.search(r"\+(\d+\.\d)%", changes[0]).group(1))
        assert 60 < size < 140, changes
        first_after = M2_SESSIONS + M1_BEFORE + 1
        assert f"session {first_after - 1} (" in changes[0] and f"session {first_after} (" in changes[0]
        page.screenshot(path=str(tmp_path / "site-cell.png"))
        if shot := os.environ.get("IORACE_SITE_SCREENSHOT"):  # README's picture: tests/test_site_browser.py made it
            shutil.copy(tmp_path / "site-cell.png", shot)

        # the flipped order: spin's loop ahead on m1, behind on m2
        page.goto((out / "suite-spin.html").as_uri())
        verdicts = page.locator("section#verdicts table").first.locator("tbody tr").all_inner_texts()
        flips = [v for v in verdicts if "\tflips\t" in v]
        assert any("c/loop@" in v and "c/loop2@" in v and "\tm1\tm2\t" in v for v in flips), verdicts
        # ... and each machine's ratio loop / loop2 side by side: below 1 on m1, above on m2
        ratios = page.locator("section#verdicts table.ratios tbody tr").all_inner_texts()
        pair = next(r.split("\t") for r in ratios if "c/loop@" in r and "c/loop2@" in r)
        on_m1, on_m2 = (float(text.split("x")[0]) for text in pair[4:6])
        assert on_m1 < 1 < on_m2, pair

        # the filters: one variant, then a toolchain no cell has
        page.goto((out / "table-spin-tiny.html").as_uri())
        page.wait_for_selector("body[data-ready='1']")
        rows = visible(page, "table.cells tbody tr")
        assert rows == 6  # 3 cells on each machine
        page.select_option("select[name=variant]", "loop2")
        assert visible(page, "table.cells tbody tr") == 2
        shown = page.eval_on_selector_all("table.cells tbody tr", "rs => rs.filter(r => r.offsetParent).map(r => r.dataset.variant)")
        assert set(shown) == {"loop2"}
        page.select_option("select[name=variant]", "")
        assert visible(page, "table.cells tbody tr") == rows
        # m2's sessions are contended: its rows carry the mark, m1's do not
        marked = page.eval_on_selector_all(
            "section.group", "ss => ss.map(s => [s.dataset.session, s.querySelectorAll('td .mark.contended').length])"
        )
        assert {sid: n for sid, n in marked} == {str(M2_SESSIONS): 3, str(M2_SESSIONS + M1_BEFORE + M1_AFTER): 0}

        # a page's ratios are the JSON export's: m1's latest session, every table of both suites
        latest = M2_SESSIONS + M1_BEFORE + M1_AFTER
        export = tmp_path / "latest.json"
        shown = subprocess.run(
            [sys.executable, "-m", "iorace", "show", str(latest), "--db", str(store), "--export-json", str(export), "--allow-contended"],
            cwd=REPO,
            capture_output=True,
            text=True,
        )
        assert shown.returncode == 0, shown.stderr
        compared = 0
        for result in json.loads(export.read_text())["results"]:
            params = {k: v for k, v in result["parameters"].items() if k not in result["scale_parameters"]}
            page.goto((out / f"table-{result['suite']}-{result['dataset']}.html").as_uri())
            section = page.locator(f"section.group[data-session='{latest}'][data-params='{json.dumps(params, sort_keys=True)}']")
            row = section.locator(f"tbody tr[data-variant='{result['variant']}'][data-toolchain='{result['toolchain']}']")
            low, high = result["ratio_ci95"]
            assert f"{result['ratio']:.2f}x [{low:.2f}-{high:.2f}]" in row.inner_text(), result["label"]
            compared += 1
        assert compared == 9  # spin's 3 cells and readbytes' 6

    assert errors == []
    assert all(r.startswith("file://") for r in requests)  # nothing fetched from anywhere
    assert links and all(not re.match(r"\w+:", href) and (out / href.split("#")[0]).is_file() for href in links), links


def test_the_same_site_from_postgresql(store, pg_database, tmp_path):
    source, target = Store(store), Store(pg_database)
    for sid in source.session_ids():
        source.push(sid, target)
    from_file, from_server = tmp_path / "file", tmp_path / "server"
    for db, out in ((store, from_file), (pg_database, from_server)):
        res = build(db, out)
        assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in from_server.iterdir()) == sorted(p.name for p in from_file.iterdir())

    def without_source(p: Path) -> str:  # the index names its store
        return re.sub(r"From .*?: (\d+ suites)", r"From STORE: \1", p.read_text())

    for p in from_file.iterdir():
        assert without_source(from_server / p.name) == without_source(p), p.name
