# Strategy: protobuf 4.25.9 (upb, the C backend): the plain dicts and lists built into a new Catalog message and
# SerializeToString; FromString back to a message, converted to new plain dicts and lists (both on the clock).
# catalogue_pb2.py is committed (Python cells have no build step), written by Debian's protoc 3.21.12 from
# ../proto/catalogue.proto: ../proto/regen.sh.
from __future__ import annotations

from typing import Any

import catalogue_pb2 as pb
import common
from google.protobuf.message import DecodeError


def encode(data: dict) -> bytes:
    c = pb.Catalog()
    c.area_names.update(data["areaNames"])
    events = c.events
    for key, e in data["events"].items():
        m = events[key]
        m.id = e["id"]
        m.name = e["name"]
        if e["description"] is not None:
            m.description = e["description"]
        if e["logo"] is not None:
            m.logo = e["logo"]
        m.sub_topic_ids.extend(e["subTopicIds"])
        m.topic_ids.extend(e["topicIds"])
    performances = c.performances
    for p in data["performances"]:
        m = performances.add(id=p["id"], event_id=p["eventId"], start=p["start"], venue_code=p["venueCode"])
        if p["name"] is not None:
            m.name = p["name"]
        if p["logo"] is not None:
            m.logo = p["logo"]
        prices = m.prices
        for pr in p["prices"]:
            prices.add(amount=pr["amount"], audience_sub_category_id=pr["audienceSubCategoryId"], seat_category_id=pr["seatCategoryId"])
        cats = m.seat_categories
        for sc in p["seatCategories"]:
            cm = cats.add(seat_category_id=sc["seatCategoryId"])
            areas = cm.areas
            for a in sc["areas"]:
                areas.add(area_id=a["areaId"], block_ids=a["blockIds"])
    topics = c.topic_sub_topics
    for key, ids in data["topicSubTopics"].items():
        topics[key].values.extend(ids)
    c.venue_names.update(data["venueNames"])
    return c.SerializeToString()


def _opt(m: Any, field: str) -> str | None:
    return getattr(m, field) if m.HasField(field) else None


def decode(raw: bytes) -> dict:
    try:
        c = pb.Catalog.FromString(raw)
    except DecodeError as e:
        raise ValueError(f"protobuf: {e}") from e
    return {
        "areaNames": dict(c.area_names),
        "events": {
            key: {
                "id": e.id,
                "name": e.name,
                "description": _opt(e, "description"),
                "logo": _opt(e, "logo"),
                "subTopicIds": list(e.sub_topic_ids),
                "topicIds": list(e.topic_ids),
            }
            for key, e in c.events.items()
        },
        "performances": [
            {
                "id": p.id,
                "eventId": p.event_id,
                "name": _opt(p, "name"),
                "logo": _opt(p, "logo"),
                "start": p.start,
                "venueCode": p.venue_code,
                "prices": [
                    {"amount": pr.amount, "audienceSubCategoryId": pr.audience_sub_category_id, "seatCategoryId": pr.seat_category_id}
                    for pr in p.prices
                ],
                "seatCategories": [
                    {
                        "seatCategoryId": sc.seat_category_id,
                        "areas": [{"areaId": a.area_id, "blockIds": list(a.block_ids)} for a in sc.areas],
                    }
                    for sc in p.seat_categories
                ],
            }
            for p in c.performances
        ],
        "topicSubTopics": {key: list(ids.values) for key, ids in c.topic_sub_topics.items()},
        "venueNames": dict(c.venue_names),
    }


common.main(encode, decode)
