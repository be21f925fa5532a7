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


def test_visit_checksum_by_hand() -> None:
    """README.md, "The read op": the visit checksum of SMALL, summed by hand, and of a tree with every JSON type."""

    def keys(*names: str) -> int:  # a record: its number of keys and their lengths (all ASCII)
        return len(names) + sum(map(len, names))

    catalog = keys("areaNames", "events", "performances", "topicSubTopics", "venueNames")
    assert catalog == 56
    area_names = 2 + (len("é".encode()) + 1) + (1 + 0)  # 2 entries; "é" is 2 bytes, "x" 1; "b", ""
    area = keys("areaId", "blockIds") + 3 + (1 + (1 << 53))
    seat_category = keys("seatCategoryId", "areas") + 2 + (1 + area)
    performance = keys("id", "eventId", "name", "logo", "start", "venueCode", "prices", "seatCategories")
    performance += ((1 << 64) - 1) + ((1 << 63) - 1) + 0 + 1 + 0 + 1 + 0 + (1 + seat_category)  # -1 wraps
    topics = 1 + (1 + 0)
    want = (catalog + area_names + 0 + (1 + performance) + topics + 0) % (1 << 64)
    assert want == 169 + (1 << 63) + (1 << 53)
    assert suite.visit_sum(SMALL) == want
    # 1.5's IEEE-754 bits; true 1, false 0, null 0; "é" 2 bytes; {"ab": -2}: 1 entry, key 2, -2 wrapped
    tree = [1.5, True, False, None, "é", {"ab": -2}]
    assert suite.visit_sum(tree) == (6 + 0x3FF8000000000000 + 1 + 0 + 0 + 2 + (1 + 2 + (1 << 64) - 2)) % (1 << 64)
    assert suite.visit_sum((1 << 64) - 1) == (1 << 64) - 1
    assert suite.visit_sum([(1 << 64) - 1] * 2) == 0  # 2 + 2 (2^64 - 1) wraps to 0


def test_tiny_visit_checksum(tmp_path: Path) -> None:
    """The tiny dataset's visit checksum: a change to the generator changes every read cell's answer."""
    path = tmp_path / "tiny.json"
    suite.generate("tiny", path)
    assert suite.visit_sum(json.loads(path.read_bytes())) == 9223411449973952903
