// Strategy: Avro C 1.11.1 (Debian's libavro, its generic value API, called from C++): the typed structs set into a
// new generic value of avro/catalogue.avsc (compiled in at build time, parsed once, untimed), avro_value_sizeof,
// then avro_value_write into a new std::string through a memory writer (a binary datum, no container file);
// decode: a flat walk of the bytes against the schema first (every block count and string length checked against
// the bytes left, strings checked as UTF-8, the datum ending at the last byte: Avro C mallocs a string's claimed
// length before reading it), then avro_value_read into a new generic value, converted to new typed structs.
#include <avro.h>

#include "json_nlohmann.hpp"  // only to read the canonical file, untimed

static const char kSchema[] =
#include "catalogue.avsc.inc"  // the schema as a raw string literal, written by suite.toml's g++ build
    ;

static std::string avro_error(const char *what) {
  std::string message = std::string(what) + ": " + avro_strerror();
  for (char &ch : message)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return message;
}

static void check(int rc, const char *what) {
  if (rc != 0) throw std::runtime_error(avro_error(what));
}

struct Schema {
  avro_schema_t schema = nullptr;
  avro_value_iface_t *iface = nullptr;
  Schema() {
    if (avro_schema_from_json_length(kSchema, sizeof kSchema - 1, &schema) != 0)
      throw std::runtime_error(avro_error("avro/catalogue.avsc"));
    iface = avro_generic_class_from_schema(schema);
    if (iface == nullptr) throw std::runtime_error(avro_error("avro/catalogue.avsc"));
  }
};
static const Schema &schema() {
  static const Schema s;
  return s;
}

// A generic value owned here: decref'd (its whole tree freed) when it goes.
struct Value {
  avro_value_t v;
  Value() { check(avro_generic_value_new(schema().iface, &v), "avro_generic_value_new"); }
  ~Value() { avro_value_decref(&v); }
  Value(const Value &) = delete;
  Value &operator=(const Value &) = delete;
};

static avro_value_t field(avro_value_t &record, size_t i) {
  avro_value_t out;
  check(avro_value_get_by_index(&record, i, &out, nullptr), "a field");
  return out;
}

static void put_long(avro_value_t &record, size_t i, int64_t v) {
  avro_value_t f = field(record, i);
  check(avro_value_set_long(&f, v), "a long");
}

static void put_string(avro_value_t &to, const std::string &s) {
  // Avro C's size counts a NUL after the bytes (it writes size - 1 of them)
  check(avro_value_set_string_len(&to, s.c_str(), s.size() + 1), "a string");
}

static void put_optional(avro_value_t &record, size_t i, const std::optional<std::string> &s) {
  avro_value_t u = field(record, i), branch;
  check(avro_value_set_branch(&u, s ? 1 : 0, &branch), "a union");
  if (s)
    put_string(branch, *s);
  else
    check(avro_value_set_null(&branch), "a null");
}

static void put_longs(avro_value_t &array, const std::vector<int64_t> &from) {
  for (int64_t x : from) {
    avro_value_t item;
    check(avro_value_append(&array, &item, nullptr), "an array item");
    check(avro_value_set_long(&item, x), "a long");
  }
}

static void put_strings(avro_value_t &map, const std::map<std::string, std::string> &from) {
  for (const auto &[k, v] : from) {
    avro_value_t item;
    check(avro_value_add(&map, k.c_str(), &item, nullptr, nullptr), "a map entry");
    put_string(item, v);
  }
}

static std::string encode(const Catalog &c) {
  Value value;
  avro_value_t &m = value.v;
  avro_value_t f = field(m, 0);
  put_strings(f, c.areaNames);
  f = field(m, 1);
  for (const auto &[k, e] : c.events) {
    avro_value_t x, y;
    check(avro_value_add(&f, k.c_str(), &x, nullptr, nullptr), "a map entry");
    put_long(x, 0, e.id);
    y = field(x, 1);
    put_string(y, e.name);
    put_optional(x, 2, e.description);
    put_optional(x, 3, e.logo);
    y = field(x, 4);
    put_longs(y, e.subTopicIds);
    y = field(x, 5);
    put_longs(y, e.topicIds);
  }
  f = field(m, 2);
  for (const Performance &p : c.performances) {
    avro_value_t x, y;
    check(avro_value_append(&f, &x, nullptr), "an array item");
    put_long(x, 0, p.id);
    put_long(x, 1, p.eventId);
    put_optional(x, 2, p.name);
    put_optional(x, 3, p.logo);
    put_long(x, 4, p.start);
    y = field(x, 5);
    put_string(y, p.venueCode);
    y = field(x, 6);
    for (const Price &pr : p.prices) {
      avro_value_t z;
      check(avro_value_append(&y, &z, nullptr), "an array item");
      put_long(z, 0, pr.amount);
      put_long(z, 1, pr.audienceSubCategoryId);
      put_long(z, 2, pr.seatCategoryId);
    }
    y = field(x, 7);
    for (const SeatCategory &sc : p.seatCategories) {
      avro_value_t z, areas;
      check(avro_value_append(&y, &z, nullptr), "an array item");
      put_long(z, 0, sc.seatCategoryId);
      areas = field(z, 1);
      for (const Area &a : sc.areas) {
        avro_value_t w, ids;
        check(avro_value_append(&areas, &w, nullptr), "an array item");
        put_long(w, 0, a.areaId);
        ids = field(w, 1);
        put_longs(ids, a.blockIds);
      }
    }
  }
  f = field(m, 3);
  for (const auto &[k, v] : c.topicSubTopics) {
    avro_value_t x;
    check(avro_value_add(&f, k.c_str(), &x, nullptr, nullptr), "a map entry");
    put_longs(x, v);
  }
  f = field(m, 4);
  put_strings(f, c.venueNames);
  size_t size = 0;
  check(avro_value_sizeof(&m, &size), "avro_value_sizeof");
  std::string out(size, '\0');
  avro_writer_t w = avro_writer_memory(out.data(), static_cast<int64_t>(size));
  int rc = avro_value_write(w, &m);
  avro_writer_free(w);
  check(rc, "avro_value_write");
  return out;
}

