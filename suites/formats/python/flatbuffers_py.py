# Strategy: FlatBuffers 25.12.19 (the pure-Python runtime, flatc's generated module functions): the plain dicts and
# lists built into a new Builder bottom-up (strings and vectors first, then each table) and Output(); decode walks
# the buffer through the generated accessors into new plain dicts and lists; read visits every field through the
# same accessors (no plain objects) and answers the visit checksum. Python's runtime has no verifier: each vector's
# count is checked against the buffer's size before a loop over it (a mutant's 2^32 items would else be a hang),
# a string past the buffer's end is refused (_Bounded: Python slices shorten silently), and an offset out of the
# buffer (struct.error, IndexError) or bad UTF-8 is refused as one line, none of it a verify pass of its own (what
# is checked is checked as it is read, on the clock). Not checked: a vtable offset that points before the buffer's
# start reads from its end (struct.unpack_from takes a negative offset so): wrong values, never a crash.
# fbcatalogue/ is committed (Python cells have no build step), written by flatc 25.12.19: ../flatbuffers/regen.sh.
from __future__ import annotations

import struct

import common
import flatbuffers
from fbcatalogue import Area, Catalog, Event, EventEntry, Int64ListEntry, Performance, Price, SeatCategory, StringEntry


def _ints(b: flatbuffers.Builder, start, values: list[int]) -> int:  # type: ignore[no-untyped-def]
    start(b, len(values))
    for v in reversed(values):  # a vector is written back to front
        b.PrependInt64(v)
    return b.EndVector()


def _offsets(b: flatbuffers.Builder, start, offsets: list[int]) -> int:  # type: ignore[no-untyped-def]
    start(b, len(offsets))
    for o in reversed(offsets):
        b.PrependUOffsetTRelative(o)
    return b.EndVector()


def _string_map(b: flatbuffers.Builder, m: dict) -> list[int]:
    out = []
    for k in sorted(m, key=lambda k: k.encode("utf-8")):  # a (key) vector is sorted by the keys' bytes
        key, value = b.CreateString(k), b.CreateString(m[k])
        StringEntry.Start(b)
        StringEntry.AddKey(b, key)
        StringEntry.AddValue(b, value)
        out.append(StringEntry.End(b))
    return out


def encode(data: dict) -> bytes:
    b = flatbuffers.Builder(1 << 16)
    area_names = _offsets(b, Catalog.StartAreaNamesVector, _string_map(b, data["areaNames"]))
    entries = []
    events = data["events"]
    for k in sorted(events, key=lambda k: k.encode("utf-8")):
        e = events[k]
        key, name = b.CreateString(k), b.CreateString(e["name"])
        desc = b.CreateString(e["description"]) if e["description"] is not None else None
        logo = b.CreateString(e["logo"]) if e["logo"] is not None else None
        subs = _ints(b, Event.StartSubTopicIdsVector, e["subTopicIds"])
        topics = _ints(b, Event.StartTopicIdsVector, e["topicIds"])
        Event.Start(b)
        Event.AddId(b, e["id"])
        Event.AddName(b, name)
        if desc is not None:
            Event.AddDescription(b, desc)
        if logo is not None:
            Event.AddLogo(b, logo)
        Event.AddSubTopicIds(b, subs)
        Event.AddTopicIds(b, topics)
        ev = Event.End(b)
        EventEntry.Start(b)
        EventEntry.AddKey(b, key)
        EventEntry.AddValue(b, ev)
        entries.append(EventEntry.End(b))
    events_vec = _offsets(b, Catalog.StartEventsVector, entries)
    perfs = []
    for p in data["performances"]:
        name = b.CreateString(p["name"]) if p["name"] is not None else None
        logo = b.CreateString(p["logo"]) if p["logo"] is not None else None
        venue = b.CreateString(p["venueCode"])
        Performance.StartPricesVector(b, len(p["prices"]))
        for pr in reversed(p["prices"]):
            Price.CreatePrice(b, pr["amount"], pr["audienceSubCategoryId"], pr["seatCategoryId"])
        prices = b.EndVector()
        cats = []
        for sc in p["seatCategories"]:
            areas = []
            for a in sc["areas"]:
                blocks = _ints(b, Area.StartBlockIdsVector, a["blockIds"])
                Area.Start(b)
                Area.AddAreaId(b, a["areaId"])
                Area.AddBlockIds(b, blocks)
                areas.append(Area.End(b))
            areas_vec = _offsets(b, SeatCategory.StartAreasVector, areas)
            SeatCategory.Start(b)
            SeatCategory.AddSeatCategoryId(b, sc["seatCategoryId"])
            SeatCategory.AddAreas(b, areas_vec)
            cats.append(SeatCategory.End(b))
        cats_vec = _offsets(b, Performance.StartSeatCategoriesVector, cats)
        Performance.Start(b)
        Performance.AddId(b, p["id"])
        Performance.AddEventId(b, p["eventId"])
        if name is not None:
            Performance.AddName(b, name)
        if logo is not None:
            Performance.AddLogo(b, logo)
        Performance.AddStart(b, p["start"])
        Performance.AddVenueCode(b, venue)
        Performance.AddPrices(b, prices)
        Performance.AddSeatCategories(b, cats_vec)
        perfs.append(Performance.End(b))
    perfs_vec = _offsets(b, Catalog.StartPerformancesVector, perfs)
    topics = []
    tst = data["topicSubTopics"]
    for k in sorted(tst, key=lambda k: k.encode("utf-8")):
        key = b.CreateString(k)
        values = _ints(b, Int64ListEntry.StartValuesVector, tst[k])
        Int64ListEntry.Start(b)
        Int64ListEntry.AddKey(b, key)
        Int64ListEntry.AddValues(b, values)
        topics.append(Int64ListEntry.End(b))
    topics_vec = _offsets(b, Catalog.StartTopicSubTopicsVector, topics)
    venue_names = _offsets(b, Catalog.StartVenueNamesVector, _string_map(b, data["venueNames"]))
    Catalog.Start(b)
    Catalog.AddAreaNames(b, area_names)
    Catalog.AddEvents(b, events_vec)
    Catalog.AddPerformances(b, perfs_vec)
    Catalog.AddTopicSubTopics(b, topics_vec)
    Catalog.AddVenueNames(b, venue_names)
    b.Finish(Catalog.End(b))
    return bytes(b.Output())


