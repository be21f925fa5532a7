"""scripts/grid.py: the formats suite's grids (formats by languages, one per data set and op), its size table and
its libraries, from a JSON export's cells."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import grid


def _cell(variant: str, language: str, op: str, ratio: float | None, ci: list[float] | None, **kw: object) -> dict:
    return {
        "suite": "formats",
        "dataset": "quick",
        "kind": "variant",
        "variant": variant,
        "language": language,
        "toolchain": {"cpp": "g++", "rust": "cargo", "python": "python3"}[language],
        "parameters": {"op": op, "passes": "5"},
        "status": "ok",
        "ratio": ratio,
        "ratio_ci95": ci,
        "description": f"{variant}lib 1.0 ({language}): what it does",
        "extra": {"bytes": 1000, "zlib": 300, "zstd": 280},
        **kw,
    }


def test_a_grid_per_op_formats_by_languages_with_intervals_sizes_and_libraries():
    doc = {
        "results": [
            _cell("json", "cpp", "encode", 1.0, [1.0, 1.0]),
            _cell("json", "rust", "encode", 1.234, [1.2, 1.27]),
            _cell("msgpack", "python", "encode", 9.87, [9.5, 10.2]),
            _cell("json", "cpp", "decode", 1.0, [1.0, 1.0]),
            {**_cell("json", "rust", "encode", 1.01, [0.99, 1.03]), "kind": "aa"},  # the A/A twin: not a grid cell
        ],
        "iorace_unmeasured": [{**_cell("msgpack", "rust", "decode", None, None), "status": "wrong"}],
    }
    text = "\n".join(grid.grids(doc))
    assert "**encode** · quick" in text and "**decode** · quick" in text
    assert "| format | cpp | rust | python |" in text  # the languages in the suite's order
    assert "| json | **1.00x** | 1.23x [1.20-1.27] |  |" in text
    assert "| msgpack |  |  | 9.87x [9.50-10.20] |" in text
    assert "| msgpack |  | wrong |  |" in text  # a cell that failed its check says so, untimed
    assert "1.01x" not in text
    assert "| json | 1,000 / 300 / 280 | 1,000 / 300 / 280 |  |" in text
    assert "| json | jsonlib 1.0 (cpp) | jsonlib 1.0 (rust) |  |" in text


def test_a_read_grid_leaves_out_the_formats_skipped_for_it():
    """op=read (zero-copy formats only): its grid's rows are the formats that ran it; the others are named."""
    doc = {
        "results": [_cell("flatbuffers", "cpp", "read", 1.0, [1.0, 1.0]), _cell("json", "cpp", "encode", 1.0, [1.0, 1.0])],
        "iorace_unmeasured": [{**_cell("json", lang, "read", None, None), "status": "skipped"} for lang in ("cpp", "rust")],
    }
    text = "\n".join(grid.grids(doc))
    read = text.split("**read** · quick")[1].split("Bytes written")[0]
    assert "| flatbuffers | **1.00x** |" in read and "| json |" not in read
    assert "Not run with op=read (the manifest's skip_params): json." in read
    encode = text.split("**encode** · quick")[1].split("**read**")[0]
    assert "| json | **1.00x** |" in encode and "Not run" not in encode


def test_a_full_tier_format_skipped_at_this_size_is_named_as_such_and_has_no_size_row():
    """A variant the manifest skips for the data set (CBOR: full tier only) is not said to skip the op, and the size
    table has no empty row for it."""
    skipped = {"status": "skipped", "detail": "not run on quick: full tier (suite.toml)", "extra": {}}
    doc = {
        "results": [_cell("json", "cpp", "decode", 1.0, [1.0, 1.0])],
        "iorace_unmeasured": [{**_cell("cbor", lang, "decode", None, None), **skipped} for lang in ("cpp", "rust")],
    }
    text = "\n".join(grid.grids(doc))
    assert "Not run on quick (the variants' skip: full tier): cbor." in text
    assert "skip_params" not in text
    sizes = text.split("Bytes written")[1].split("Libraries")[0]
    assert "| cbor |" not in sizes and "| json |" in sizes


def test_an_export_without_the_suite_says_so():
    assert grid.grids({"results": []}) == ["(no cell of the suite in this export)"]
