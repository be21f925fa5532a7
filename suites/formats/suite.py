"""formats: one citm-shaped catalogue, encoded and decoded by each language's usual JSON and
MessagePack libraries. generate() writes the canonical file every program reads (canonical JSON: fields in
schema order, map keys sorted, nulls written); expected() is the SHA-256 of its canon stream, computed here
independently of the variants (the spec: README.md, "The canon stream")."""

from __future__ import annotations

import hashlib
import json
import random
import struct
from pathlib import Path

# events, performances, (max prices, max seat categories, max areas, max block ids) per performance
SIZES = {"tiny": (12, 16, 4, 3, 3, 2), "quick": (184, 243, 12, 10, 12, 3), "full": (1840, 2430, 12, 10, 12, 3)}
WORDS = [
    "Orchestre",
    "Philharmonique",
    "de",
    "Radio",
    "France",
    "Récital",
    "Séance",
    "Théâtre",
    "à",
    "l'Opéra",
    "Gaîté",
    "Lyrique",
    '"Bis"',
    "Quatuor",
    "naïf",
    "Noël",
    "Ensemble",
    "œuvres",
    "—",
    "Bach",
    "Mozart",
    "Chœur",
    "Ütopia",
    "東京",
    "🎻",
    "Salle",
    "Pleyel",
    "back\\slash",
]


