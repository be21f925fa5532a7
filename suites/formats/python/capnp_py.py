# Strategy: pycapnp 2.2.4 (PyPI; libcapnp 1.0 inside, its dynamic API: the schema loaded at run time, no
# generated code): encode = the plain dicts and lists set field by field into a new Catalog message and
# to_bytes (unpacked); decode = from_bytes (a reader over the bytes, default limits: traversal 8 Mi words, nesting
# 64) converted to new plain dicts and lists; read = the same reader, every field visited (no plain objects),
# answering the visit checksum. All on the clock.
"""Usage: capnp_py.py CANON encode|decode|read PASSES | --emit CANON OUT | --decode FILE."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import capnp
import common

# /usr/include: the schema imports /capnp/c++.capnp (its C++ namespace), which Debian's libcapnp-dev ships there
schema = capnp.load(str(Path(__file__).resolve().parent.parent / "capnp" / "catalogue.capnp"), imports=["/usr/include"])
Catalog = schema.Catalog


def _strings(to: Any, m: dict) -> None:
    for e, k in zip(to, sorted(m, key=lambda k: k.encode("utf-8")), strict=True):  # the schema's order: key bytes
        e.key = k
        e.value = m[k]


def _sorted(m: dict) -> list:
    return sorted(m.items(), key=lambda kv: kv[0].encode("utf-8"))


def encode(data: dict) -> bytes:
    c = Catalog.new_message()
    _strings(c.init("areaNames", len(data["areaNames"])), data["areaNames"])
    events = data["events"]
    for entry, (key, e) in zip(c.init("events", len(events)), _sorted(events), strict=True):
        entry.key = key
        x = entry.init("value")
        x.id = e["id"]
        x.name = e["name"]
        if e["description"] is not None:
            x.description.present = e["description"]  # else the union's default: absent
        if e["logo"] is not None:
            x.logo.present = e["logo"]
        x.subTopicIds = e["subTopicIds"]
        x.topicIds = e["topicIds"]
    performances = data["performances"]
    for x, p in zip(c.init("performances", len(performances)), performances, strict=True):
        x.id = p["id"]
        x.eventId = p["eventId"]
        if p["name"] is not None:
            x.name.present = p["name"]
        if p["logo"] is not None:
            x.logo.present = p["logo"]
        x.start = p["start"]
        x.venueCode = p["venueCode"]
        for y, pr in zip(x.init("prices", len(p["prices"])), p["prices"], strict=True):
            y.amount = pr["amount"]
            y.audienceSubCategoryId = pr["audienceSubCategoryId"]
            y.seatCategoryId = pr["seatCategoryId"]
        for y, sc in zip(x.init("seatCategories", len(p["seatCategories"])), p["seatCategories"], strict=True):
            y.seatCategoryId = sc["seatCategoryId"]
            for z, a in zip(y.init("areas", len(sc["areas"])), sc["areas"], strict=True):
                z.areaId = a["areaId"]
                z.blockIds = a["blockIds"]
    topics = data["topicSubTopics"]
    for entry, (key, ids) in zip(c.init("topicSubTopics", len(topics)), _sorted(topics), strict=True):
        entry.key = key
        entry.value = ids
    _strings(c.init("venueNames", len(data["venueNames"])), data["venueNames"])
    return c.to_bytes()


def _whole(raw: bytes) -> None:
    """Bytes that are not exactly one message are refused: the segment table's words must be all there is (the
    reader would take bytes past the end silently)."""
    if len(raw) < 8 or len(raw) % 8:
        raise ValueError(f"capnp: {len(raw)} bytes is not a whole number of 8-byte words")
    count = int.from_bytes(raw[:4], "little") + 1
    table = (count + 2) // 2
    if 8 * table > len(raw):
        raise ValueError(f"capnp: a segment table of {count} segments in {len(raw)} bytes")
    words = table + sum(int.from_bytes(raw[4 + 4 * i : 8 + 4 * i], "little") for i in range(count))
    if 8 * words != len(raw):
        raise ValueError(f"capnp: the segment table says {8 * words} bytes, there are {len(raw)}")


def _refusal(e: Exception) -> ValueError:
    text = str(e).split("stack:")[0]  # kj exceptions end with a stack trace
    return ValueError("capnp: " + " ".join(text.split()))


def _map(entries: Any, value: Any) -> dict:
    """Entries in strictly increasing key order (the encoders write them so), or the bytes are refused."""
    out: dict = {}
    last = None
    for e in entries:
        k = e.key
        kb = k.encode("utf-8")
        if last is not None and kb <= last:
            raise ValueError("capnp: map keys out of order or repeated")
        last = kb
        out[k] = value(e.value)
    return out


def _opt(u: Any) -> str | None:
    return u.present if u.which() == "present" else None


def _event(x: Any) -> dict:
    return {
        "id": x.id,
        "name": x.name,
        "description": _opt(x.description),
        "logo": _opt(x.logo),
        "subTopicIds": list(x.subTopicIds),
        "topicIds": list(x.topicIds),
    }


def _catalog(r: Any) -> dict:
    return {
        "areaNames": _map(r.areaNames, str),
        "events": _map(r.events, _event),
        "performances": [
            {
                "id": p.id,
                "eventId": p.eventId,
                "name": _opt(p.name),
                "logo": _opt(p.logo),
                "start": p.start,
                "venueCode": p.venueCode,
                "prices": [
                    {"amount": y.amount, "audienceSubCategoryId": y.audienceSubCategoryId, "seatCategoryId": y.seatCategoryId}
                    for y in p.prices
                ],
                "seatCategories": [
                    {"seatCategoryId": y.seatCategoryId, "areas": [{"areaId": z.areaId, "blockIds": list(z.blockIds)} for z in y.areas]}
                    for y in p.seatCategories
                ],
            }
            for p in r.performances
        ],
        "topicSubTopics": _map(r.topicSubTopics, list),
        "venueNames": _map(r.venueNames, str),
    }


def decode(raw: bytes) -> dict:
    _whole(raw)
    try:
        with Catalog.from_bytes(raw) as r:
            return _catalog(r)
    except capnp.KjException as e:
        raise _refusal(e) from None
    except UnicodeDecodeError as e:  # a Text field's bytes: pycapnp decodes them to str
        raise ValueError(f"capnp: {e}") from None


# --- read: the visit checksum (README.md, "The read op"), through the reader, no plain objects ---------------
# The canonical JSON's value tree: a record is an object, so each adds its number of keys and their byte lengths
# (constants, computed from the keys); an int is its value mod 2^64; a string its UTF-8 length; null 0.
def _keys(*names: str) -> int:
    return len(names) + sum(len(n) for n in names)


CATALOG = _keys("areaNames", "events", "performances", "topicSubTopics", "venueNames")
EVENT = _keys("id", "name", "description", "logo", "subTopicIds", "topicIds")
PERFORMANCE = _keys("id", "eventId", "name", "logo", "start", "venueCode", "prices", "seatCategories")
PRICE = _keys("amount", "audienceSubCategoryId", "seatCategoryId")
SEAT_CATEGORY = _keys("seatCategoryId", "areas")
AREA = _keys("areaId", "blockIds")


def _ulen(s: str) -> int:  # pycapnp gives Text as str: its UTF-8 length is its encoding's
    return len(s.encode("utf-8"))


def _vints(lst: Any) -> int:
    return len(lst) + sum(lst)


def _vopt(u: Any) -> int:
    return _ulen(u.present) if u.which() == "present" else 0


def _vstrings(entries: Any) -> int:
    return len(entries) + sum(_ulen(e.key) + _ulen(e.value) for e in entries)


def visit(r: Any) -> int:
    s = CATALOG + _vstrings(r.areaNames)
    events = r.events
    s += len(events)
    for entry in events:
        x = entry.value
        s += _ulen(entry.key) + EVENT + x.id + _ulen(x.name) + _vopt(x.description) + _vopt(x.logo)
        s += _vints(x.subTopicIds) + _vints(x.topicIds)
    performances = r.performances
    s += len(performances)
    for p in performances:
        s += PERFORMANCE + p.id + p.eventId + _vopt(p.name) + _vopt(p.logo) + p.start + _ulen(p.venueCode)
        prices = p.prices
        s += len(prices) + sum(PRICE + y.amount + y.audienceSubCategoryId + y.seatCategoryId for y in prices)
        cats = p.seatCategories
        s += len(cats)
        for y in cats:
            areas = y.areas
            s += SEAT_CATEGORY + y.seatCategoryId + len(areas) + sum(AREA + z.areaId + _vints(z.blockIds) for z in areas)
    topics = r.topicSubTopics
    s += len(topics) + sum(_ulen(e.key) + _vints(e.value) for e in topics)
    return (s + _vstrings(r.venueNames)) % (1 << 64)  # Python's ints do not wrap: the sum mod 2^64 once, the same


def read_visit(raw: bytes) -> int:
    _whole(raw)
    try:
        with Catalog.from_bytes(raw) as r:
            return visit(r)
    except capnp.KjException as e:
        raise _refusal(e) from None
    except UnicodeDecodeError as e:
        raise ValueError(f"capnp: {e}") from None


def run_read(canon: str, passes_arg: str) -> None:
    """`PROG CANON read PASSES`: the bytes its own encoder wrote (untimed), then PASSES of a new reader and a visit."""
    if not passes_arg.isdigit() or int(passes_arg) < 1:
        common.fail(2, f"PASSES must be a positive integer, not '{passes_arg}'")
    try:
        with open(canon, "rb") as f:
            encoded = encode(json.loads(f.read()))  # untimed
        start = time.perf_counter_ns()
        total = None
        for p in range(int(passes_arg)):
            s = read_visit(encoded)
            if total is not None and s != total:
                common.fail(1, f"pass {p + 1} visited another sum")
            total = s
        inner = time.perf_counter_ns() - start
    except (OSError, ValueError, KeyError, TypeError) as e:
        common.fail(1, f"{type(e).__name__}: {e}")
    result = {"answer": str(total), "inner_ns": inner, "extra": {"encoded_bytes": len(encoded)}}
    print("iorace-result " + json.dumps(result), file=sys.stderr)


if len(sys.argv) == 4 and sys.argv[2] == "read" and sys.argv[1] != "--emit":
    run_read(sys.argv[1], sys.argv[3])
else:
    common.main(encode, decode)
