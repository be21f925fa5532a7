// Strategy: simdjson 3.0.1 (Debian) On-Demand API to decode straight into the typed structs (one parser, reused, as
// simdjson is meant to be used); encode with RapidJSON 1.1.0's Writer (SAX-style, into its StringBuffer): simdjson
// 3.0.1 only parses (its builder came in 4.x), so the encoder is another library, named on the row.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include "common.hpp"

namespace od = simdjson::ondemand;

// --- decode: On-Demand walks the bytes once, each value converted where the schema expects it (a wrong type, a
// number past i64, a bad escape or UTF-8 byte, a depth past 1024 is a simdjson_error: a std::exception, refused in
// one line by run_main).

static std::string str(od::value v) { return std::string(std::string_view(v.get_string())); }
static std::optional<std::string> opt(od::value v) {
  if (v.is_null()) return std::nullopt;
  return str(v);
}
static std::vector<int64_t> ints(od::value v) {
  std::vector<int64_t> out;
  for (auto x : v.get_array()) out.push_back(x.get_int64());
  return out;
}
// A record's fields in any order; an unknown key is skipped, a missing field refused (as nlohmann's at() does), an
// absent optional is nullopt. `need` holds one bit per required field.
static void require(unsigned seen, unsigned need, const char *what) {
  if ((seen & need) != need) throw std::runtime_error(std::string("a field of ") + what + " is missing");
}
template <class F>
static void fields(od::value v, F each) {
  for (auto field : v.get_object()) {
    std::string_view key = field.unescaped_key();
    each(key, field.value());
  }
}
template <class T, class F>
static std::vector<T> list(od::value v, F item) {
  std::vector<T> out;
  for (auto x : v.get_array()) out.push_back(item(x.value()));
  return out;
}
template <class T, class F>
static std::map<std::string, T> map(od::value v, F item) {
  std::map<std::string, T> out;
  for (auto field : v.get_object()) {
    std::string key(std::string_view(field.unescaped_key()));
    out[std::move(key)] = item(field.value());
  }
  return out;
}

static Event event(od::value v) {
  Event e;
  unsigned seen = 0;
  fields(v, [&](std::string_view k, od::value x) {
    if (k == "id") e.id = x.get_int64(), seen |= 1;
    else if (k == "name") e.name = str(x), seen |= 2;
    else if (k == "description") e.description = opt(x);
    else if (k == "logo") e.logo = opt(x);
    else if (k == "subTopicIds") e.subTopicIds = ints(x), seen |= 4;
    else if (k == "topicIds") e.topicIds = ints(x), seen |= 8;
  });
  require(seen, 15, "an event");
  return e;
}
static Price price(od::value v) {
  Price p;
  unsigned seen = 0;
  fields(v, [&](std::string_view k, od::value x) {
    if (k == "amount") p.amount = x.get_int64(), seen |= 1;
    else if (k == "audienceSubCategoryId") p.audienceSubCategoryId = x.get_int64(), seen |= 2;
    else if (k == "seatCategoryId") p.seatCategoryId = x.get_int64(), seen |= 4;
  });
  require(seen, 7, "a price");
  return p;
}
static Area area(od::value v) {
  Area a;
  unsigned seen = 0;
  fields(v, [&](std::string_view k, od::value x) {
    if (k == "areaId") a.areaId = x.get_int64(), seen |= 1;
    else if (k == "blockIds") a.blockIds = ints(x), seen |= 2;
  });
  require(seen, 3, "an area");
  return a;
}
static SeatCategory seat_category(od::value v) {
  SeatCategory s;
  unsigned seen = 0;
  fields(v, [&](std::string_view k, od::value x) {
    if (k == "seatCategoryId") s.seatCategoryId = x.get_int64(), seen |= 1;
    else if (k == "areas") s.areas = list<Area>(x, area), seen |= 2;
  });
  require(seen, 3, "a seat category");
  return s;
}
static Performance performance(od::value v) {
  Performance p;
  unsigned seen = 0;
  fields(v, [&](std::string_view k, od::value x) {
    if (k == "id") p.id = x.get_int64(), seen |= 1;
    else if (k == "eventId") p.eventId = x.get_int64(), seen |= 2;
    else if (k == "name") p.name = opt(x);
    else if (k == "logo") p.logo = opt(x);
    else if (k == "start") p.start = x.get_int64(), seen |= 4;
    else if (k == "venueCode") p.venueCode = str(x), seen |= 8;
    else if (k == "prices") p.prices = list<Price>(x, price), seen |= 16;
    else if (k == "seatCategories") p.seatCategories = list<SeatCategory>(x, seat_category), seen |= 32;
  });
  require(seen, 63, "a performance");
  return p;
}

