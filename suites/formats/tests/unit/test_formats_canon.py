"""formats: the canon stream's golden bytes (README.md, "The canon stream"), the datasets' digests (a change to
the generator is a change to every cell's expected answer), and the Python cells' own canon writer against the
reference."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

SUITE = Path(__file__).resolve().parents[2]


def _load(name: str, path: Path):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


suite = _load("formats_suite", SUITE / "suite.py")
sys.path.insert(0, str(SUITE / "python"))
common = _load("formats_common", SUITE / "python" / "common.py")

SMALL = {
    "areaNames": {"é": "x", "b": ""},  # keys ordered by UTF-8 bytes: "b" (0x62) before "é" (0xc3 0xa9)
    "events": {},
    "performances": [
        {
            "id": -1,
            "eventId": (1 << 63) - 1,
            "name": None,
            "logo": "L",
            "start": 0,
            "venueCode": "V",
            "prices": [],
            "seatCategories": [{"seatCategoryId": 2, "areas": [{"areaId": 3, "blockIds": [1 << 53]}]}],
        }
    ],
    "topicSubTopics": {"t": []},
    "venueNames": {},
}
GOLDEN = (
    "02000000"
    "01000000"
    "62"
    "00000000"
    "02000000"
    "c3a9"
    "01000000"
    "78"  # areaNames
    "00000000"  # events
    "01000000"
    "ffffffffffffffff"
    "ffffffffffffff7f"
    "00"
    "01"
    "01000000"
    "4c"
    "0000000000000000"
    "01000000"
    "56"
    "00000000"  # id, eventId, name, logo, start, venueCode, prices
    "01000000"
    "0200000000000000"
    "01000000"
    "0300000000000000"
    "01000000"
    "0000000000002000"  # seatCategories
    "01000000"
    "01000000"
    "74"
    "00000000"  # topicSubTopics
    "00000000"  # venueNames
)


def test_canon_golden_bytes() -> None:
    assert suite.canon(SMALL).hex() == GOLDEN
    assert common.Canon().catalog(SMALL).hex() == GOLDEN


def test_datasets_digests(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    suite.generate("tiny", path)
    assert suite.expected(path, {}) == "d47d3e1bbbf071280ead9f0a6b87246f5cf6ef341c7ad4400501bd5db1b11f6d"
    assert common.digest(json.loads(path.read_bytes())) == suite.expected(path, {})