// The datum's bytes walked against the schema (the kinds this schema uses), nothing built.
struct Walk {
  const unsigned char *b;
  size_t n, at = 0;

  [[noreturn]] void fail(const std::string &what) const {
    throw std::runtime_error(what + " at byte " + std::to_string(at) + " with " + std::to_string(n - at) + " bytes left");
  }
  int64_t lng() {  // a zigzag varint, 10 bytes at most
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
      if (at >= n) fail("a long past the end");
      unsigned char c = b[at++];
      if (shift == 63 && c > 1) fail("a long of more than 64 bits");
      v |= uint64_t(c & 0x7f) << shift;
      if (c < 0x80) return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
    }
    fail("a long of more than 10 bytes");
  }
  // a length or count: not negative, no more than the bytes left (every item here takes a byte at least)
  size_t size(const char *what) {
    int64_t v = lng();
    if (v < 0 || static_cast<uint64_t>(v) > n - at) fail(std::string(what) + " of " + std::to_string(v));
    return static_cast<size_t>(v);
  }
  void str() {
    size_t len = size("a string"), end = at + len;
    for (size_t i = at; i < end;) {  // UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF
      unsigned c = b[i];
      size_t k = c < 0x80 ? 1 : (c >= 0xc2 && c < 0xe0) ? 2 : (c >= 0xe0 && c < 0xf0) ? 3 : (c >= 0xf0 && c < 0xf5) ? 4 : 0;
      if (k == 0 || i + k > end) fail("a string that is not UTF-8");
      for (size_t j = 1; j < k; j++)
        if ((b[i + j] & 0xc0) != 0x80) fail("a string that is not UTF-8");
      if ((c == 0xe0 && b[i + 1] < 0xa0) || (c == 0xed && b[i + 1] >= 0xa0) || (c == 0xf0 && b[i + 1] < 0x90) ||
          (c == 0xf4 && b[i + 1] >= 0x90))
        fail("a string that is not UTF-8");
      i += k;
    }
    at = end;
  }
  // an array's or a map's blocks: a count (a negative one followed by the block's size in bytes), its items,
  // until a count of 0
  void blocks(avro_schema_t items, bool map) {
    for (;;) {
      int64_t count = lng();
      if (count == 0) return;
      if (count < 0) {
        if (count == INT64_MIN) fail("a block count of -2^63");
        count = -count;
        size("a block's size");
      }
      if (static_cast<uint64_t>(count) > n - at) fail("a block of " + std::to_string(count) + " items");
      for (int64_t i = 0; i < count; i++) {
        if (map) str();
        walk(items);
      }
    }
  }
  void walk(avro_schema_t s) {
    switch (avro_typeof(s)) {
      case AVRO_RECORD:
        for (size_t i = 0, k = avro_schema_record_size(s); i < k; i++)
          walk(avro_schema_record_field_get_by_index(s, static_cast<int>(i)));
        return;
      case AVRO_ARRAY:
        return blocks(avro_schema_array_items(s), false);
      case AVRO_MAP:
        return blocks(avro_schema_map_values(s), true);
      case AVRO_UNION: {
        int64_t i = lng();
        if (i < 0 || static_cast<uint64_t>(i) >= avro_schema_union_size(s)) fail("union branch " + std::to_string(i));
        return walk(avro_schema_union_branch(s, static_cast<int>(i)));
      }
      case AVRO_NULL:
        return;
      case AVRO_INT64:
        lng();
        return;
      case AVRO_STRING:
        return str();
      default:
        fail("a schema kind the catalogue does not use");
    }
  }
};