# --- reading: every count checked against the buffer, every required string present ---------------------------


class _Bounded(bytes):
    """The buffer as the runtime reads it: its scalars go through struct.unpack_from, which refuses a read past the
    end (struct.error), but a string is a slice, which Python shortens silently at the end: here a slice past
    the end (or before the start) is an IndexError instead. Making one copies the bytes once per pass (a memcpy,
    small beside the Python walk)."""

    def __getitem__(self, k):  # type: ignore[no-untyped-def]
        if isinstance(k, slice) and ((k.start or 0) < 0 or (k.stop is not None and k.stop > len(self))):
            raise IndexError(f"a string at [{k.start}:{k.stop}] past the buffer's {len(self)} B")
        return bytes.__getitem__(self, k)


class _Reader:
    def __init__(self, raw: bytes) -> None:
        if len(raw) < 8:
            raise ValueError("flatbuffers: shorter than a root offset and a vtable")
        self.raw = raw
        self.size = len(raw)

    def n(self, count: int, item: int) -> int:
        """A vector's count, refused when its items could not fit in the buffer."""
        if count * item > self.size:
            raise ValueError(f"flatbuffers: a vector of {count} items of {item} B in a {self.size} B buffer")
        return count

    @staticmethod
    def req(v: bytes | None, what: str) -> bytes:
        if v is None:
            raise ValueError(f"flatbuffers: required {what} absent")
        return v


def _s(v: bytes) -> str:
    return v.decode("utf-8")


def _opt(v: bytes | None) -> str | None:
    return None if v is None else v.decode("utf-8")


def _read_errors(f):  # type: ignore[no-untyped-def]
    """Out-of-range offsets and bad bytes as one ValueError (common.main's one-line refusal)."""

    def wrapped(raw: bytes):  # type: ignore[no-untyped-def]
        try:
            return f(raw)
        except (struct.error, IndexError, UnicodeDecodeError, OverflowError) as e:
            raise ValueError(f"flatbuffers: {type(e).__name__}: {e}") from e

    return wrapped


@_read_errors
def decode(raw: bytes) -> dict:
    r = _Reader(raw)
    c = Catalog.Catalog.GetRootAs(_Bounded(raw), 0)
    area_names = {}
    for i in range(r.n(c.AreaNamesLength(), 4)):
        x = c.AreaNames(i)
        area_names[_s(r.req(x.Key(), "key"))] = _s(r.req(x.Value(), "value"))
    events = {}
    for i in range(r.n(c.EventsLength(), 4)):
        x = c.Events(i)
        e = x.Value()
        if e is None:
            raise ValueError("flatbuffers: required event absent")
        events[_s(r.req(x.Key(), "key"))] = {
            "id": e.Id(),
            "name": _s(r.req(e.Name(), "name")),
            "description": _opt(e.Description()),
            "logo": _opt(e.Logo()),
            "subTopicIds": [e.SubTopicIds(j) for j in range(r.n(e.SubTopicIdsLength(), 8))],
            "topicIds": [e.TopicIds(j) for j in range(r.n(e.TopicIdsLength(), 8))],
        }
    performances = []
    for i in range(r.n(c.PerformancesLength(), 4)):
        p = c.Performances(i)
        prices = []
        for j in range(r.n(p.PricesLength(), 24)):
            pr = p.Prices(j)
            prices.append(
                {"amount": pr.Amount(), "audienceSubCategoryId": pr.AudienceSubCategoryId(), "seatCategoryId": pr.SeatCategoryId()}
            )
        cats = []
        for j in range(r.n(p.SeatCategoriesLength(), 4)):
            sc = p.SeatCategories(j)
            areas = []
            for k in range(r.n(sc.AreasLength(), 4)):
                a = sc.Areas(k)
                areas.append({"areaId": a.AreaId(), "blockIds": [a.BlockIds(m) for m in range(r.n(a.BlockIdsLength(), 8))]})
            cats.append({"seatCategoryId": sc.SeatCategoryId(), "areas": areas})
        performances.append(
            {
                "id": p.Id(),
                "eventId": p.EventId(),
                "name": _opt(p.Name()),
                "logo": _opt(p.Logo()),
                "start": p.Start(),
                "venueCode": _s(r.req(p.VenueCode(), "venueCode")),
                "prices": prices,
                "seatCategories": cats,
            }
        )
    topics = {}
    for i in range(r.n(c.TopicSubTopicsLength(), 4)):
        x = c.TopicSubTopics(i)
        topics[_s(r.req(x.Key(), "key"))] = [x.Values(j) for j in range(r.n(x.ValuesLength(), 8))]
    venue_names = {}
    for i in range(r.n(c.VenueNamesLength(), 4)):
        x = c.VenueNames(i)
        venue_names[_s(r.req(x.Key(), "key"))] = _s(r.req(x.Value(), "value"))
    return {"areaNames": area_names, "events": events, "performances": performances, "topicSubTopics": topics, "venueNames": venue_names}


