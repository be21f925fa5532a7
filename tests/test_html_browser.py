"""The HTML report of a real session, rendered by a real headless Chromium (Debian's, driven by Playwright):
the charts are drawn, no script error occurs, nothing is fetched, the filters work; a screenshot is kept
in the test's temporary folder."""

import contextlib
import subprocess
import sys
import tempfile

from conftest import REPO, run_iorace

BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextlib.contextmanager
def chromium_page():
    """A fresh page of Debian's headless chromium (its own profile folder), closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="iorace-chromium-"),
            executable_path="/usr/bin/chromium",
            headless=True,
            args=BROWSER_ARGS,
            viewport={"width": 1400, "height": 1000},
        )
        try:
            yield browser.new_page()
        finally:
            browser.close()


def open_in_chromium(path, screenshot):
    """Load the page in Debian's headless chromium: (number of SVG charts, drawn marks, script errors,
    URLs requested)."""
    errors, requests = [], []
    with chromium_page() as page:
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: requests.append(r.url))
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        charts = page.locator("figure svg").count()
        marks = page.locator("figure svg path, figure svg line").count()
        page.screenshot(path=str(screenshot))
        # the filters hide the rows that do not match
        page.select_option("select[name=status]", "ok")
        page.fill("#filter-text", "simd-limit")
        shown = page.eval_on_selector_all(
            "table.cells tbody tr", "rows => rows.filter(r => r.style.display !== 'none').map(r => r.cells[1].textContent)"
        )
        page.select_option("select[name=language]", "c")
        page.fill("#filter-text", "no such cell")
        none_shown = page.eval_on_selector_all("table.cells tbody tr", "rows => rows.filter(r => r.style.display !== 'none').length")
    return charts, marks, shown, none_shown, errors, requests


def test_a_real_session_renders_in_chromium(tmp_path):
    page = tmp_path / "report.html"
    result = run_iorace(
        [
            "run",
            "readbytes",
            "--size",
            "tiny",
            "--variant",
            "c/*",
            "--toolchain",
            "gcc",
            "--runs",
            "2",
            "--warmup",
            "0",
            "--export-html",
            str(page),
        ],
        tmp_path,
        export=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    # `iorace report` writes the same page from the database
    again = tmp_path / "again.html"
    out = subprocess.run(
        [sys.executable, "-m", "iorace", "report", "--db", str(tmp_path / "iorace.sqlite"), "--html", str(again), "--allow-contended"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert out.returncode == 0, out.stderr
    assert again.read_text() == page.read_text()
    assert page.stat().st_size < 400_000
    charts, marks, shown, none_shown, errors, requests = open_in_chromium(page, tmp_path / "report.png")
    assert charts >= 4  # two groups (mode=count, mode=sum), each a ratio and a distribution chart at least
    assert marks > 50
    assert errors == []
    assert requests == [page.as_uri()]  # nothing fetched from anywhere
    assert shown == ["c/simd-limit", "c/simd-limit"]  # one per group (count, sum); the cell is the column after the place
    assert none_shown == 0
    assert (tmp_path / "report.png").stat().st_size > 10_000


def test_dcats_tests_in_the_seeds_order_are_drawn(tmp_path):
    """lines declares the seed's own table (dcat's tests in its order, beside the seed's figures): a real
    session draws it as a chart of dots, ours and the seed's, in that order."""
    page_path = tmp_path / "lines.html"
    result = run_iorace(
        [
            "run",
            "lines",
            "--size",
            "tiny",
            "--variant",
            "d/byLine*",
            "--variant",
            "d/iopipeByLineInBufOut",
            "--toolchain",
            "gdc",
            "--runs",
            "2",
            "--warmup",
            "0",
            "--export-html",
            str(page_path),
        ],
        tmp_path,
        export=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    with chromium_page() as page:
        page.goto(page_path.as_uri())
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        section = page.locator("section#seed0")
        assert "dcat's tests in the seed's order · lines · tiny · gdc release" in section.locator("h2").inner_text()
        tests = section.locator("table tbody tr td:first-child").all_inner_texts()
        assert tests[:5] == [
            "byLineInRawOut",
            "byLineInBufOut",
            "bufferedByLineInBufOut",
            "iopipeByLineInRawOut",
            "iopipeByLineInBufOut",
        ]  # the seed's order, whatever ran fastest
        dots = section.locator("figure svg [aria-roledescription='point']").count()
        assert dots == 3 + 3  # three tests measured, and the seed's figures for those three
        section.screenshot(path=str(tmp_path / "seed-table.png"))