def _name(rng: random.Random, lo: int, hi: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def catalog(dataset: str) -> dict:
    """The dataset as plain objects, in schema order (the master schema: README.md)."""
    n_events, n_perf, max_prices, max_cats, max_areas, max_blocks = SIZES[dataset]
    rng = random.Random(46)
    big = 1 << 53  # ids past 2^53: a JSON reader that goes through doubles loses them
    areas = sorted({rng.randrange(205705990, 205706100) for _ in range(40)})
    area_names = {str(a): _name(rng, 1, 4) for a in areas}
    topics = sorted({rng.randrange(107888600, 107889000) for _ in range(20)})
    sub_topics = [rng.randrange(337184260, 337184400) for _ in range(30)]
    venues = {"PLEYEL_PLEYEL": "Salle Pleyel", "OPERA_COMIQUE": "Opéra-Comique", "CHATELET": "Théâtre du Châtelet"}
    event_ids = sorted({rng.randrange(138586000, 138590000) for _ in range(n_events * 2)})[:n_events]
    event_ids[-1] = big + 12345  # one id past 2^53
    events = {}
    for eid in event_ids:
        events[str(eid)] = {
            "id": eid,
            "name": _name(rng, 1, 8),
            "description": None if rng.random() < 0.9 else _name(rng, 5, 20),
            "logo": None if rng.random() < 0.6 else f"/images/UE0AAAAACEKo{eid % 1000:03d}QAAAAVDSVRN",
            "subTopicIds": rng.sample(sub_topics, rng.randint(0, 4)),
            "topicIds": rng.sample(topics, rng.randint(0, 3)),
        }
    performances = []
    for i in range(n_perf):
        eid = rng.choice(event_ids)
        prices = [
            {
                "amount": rng.choice([-1, 0, 9000, 15500, 29000, 66500, 90250]),
                "audienceSubCategoryId": 337100890 + rng.randrange(4),
                "seatCategoryId": 338937000 + rng.randrange(50),
            }
            for _ in range(rng.randint(0, max_prices))
        ]
        cats = [
            {
                "seatCategoryId": 338937000 + rng.randrange(50),
                "areas": [
                    {"areaId": rng.choice(areas), "blockIds": [rng.randrange(1 << 40) for _ in range(rng.randint(0, max_blocks))]}
                    for _ in range(rng.randint(1, max_areas))
                ],
            }
            for _ in range(rng.randint(0, max_cats))
        ]
        performances.append(
            {
                "id": 339887544 + i if i else -(big + 7),  # one negative id past 2^53
                "eventId": eid,
                "name": None if rng.random() < 0.95 else _name(rng, 1, 5),
                "logo": None if rng.random() < 0.5 else f"/images/UE0AAAAACEKo{eid % 997:03d}QAAAAVDSVRN",
                "start": 1378922400000 + rng.randrange(0, 400) * 86400000 + rng.randrange(0, 24) * 3600000,
                "venueCode": rng.choice(sorted(venues)),
                "prices": prices,
                "seatCategories": cats,
            }
        )
    performances[-1]["start"] = (1 << 63) - 1  # the largest i64
    topic_sub_topics = {str(t): rng.sample(sub_topics, rng.randint(0, 5)) for t in topics}
    return {
        "areaNames": area_names,
        "events": events,
        "performances": performances,
        "topicSubTopics": topic_sub_topics,
        "venueNames": dict(sorted(venues.items())),
    }


def generate(dataset: str, path: Path) -> None:
    text = json.dumps(catalog(dataset), ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(text.encode("utf-8"))


# --- the canon stream (README.md): the reference, written apart from the variants' python/canon.py ----------


def _i64(out: bytearray, v: object) -> None:
    if type(v) is not int or not -(1 << 63) <= v < (1 << 63):
        raise ValueError(f"not an i64: {v!r}")
    out += struct.pack("<q", v)


def _str(out: bytearray, v: object) -> None:
    if not isinstance(v, str):
        raise ValueError(f"not a string: {v!r}")
    b = v.encode("utf-8")
    out += struct.pack("<I", len(b)) + b


def _opt_str(out: bytearray, v: object) -> None:
    if v is None:
        out.append(0)
    else:
        out.append(1)
        _str(out, v)


def _list(out: bytearray, v: list, item) -> None:  # type: ignore[no-untyped-def]
    out += struct.pack("<I", len(v))
    for x in v:
        item(out, x)


def _map(out: bytearray, v: dict, value) -> None:  # type: ignore[no-untyped-def]
    out += struct.pack("<I", len(v))
    for k in sorted(v, key=lambda k: k.encode("utf-8")):
        _str(out, k)
        value(out, v[k])


def _i64s(out: bytearray, v: list) -> None:
    _list(out, v, _i64)


def _event(out: bytearray, e: dict) -> None:
    _i64(out, e["id"])
    _str(out, e["name"])
    _opt_str(out, e.get("description"))
    _opt_str(out, e.get("logo"))
    _i64s(out, e["subTopicIds"])
    _i64s(out, e["topicIds"])


def _price(out: bytearray, p: dict) -> None:
    for f in ("amount", "audienceSubCategoryId", "seatCategoryId"):
        _i64(out, p[f])


def _area(out: bytearray, a: dict) -> None:
    _i64(out, a["areaId"])
    _i64s(out, a["blockIds"])


def _seat_category(out: bytearray, c: dict) -> None:
    _i64(out, c["seatCategoryId"])
    _list(out, c["areas"], _area)


def _performance(out: bytearray, p: dict) -> None:
    _i64(out, p["id"])
    _i64(out, p["eventId"])
    _opt_str(out, p.get("name"))
    _opt_str(out, p.get("logo"))
    _i64(out, p["start"])
    _str(out, p["venueCode"])
    _list(out, p["prices"], _price)
    _list(out, p["seatCategories"], _seat_category)


def canon(c: dict) -> bytes:
    out = bytearray()
    _map(out, c["areaNames"], _str)
    _map(out, c["events"], _event)
    _list(out, c["performances"], _performance)
    _map(out, c["topicSubTopics"], _i64s)
    _map(out, c["venueNames"], _str)
    return bytes(out)


def digest(c: dict) -> str:
    return hashlib.sha256(canon(c)).hexdigest()


# --- the visit checksum (README.md, "The visit checksum"): op=read's answer -------------------------------------

MASK = (1 << 64) - 1


def visit_sum(v: object) -> int:
    """The visit checksum of a JSON value tree, a wrapping unsigned 64-bit sum: int -> its value mod 2^64;
    float -> its IEEE-754 bits; string -> its UTF-8 byte length; bool -> 1 or 0; null -> 0; list -> its length +
    its items' sums; object -> its number of entries + for each entry its key's UTF-8 byte length + its value's
    sum. Defined on the canonical data, not on any format: every zero-copy reader must reach the same number."""
    if v is None or v is False:
        return 0
    if v is True:
        return 1
    if type(v) is int:
        return v & MASK
    if type(v) is float:
        return struct.unpack("<Q", struct.pack("<d", v))[0]
    if isinstance(v, str):
        return len(v.encode("utf-8"))
    if isinstance(v, list):
        return (len(v) + sum(visit_sum(x) for x in v)) & MASK
    if isinstance(v, dict):
        return (len(v) + sum(len(k.encode("utf-8")) + visit_sum(x) for k, x in v.items())) & MASK
    raise ValueError(f"not a JSON value: {v!r}")


def expected(path: Path, params: dict) -> str:
    data = json.loads(path.read_bytes())
    if params.get("op") == "read":
        return str(visit_sum(data))  # decimal, as the cells print it
    return digest(data)


def units(path: Path, params: dict) -> dict[str, int]:
    return {"bytes": path.stat().st_size * int(params["passes"])}