static Catalog catalog(od::document &doc) {
  Catalog c;
  unsigned seen = 0;
  for (auto field : doc.get_object()) {
    std::string_view k = field.unescaped_key();
    od::value x = field.value();
    if (k == "areaNames") c.areaNames = map<std::string>(x, str), seen |= 1;
    else if (k == "events") c.events = map<Event>(x, event), seen |= 2;
    else if (k == "performances") c.performances = list<Performance>(x, performance), seen |= 4;
    else if (k == "topicSubTopics") c.topicSubTopics = map<std::vector<int64_t>>(x, ints), seen |= 8;
    else if (k == "venueNames") c.venueNames = map<std::string>(x, str), seen |= 16;
  }
  require(seen, 31, "the catalog");
  // On-Demand reads no further than the root object: anything after it is refused here (simdjson 3.0 has no
  // document::at_end(); current_location() is in bounds only while tokens are left).
  if (doc.current_location().error() == simdjson::SUCCESS) throw std::runtime_error("trailing content after the catalog");
  return c;
}

static Catalog decode(const std::string &bytes) {
  static od::parser parser;  // reused: its buffers are sized once, on the first document
  if (bytes.capacity() >= bytes.size() + simdjson::SIMDJSON_PADDING) {  // what encode() returns: no copy
    od::document doc = parser.iterate(bytes.data(), bytes.size(), bytes.capacity());
    return catalog(doc);
  }
  simdjson::padded_string padded(bytes);  // a file's bytes (--decode, the canonical file): copied with the padding
  od::document doc = parser.iterate(padded);
  return catalog(doc);
}

Catalog load_canonical(const std::string &text) { return decode(text); }

// --- encode: RapidJSON's Writer, fields in schema order; map keys in std::map order (the canon's key order)

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

static void put(Writer &w, const std::string &s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
static void put(Writer &w, const std::optional<std::string> &s) {
  if (s)
    put(w, *s);
  else
    w.Null();
}
static void put(Writer &w, const std::vector<int64_t> &v) {
  w.StartArray();
  for (int64_t x : v) w.Int64(x);
  w.EndArray();
}
template <class T>
static void put(Writer &w, const std::map<std::string, T> &m);
static void put(Writer &w, const Event &e) {
  w.StartObject();
  w.Key("id"), w.Int64(e.id);
  w.Key("name"), put(w, e.name);
  w.Key("description"), put(w, e.description);
  w.Key("logo"), put(w, e.logo);
  w.Key("subTopicIds"), put(w, e.subTopicIds);
  w.Key("topicIds"), put(w, e.topicIds);
  w.EndObject();
}
static void put(Writer &w, const Performance &p) {
  w.StartObject();
  w.Key("id"), w.Int64(p.id);
  w.Key("eventId"), w.Int64(p.eventId);
  w.Key("name"), put(w, p.name);
  w.Key("logo"), put(w, p.logo);
  w.Key("start"), w.Int64(p.start);
  w.Key("venueCode"), put(w, p.venueCode);
  w.Key("prices"), w.StartArray();
  for (const Price &pr : p.prices) {
    w.StartObject();
    w.Key("amount"), w.Int64(pr.amount);
    w.Key("audienceSubCategoryId"), w.Int64(pr.audienceSubCategoryId);
    w.Key("seatCategoryId"), w.Int64(pr.seatCategoryId);
    w.EndObject();
  }
  w.EndArray();
  w.Key("seatCategories"), w.StartArray();
  for (const SeatCategory &sc : p.seatCategories) {
    w.StartObject();
    w.Key("seatCategoryId"), w.Int64(sc.seatCategoryId);
    w.Key("areas"), w.StartArray();
    for (const Area &a : sc.areas) {
      w.StartObject();
      w.Key("areaId"), w.Int64(a.areaId);
      w.Key("blockIds"), put(w, a.blockIds);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}
template <class T>
static void put(Writer &w, const std::map<std::string, T> &m) {
  w.StartObject();
  for (const auto &[k, v] : m) {
    w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
    put(w, v);
  }
  w.EndObject();
}

static std::string encode(const Catalog &c) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  w.Key("areaNames"), put(w, c.areaNames);
  w.Key("events"), put(w, c.events);
  w.Key("performances"), w.StartArray();
  for (const Performance &p : c.performances) put(w, p);
  w.EndArray();
  w.Key("topicSubTopics"), put(w, c.topicSubTopics);
  w.Key("venueNames"), put(w, c.venueNames);
  w.EndObject();
  // The bytes as every C++ cell returns them, a std::string, with simdjson's padding reserved past the end, so
  // that decode() parses them where they are (On-Demand needs SIMDJSON_PADDING readable bytes after the input).
  std::string out;
  out.reserve(buf.GetSize() + simdjson::SIMDJSON_PADDING);
  out.assign(buf.GetString(), buf.GetSize());
  return out;
}

int main(int argc, char **argv) { return run_main(argc, argv, encode, decode); }
