"""The site's page shell and its names: one flat folder of pages, each a whole HTML file that opens offline.

Every page carries the HTML report's own CSS and script (iorace.export.html: its filters select rows by their
data-NAME attributes, so a select named "variant" filters by a row's data-variant with no new script), and
links to the others by relative file names in the same folder, so the folder can be moved, zipped or
published as a CI artifact as it is.
"""

from __future__ import annotations

import hashlib
import json
import re

from iorace.core.ids import CellId
from iorace.export.html import CSS, SCRIPT, esc

SITE_CSS = """
nav.site { padding: 10px 0; border-bottom: 1px solid #ddd; } nav.site a { margin-right: 14px; }
.mark { display: inline-block; padding: 0 5px; border-radius: 3px; font-size: 11px; }
.mark.contended { background: #fde7c8; } .mark.placement { background: #e3ecfd; }
.mark.slower { background: #fbd5d5; } .mark.faster { background: #d5f5dd; }
"""

INDEX = "index.html"


def slug(text: str) -> str:
    """A file-name-safe form of a name (suite, dataset, machine): letters, digits, '.', '_' and '-'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "x"


def suite_page(suite: str) -> str:
    return f"suite-{slug(suite)}.html"


def table_page(suite: str, dataset: str) -> str:
    return f"table-{slug(suite)}-{slug(dataset)}.html"


def cell_page(ident: CellId) -> str:
    """A cell's page: its readable name (its scale parameters left out, as `history` identifies it), and a
    short hash of its whole identity so two cells whose names read alike keep two pages."""
    digest = hashlib.sha256(repr(ident).encode()).hexdigest()[:8]
    params = " ".join(f"{k}={v}" for k, v in json.loads(ident.params).items())
    name = f"{ident.dataset} {params} {ident.key} {ident.toolchain} {ident.profile}"
    return f"cell-{slug(ident.suite)}-{slug(name)[:60]}-{digest}.html"


def link(href: str, text: str) -> str:
    return f'<a href="{esc(href)}">{esc(text)}</a>'


def page(title: str, body: list[str], suites: list[str]) -> str:
    """A whole page: the navigation to the index and every suite, the body, the filters' script. The style and
    the script are files of the site (ASSETS), written once: inline, they were half of a site of 900 pages."""
    nav = " ".join([link(INDEX, "index"), *(link(suite_page(s), s) for s in suites)])
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{esc(title)}</title>'
        f'<link rel="stylesheet" href="{STYLE}"></head><body>\n'
        f'<nav class="site">{nav}</nav>\n<h1>{esc(title)}</h1>\n'
        + "\n".join(body)
        + f'\n<script src="{SCRIPT_FILE}"></script>\n</body></html>\n'
    )


STYLE, SCRIPT_FILE = "site.css", "site.js"
ASSETS = {STYLE: CSS + SITE_CSS, SCRIPT_FILE: SCRIPT}  # the HTML report's own style and script, and the site's marks
