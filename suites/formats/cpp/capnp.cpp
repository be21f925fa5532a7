// Strategy: Cap'n Proto C++ 0.9.2 (Debian's libcapnp, generated classes, unpacked): encode = the typed structs
// built into a new MallocMessageBuilder (library default segment sizes) and written out flat (segment table and
// segments: messageToFlatArray's bytes, written straight into the output string); decode = a
// FlatArrayMessageReader over the bytes, read into new typed structs; read = the same reader, every field visited
// in place (no plain objects), answering the visit checksum. All on the clock. The reader keeps its default
// limits (traversal 8 Mi words, nesting 64), which a whole catalogue stays far below. catalogue.capnp.{h,c++}
// are generated at build time by Debian's capnp 0.9.2 (suite.toml's g++ build) from ../capnp/catalogue.capnp:
// generated code must match its library's version, and Debian ships the compiler and the library as one.
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <kj/exception.h>
#include <kj/io.h>

#include <chrono>

#include "catalogue.capnp.h"
#include "json_nlohmann.hpp"  // only to read the canonical file, untimed

namespace cp = iorace::formats::cp;

static void put_ints(capnp::List<int64_t>::Builder to, const std::vector<int64_t> &from) {
  for (unsigned i = 0; i < from.size(); i++) to.set(i, from[i]);
}

static capnp::Text::Reader text(const std::string &s) { return capnp::Text::Reader(s.data(), s.size()); }

static void put_strings(capnp::List<cp::TextEntry>::Builder to, const std::map<std::string, std::string> &from) {
  unsigned i = 0;
  for (const auto &[k, v] : from) {  // std::map: in key order, the schema's map order
    auto e = to[i++];
    e.setKey(text(k));
    e.setValue(text(v));
  }
}

static std::string encode(const Catalog &c) {
  capnp::MallocMessageBuilder message;
  auto m = message.initRoot<cp::Catalog>();
  put_strings(m.initAreaNames(static_cast<unsigned>(c.areaNames.size())), c.areaNames);
  auto events = m.initEvents(static_cast<unsigned>(c.events.size()));
  unsigned i = 0;
  for (const auto &[k, e] : c.events) {
    auto entry = events[i++];
    entry.setKey(text(k));
    auto x = entry.initValue();
    x.setId(e.id);
    x.setName(text(e.name));
    if (e.description) x.getDescription().setPresent(text(*e.description));  // else the union's default: absent
    if (e.logo) x.getLogo().setPresent(text(*e.logo));
    put_ints(x.initSubTopicIds(static_cast<unsigned>(e.subTopicIds.size())), e.subTopicIds);
    put_ints(x.initTopicIds(static_cast<unsigned>(e.topicIds.size())), e.topicIds);
  }
  auto performances = m.initPerformances(static_cast<unsigned>(c.performances.size()));
  i = 0;
  for (const Performance &p : c.performances) {
    auto x = performances[i++];
    x.setId(p.id);
    x.setEventId(p.eventId);
    if (p.name) x.getName().setPresent(text(*p.name));
    if (p.logo) x.getLogo().setPresent(text(*p.logo));
    x.setStart(p.start);
    x.setVenueCode(text(p.venueCode));
    auto prices = x.initPrices(static_cast<unsigned>(p.prices.size()));
    for (unsigned j = 0; j < p.prices.size(); j++) {
      prices[j].setAmount(p.prices[j].amount);
      prices[j].setAudienceSubCategoryId(p.prices[j].audienceSubCategoryId);
      prices[j].setSeatCategoryId(p.prices[j].seatCategoryId);
    }
    auto cats = x.initSeatCategories(static_cast<unsigned>(p.seatCategories.size()));
    for (unsigned j = 0; j < p.seatCategories.size(); j++) {
      const SeatCategory &sc = p.seatCategories[j];
      cats[j].setSeatCategoryId(sc.seatCategoryId);
      auto areas = cats[j].initAreas(static_cast<unsigned>(sc.areas.size()));
      for (unsigned a = 0; a < sc.areas.size(); a++) {
        areas[a].setAreaId(sc.areas[a].areaId);
        put_ints(areas[a].initBlockIds(static_cast<unsigned>(sc.areas[a].blockIds.size())), sc.areas[a].blockIds);
      }
    }
  }
  auto topics = m.initTopicSubTopics(static_cast<unsigned>(c.topicSubTopics.size()));
  i = 0;
  for (const auto &[k, ids] : c.topicSubTopics) {
    auto entry = topics[i++];
    entry.setKey(text(k));
    put_ints(entry.initValue(static_cast<unsigned>(ids.size())), ids);
  }
  put_strings(m.initVenueNames(static_cast<unsigned>(c.venueNames.size())), c.venueNames);
  // messageToFlatArray's bytes, written once into the string the driver takes (not into an array, then copied)
  auto segments = message.getSegmentsForOutput();
  std::string out(capnp::computeSerializedSizeInWords(segments) * sizeof(capnp::word), '\0');
  kj::ArrayOutputStream stream(kj::arrayPtr(reinterpret_cast<kj::byte *>(&out[0]), out.size()));
  capnp::writeMessage(stream, segments);
  return out;
}