# The visit checksum (README): a record's entries are its JSON field names, constant per record type: their count
# plus their names' UTF-8 lengths, added once per record; a string adds its byte length, an int its value mod 2^64.
MASK = (1 << 64) - 1
CATALOG = 5 + sum(map(len, ("areaNames", "events", "performances", "topicSubTopics", "venueNames")))
EVENT = 6 + sum(map(len, ("id", "name", "description", "logo", "subTopicIds", "topicIds")))
PERFORMANCE = 8 + sum(map(len, ("id", "eventId", "name", "logo", "start", "venueCode", "prices", "seatCategories")))
PRICE = 3 + sum(map(len, ("amount", "audienceSubCategoryId", "seatCategoryId")))
SEAT_CATEGORY = 2 + sum(map(len, ("seatCategoryId", "areas")))
AREA = 2 + sum(map(len, ("areaId", "blockIds")))


def _len(v: bytes | None) -> int:
    return 0 if v is None else len(v)


@_read_errors
def read(raw: bytes) -> int:
    r = _Reader(raw)
    c = Catalog.Catalog.GetRootAs(_Bounded(raw), 0)
    s = CATALOG
    n = r.n(c.AreaNamesLength(), 4)
    s += n
    for i in range(n):
        x = c.AreaNames(i)
        s += len(r.req(x.Key(), "key")) + len(r.req(x.Value(), "value"))
    n = r.n(c.EventsLength(), 4)
    s += n
    for i in range(n):
        x = c.Events(i)
        e = x.Value()
        if e is None:
            raise ValueError("flatbuffers: required event absent")
        s += len(r.req(x.Key(), "key")) + EVENT + (e.Id() & MASK) + len(r.req(e.Name(), "name"))
        s += _len(e.Description()) + _len(e.Logo())
        m = r.n(e.SubTopicIdsLength(), 8)
        s += m + sum(e.SubTopicIds(j) & MASK for j in range(m))
        m = r.n(e.TopicIdsLength(), 8)
        s += m + sum(e.TopicIds(j) & MASK for j in range(m))
    n = r.n(c.PerformancesLength(), 4)
    s += n
    for i in range(n):
        p = c.Performances(i)
        s += PERFORMANCE + (p.Id() & MASK) + (p.EventId() & MASK) + _len(p.Name()) + _len(p.Logo()) + (p.Start() & MASK)
        s += len(r.req(p.VenueCode(), "venueCode"))
        m = r.n(p.PricesLength(), 24)
        s += m
        for j in range(m):
            pr = p.Prices(j)
            s += PRICE + (pr.Amount() & MASK) + (pr.AudienceSubCategoryId() & MASK) + (pr.SeatCategoryId() & MASK)
        m = r.n(p.SeatCategoriesLength(), 4)
        s += m
        for j in range(m):
            sc = p.SeatCategories(j)
            s += SEAT_CATEGORY + (sc.SeatCategoryId() & MASK)
            k = r.n(sc.AreasLength(), 4)
            s += k
            for q in range(k):
                a = sc.Areas(q)
                b = r.n(a.BlockIdsLength(), 8)
                s += AREA + (a.AreaId() & MASK) + b + sum(a.BlockIds(t) & MASK for t in range(b))
    n = r.n(c.TopicSubTopicsLength(), 4)
    s += n
    for i in range(n):
        x = c.TopicSubTopics(i)
        m = r.n(x.ValuesLength(), 8)
        s += len(r.req(x.Key(), "key")) + m + sum(x.Values(j) & MASK for j in range(m))
    n = r.n(c.VenueNamesLength(), 4)
    s += n
    for i in range(n):
        x = c.VenueNames(i)
        s += len(r.req(x.Key(), "key")) + len(r.req(x.Value(), "value"))
    return s & MASK  # Python's ints do not wrap: the sum is reduced once, the same number


if __name__ == "__main__":
    common.main(encode, decode, read)
