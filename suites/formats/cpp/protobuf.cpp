// Strategy: Protocol Buffers C++ 3.21.12 (Debian's libprotobuf, generated classes, no arena): the typed structs
// built into a new Catalog message and SerializeToString; ParseFromString into a new message, converted to new
// typed structs (both on the clock). catalogue.pb.{h,cc} are generated at build time by Debian's protoc 3.21.12
// (suite.toml's g++ build) from ../proto/catalogue.proto: C++ generated code must match its libprotobuf exactly,
// and Debian ships the two as one version, so generating beside the library is the one safe way.
#include "catalogue.pb.h"
#include "json_nlohmann.hpp"  // only to read the canonical file, untimed

namespace pb = iorace::formats;

// libprotobuf logs why it refused bytes (invalid UTF-8 in a string field, ...) on stderr, a second line beside
// the program's one-line error: kept here instead and said in that line.
static std::string last_log;
static void keep_log(google::protobuf::LogLevel, const char *, int, const std::string &message) { last_log = message; }

static void put_ints(google::protobuf::RepeatedField<int64_t> *to, const std::vector<int64_t> &from) {
  to->Reserve(static_cast<int>(from.size()));
  to->Add(from.begin(), from.end());
}

static std::string encode(const Catalog &c) {
  pb::Catalog m;
  auto &area_names = *m.mutable_area_names();
  for (const auto &[k, v] : c.areaNames) area_names[k] = v;
  auto &events = *m.mutable_events();
  for (const auto &[k, e] : c.events) {
    pb::Event &x = events[k];
    x.set_id(e.id);
    x.set_name(e.name);
    if (e.description) x.set_description(*e.description);
    if (e.logo) x.set_logo(*e.logo);
    put_ints(x.mutable_sub_topic_ids(), e.subTopicIds);
    put_ints(x.mutable_topic_ids(), e.topicIds);
  }
  m.mutable_performances()->Reserve(static_cast<int>(c.performances.size()));
  for (const Performance &p : c.performances) {
    pb::Performance *x = m.add_performances();
    x->set_id(p.id);
    x->set_event_id(p.eventId);
    if (p.name) x->set_name(*p.name);
    if (p.logo) x->set_logo(*p.logo);
    x->set_start(p.start);
    x->set_venue_code(p.venueCode);
    x->mutable_prices()->Reserve(static_cast<int>(p.prices.size()));
    for (const Price &pr : p.prices) {
      pb::Price *y = x->add_prices();
      y->set_amount(pr.amount);
      y->set_audience_sub_category_id(pr.audienceSubCategoryId);
      y->set_seat_category_id(pr.seatCategoryId);
    }
    x->mutable_seat_categories()->Reserve(static_cast<int>(p.seatCategories.size()));
    for (const SeatCategory &sc : p.seatCategories) {
      pb::SeatCategory *y = x->add_seat_categories();
      y->set_seat_category_id(sc.seatCategoryId);
      y->mutable_areas()->Reserve(static_cast<int>(sc.areas.size()));
      for (const Area &a : sc.areas) {
        pb::Area *z = y->add_areas();
        z->set_area_id(a.areaId);
        put_ints(z->mutable_block_ids(), a.blockIds);
      }
    }
  }
  auto &topics = *m.mutable_topic_sub_topics();
  for (const auto &[k, ids] : c.topicSubTopics) put_ints(topics[k].mutable_values(), ids);
  auto &venue_names = *m.mutable_venue_names();
  for (const auto &[k, v] : c.venueNames) venue_names[k] = v;
  std::string out;
  if (!m.SerializeToString(&out)) throw std::runtime_error("protobuf: SerializeToString failed");
  return out;
}

static std::vector<int64_t> get_ints(const google::protobuf::RepeatedField<int64_t> &from) {
  return std::vector<int64_t>(from.begin(), from.end());
}

static Catalog decode(const std::string &b) {
  pb::Catalog m;
  if (!m.ParseFromString(b)) {
    std::string why = last_log.empty() ? "truncated or not a Catalog" : last_log;
    throw std::runtime_error("protobuf: ParseFromString refused the bytes (" + why + ")");
  }
  Catalog c;
  for (const auto &kv : m.area_names()) c.areaNames.emplace(kv.first, kv.second);
  for (const auto &kv : m.events()) {
    const pb::Event &x = kv.second;
    Event e;
    e.id = x.id();
    e.name = x.name();
    if (x.has_description()) e.description = x.description();
    if (x.has_logo()) e.logo = x.logo();
    e.subTopicIds = get_ints(x.sub_topic_ids());
    e.topicIds = get_ints(x.topic_ids());
    c.events.emplace(kv.first, std::move(e));
  }
  c.performances.reserve(static_cast<size_t>(m.performances_size()));
  for (const pb::Performance &x : m.performances()) {
    Performance p;
    p.id = x.id();
    p.eventId = x.event_id();
    if (x.has_name()) p.name = x.name();
    if (x.has_logo()) p.logo = x.logo();
    p.start = x.start();
    p.venueCode = x.venue_code();
    p.prices.reserve(static_cast<size_t>(x.prices_size()));
    for (const pb::Price &y : x.prices()) p.prices.push_back(Price{y.amount(), y.audience_sub_category_id(), y.seat_category_id()});
    p.seatCategories.reserve(static_cast<size_t>(x.seat_categories_size()));
    for (const pb::SeatCategory &y : x.seat_categories()) {
      SeatCategory sc;
      sc.seatCategoryId = y.seat_category_id();
      sc.areas.reserve(static_cast<size_t>(y.areas_size()));
      for (const pb::Area &z : y.areas()) sc.areas.push_back(Area{z.area_id(), get_ints(z.block_ids())});
      p.seatCategories.push_back(std::move(sc));
    }
    c.performances.push_back(std::move(p));
  }
  for (const auto &kv : m.topic_sub_topics()) c.topicSubTopics.emplace(kv.first, get_ints(kv.second.values()));
  for (const auto &kv : m.venue_names()) c.venueNames.emplace(kv.first, kv.second);
  return c;
}

int main(int argc, char **argv) {
  google::protobuf::SetLogHandler(keep_log);
  return run_main(argc, argv, encode, decode);
}