// The reader needs whole, 8-byte aligned words. A std::string's heap buffer is aligned (operator new: 16 bytes),
// so the bytes are read in place; a short string (held inside the object) or an odd length is copied or refused.
struct Words {
  kj::Array<capnp::word> copy;
  kj::ArrayPtr<const capnp::word> words;
  explicit Words(const std::string &b) {
    if (b.size() % sizeof(capnp::word) != 0)
      throw std::runtime_error("capnp: " + std::to_string(b.size()) + " bytes is not a whole number of 8-byte words");
    size_t n = b.size() / sizeof(capnp::word);
    if (reinterpret_cast<uintptr_t>(b.data()) % alignof(capnp::word) == 0) {
      words = kj::arrayPtr(reinterpret_cast<const capnp::word *>(b.data()), n);
    } else {
      copy = kj::heapArray<capnp::word>(n);
      std::memcpy(copy.begin(), b.data(), b.size());
      words = copy;
    }
  }
};

// A reader over the whole of b; bytes past the message's end are refused (a flat array is one message).
struct Reader {
  Words w;
  capnp::FlatArrayMessageReader message;
  explicit Reader(const std::string &b) : w(b), message(w.words) {
    if (message.getEnd() != w.words.end()) throw std::runtime_error("capnp: bytes past the end of the message");
  }
};

static std::string str(capnp::Text::Reader t) { return std::string(t.begin(), t.size()); }

// Map entries must come in strictly increasing key order (the encoders write them so): a map decoded is the map
// written, the same in every language. Appending in order is also std::map's cheap insertion (a hint at end()).
template <class Map>
static typename Map::iterator put_after(Map &m, capnp::Text::Reader key) {
  std::string k = str(key);
  if (!m.empty() && !(std::prev(m.end())->first < k)) throw std::runtime_error("capnp: map keys out of order or repeated");
  return m.emplace_hint(m.end(), std::move(k), typename Map::mapped_type{});
}

static std::vector<int64_t> get_ints(capnp::List<int64_t>::Reader from) {
  std::vector<int64_t> v;
  v.reserve(from.size());
  for (int64_t x : from) v.push_back(x);
  return v;
}

template <class U>
static std::optional<std::string> get_opt(U u) {
  if (u.isPresent()) return str(u.getPresent());
  return std::nullopt;
}

static Catalog decode_from(cp::Catalog::Reader m) {
  Catalog c;
  for (auto e : m.getAreaNames()) put_after(c.areaNames, e.getKey())->second = str(e.getValue());
  for (auto entry : m.getEvents()) {
    auto x = entry.getValue();
    Event &e = put_after(c.events, entry.getKey())->second;
    e.id = x.getId();
    e.name = str(x.getName());
    e.description = get_opt(x.getDescription());
    e.logo = get_opt(x.getLogo());
    e.subTopicIds = get_ints(x.getSubTopicIds());
    e.topicIds = get_ints(x.getTopicIds());
  }
  auto performances = m.getPerformances();
  c.performances.reserve(performances.size());
  for (auto x : performances) {
    Performance p;
    p.id = x.getId();
    p.eventId = x.getEventId();
    p.name = get_opt(x.getName());
    p.logo = get_opt(x.getLogo());
    p.start = x.getStart();
    p.venueCode = str(x.getVenueCode());
    auto prices = x.getPrices();
    p.prices.reserve(prices.size());
    for (auto y : prices) p.prices.push_back(Price{y.getAmount(), y.getAudienceSubCategoryId(), y.getSeatCategoryId()});
    auto cats = x.getSeatCategories();
    p.seatCategories.reserve(cats.size());
    for (auto y : cats) {
      SeatCategory sc;
      sc.seatCategoryId = y.getSeatCategoryId();
      auto areas = y.getAreas();
      sc.areas.reserve(areas.size());
      for (auto z : areas) sc.areas.push_back(Area{z.getAreaId(), get_ints(z.getBlockIds())});
      p.seatCategories.push_back(std::move(sc));
    }
    c.performances.push_back(std::move(p));
  }
  for (auto e : m.getTopicSubTopics()) put_after(c.topicSubTopics, e.getKey())->second = get_ints(e.getValue());
  for (auto e : m.getVenueNames()) put_after(c.venueNames, e.getKey())->second = str(e.getValue());
  return c;
}

// libcapnp refuses bad bytes with kj::Exception, which is no std::exception: said here as the driver's one line.
[[noreturn]] static void refuse(const kj::Exception &e) {
  std::string why = e.getDescription().cStr();
  for (char &ch : why)
    if (ch == '\n' || ch == '\r') ch = ' ';
  throw std::runtime_error("capnp: " + why);
}

static Catalog decode(const std::string &b) {
  try {
    Reader r(b);
    return decode_from(r.message.getRoot<cp::Catalog>());
  } catch (const kj::Exception &e) {
    refuse(e);
  }
}