static int64_t get_long(avro_value_t &record, size_t i) {
  avro_value_t f = field(record, i);
  int64_t v = 0;
  check(avro_value_get_long(&f, &v), "a long");
  return v;
}

static std::string get_string(avro_value_t &v) {
  const char *s = nullptr;
  size_t size = 0;
  check(avro_value_get_string(&v, &s, &size), "a string");
  return std::string(s, size - 1);  // size counts Avro C's NUL after the bytes
}

static std::optional<std::string> get_optional(avro_value_t &record, size_t i) {
  avro_value_t u = field(record, i), branch;
  int d = 0;
  check(avro_value_get_discriminant(&u, &d), "a union");
  if (d == 0) return std::nullopt;
  check(avro_value_get_current_branch(&u, &branch), "a union");
  return get_string(branch);
}

static size_t count(avro_value_t &v) {
  size_t n = 0;
  check(avro_value_get_size(&v, &n), "a size");
  return n;
}

static avro_value_t item(avro_value_t &container, size_t i, const char **key = nullptr) {
  avro_value_t out;
  check(avro_value_get_by_index(&container, i, &out, key), "an item");
  return out;
}

static std::vector<int64_t> get_longs(avro_value_t &array) {
  std::vector<int64_t> out(count(array));
  for (size_t i = 0; i < out.size(); i++) {
    avro_value_t x = item(array, i);
    check(avro_value_get_long(&x, &out[i]), "a long");
  }
  return out;
}

static std::map<std::string, std::string> get_strings(avro_value_t &map) {
  std::map<std::string, std::string> out;
  for (size_t i = 0, n = count(map); i < n; i++) {
    const char *key = nullptr;
    avro_value_t x = item(map, i, &key);
    out.emplace(key, get_string(x));
  }
  return out;
}

static Catalog decode(const std::string &bytes) {
  Walk walk{reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size()};
  walk.walk(schema().schema);
  if (walk.at != bytes.size()) throw std::runtime_error(std::to_string(bytes.size() - walk.at) + " bytes after the datum");
  Value value;
  avro_value_t &m = value.v;
  avro_reader_t r = avro_reader_memory(bytes.data(), static_cast<int64_t>(bytes.size()));
  int rc = avro_value_read(r, &m);
  avro_reader_free(r);
  check(rc, "avro_value_read");
  Catalog c;
  avro_value_t f = field(m, 0);
  c.areaNames = get_strings(f);
  f = field(m, 1);
  for (size_t i = 0, n = count(f); i < n; i++) {
    const char *key = nullptr;
    avro_value_t x = item(f, i, &key), y;
    Event e;
    e.id = get_long(x, 0);
    y = field(x, 1);
    e.name = get_string(y);
    e.description = get_optional(x, 2);
    e.logo = get_optional(x, 3);
    y = field(x, 4);
    e.subTopicIds = get_longs(y);
    y = field(x, 5);
    e.topicIds = get_longs(y);
    c.events.emplace(key, std::move(e));
  }
  f = field(m, 2);
  c.performances.resize(count(f));
  for (size_t i = 0; i < c.performances.size(); i++) {
    Performance &p = c.performances[i];
    avro_value_t x = item(f, i), y;
    p.id = get_long(x, 0);
    p.eventId = get_long(x, 1);
    p.name = get_optional(x, 2);
    p.logo = get_optional(x, 3);
    p.start = get_long(x, 4);
    y = field(x, 5);
    p.venueCode = get_string(y);
    y = field(x, 6);
    p.prices.resize(count(y));
    for (size_t j = 0; j < p.prices.size(); j++) {
      avro_value_t z = item(y, j);
      p.prices[j] = Price{get_long(z, 0), get_long(z, 1), get_long(z, 2)};
    }
    y = field(x, 7);
    p.seatCategories.resize(count(y));
    for (size_t j = 0; j < p.seatCategories.size(); j++) {
      SeatCategory &sc = p.seatCategories[j];
      avro_value_t z = item(y, j), areas;
      sc.seatCategoryId = get_long(z, 0);
      areas = field(z, 1);
      sc.areas.resize(count(areas));
      for (size_t k = 0; k < sc.areas.size(); k++) {
        avro_value_t w = item(areas, k), ids;
        sc.areas[k].areaId = get_long(w, 0);
        ids = field(w, 1);
        sc.areas[k].blockIds = get_longs(ids);
      }
    }
  }
  f = field(m, 3);
  for (size_t i = 0, n = count(f); i < n; i++) {
    const char *key = nullptr;
    avro_value_t x = item(f, i, &key);
    c.topicSubTopics.emplace(key, get_longs(x));
  }
  f = field(m, 4);
  c.venueNames = get_strings(f);
  return c;
}

int main(int argc, char **argv) {
  try {
    schema();  // untimed: the schema parsed and its generic class made before any pass
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return run_main(argc, argv, encode, decode);
}