// --- read: the visit checksum (README.md, "The read op"), through the reader, no plain objects ----------------
// The canonical JSON's value tree: a record is an object, so each counts its entries and its keys' byte lengths
// (constants here, spelled as the keys); an int is its value mod 2^64; a string its UTF-8 length; null 0.
static constexpr uint64_t keys(std::initializer_list<const char *> names) {
  uint64_t n = names.size();
  for (const char *s : names) n += std::char_traits<char>::length(s);
  return n;
}
static constexpr uint64_t CATALOG = keys({"areaNames", "events", "performances", "topicSubTopics", "venueNames"});
static constexpr uint64_t EVENT = keys({"id", "name", "description", "logo", "subTopicIds", "topicIds"});
static constexpr uint64_t PERFORMANCE = keys({"id", "eventId", "name", "logo", "start", "venueCode", "prices", "seatCategories"});
static constexpr uint64_t PRICE = keys({"amount", "audienceSubCategoryId", "seatCategoryId"});
static constexpr uint64_t SEAT_CATEGORY = keys({"seatCategoryId", "areas"});
static constexpr uint64_t AREA = keys({"areaId", "blockIds"});

static uint64_t visit_ints(capnp::List<int64_t>::Reader l) {
  uint64_t s = l.size();
  for (int64_t x : l) s += static_cast<uint64_t>(x);
  return s;
}
template <class U>
static uint64_t visit_opt(U u) {
  return u.isPresent() ? u.getPresent().size() : 0;
}
static uint64_t visit_strings(capnp::List<cp::TextEntry>::Reader l) {
  uint64_t s = l.size();
  for (auto e : l) s += e.getKey().size() + e.getValue().size();
  return s;
}

static uint64_t visit(cp::Catalog::Reader m) {
  uint64_t s = CATALOG + visit_strings(m.getAreaNames());
  auto events = m.getEvents();
  s += events.size();
  for (auto entry : events) {
    auto x = entry.getValue();
    s += entry.getKey().size() + EVENT + static_cast<uint64_t>(x.getId()) + x.getName().size();
    s += visit_opt(x.getDescription()) + visit_opt(x.getLogo());
    s += visit_ints(x.getSubTopicIds()) + visit_ints(x.getTopicIds());
  }
  auto performances = m.getPerformances();
  s += performances.size();
  for (auto x : performances) {
    s += PERFORMANCE + static_cast<uint64_t>(x.getId()) + static_cast<uint64_t>(x.getEventId());
    s += visit_opt(x.getName()) + visit_opt(x.getLogo()) + static_cast<uint64_t>(x.getStart()) + x.getVenueCode().size();
    auto prices = x.getPrices();
    s += prices.size();
    for (auto y : prices)
      s += PRICE + static_cast<uint64_t>(y.getAmount()) + static_cast<uint64_t>(y.getAudienceSubCategoryId()) +
           static_cast<uint64_t>(y.getSeatCategoryId());
    auto cats = x.getSeatCategories();
    s += cats.size();
    for (auto y : cats) {
      auto areas = y.getAreas();
      s += SEAT_CATEGORY + static_cast<uint64_t>(y.getSeatCategoryId()) + areas.size();
      for (auto z : areas) s += AREA + static_cast<uint64_t>(z.getAreaId()) + visit_ints(z.getBlockIds());
    }
  }
  auto topics = m.getTopicSubTopics();
  s += topics.size();
  for (auto e : topics) s += e.getKey().size() + visit_ints(e.getValue());
  return s + visit_strings(m.getVenueNames());
}

static uint64_t read_visit(const std::string &b) {
  try {
    Reader r(b);
    return visit(r.message.getRoot<cp::Catalog>());
  } catch (const kj::Exception &e) {
    refuse(e);
  }
}

// `PROG CANON read PASSES`: the bytes its own encoder wrote (untimed), then PASSES of a new reader and a visit.
static int run_read(const char *canon, const char *passes_arg) {
  try {
    long passes = std::atol(passes_arg);
    if (passes < 1) throw std::runtime_error(std::string("PASSES must be a positive integer, not '") + passes_arg + "'");
    const std::string encoded = encode(load_canonical(read_file(canon)));  // untimed
    uint64_t sum = 0;
    auto start = std::chrono::steady_clock::now();
    for (long p = 1; p <= passes; p++) {
      uint64_t s = read_visit(encoded);
      if (p > 1 && s != sum) throw std::runtime_error("pass " + std::to_string(p) + " visited another sum");
      sum = s;
    }
    long long inner = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "iorace-result {\"answer\": \"%llu\", \"inner_ns\": %lld, \"extra\": {\"encoded_bytes\": %zu}}\n",
                 static_cast<unsigned long long>(sum), inner, encoded.size());
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

int main(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[2], "read") == 0 && std::strcmp(argv[1], "--emit") != 0) return run_read(argv[1], argv[3]);
  return run_main(argc, argv, encode, decode);
}
