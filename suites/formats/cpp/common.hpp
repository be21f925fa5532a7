// Shared by the formats C++ programs: the catalogue's plain types, the canon stream and its digest (the suite's
// README; SHA-256 by OpenSSL's libcrypto), and the driver: the untimed set-up, the timed passes, the result line,
// and the --emit / --decode modes of the interop check. Member names are the wire's keys (MSGPACK_DEFINE_MAP).
#pragma once
#include <openssl/sha.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#ifdef IORACE_MSGPACK  // msgpack.cpp: the structs as maps keyed by member name (the wire's keys)
#define IORACE_FIELDS(...) MSGPACK_DEFINE_MAP(__VA_ARGS__)
#else
#define IORACE_FIELDS(...)
#endif

struct Event {
  int64_t id = 0;
  std::string name;
  std::optional<std::string> description, logo;
  std::vector<int64_t> subTopicIds, topicIds;
  IORACE_FIELDS(id, name, description, logo, subTopicIds, topicIds)
};
struct Price {
  int64_t amount = 0, audienceSubCategoryId = 0, seatCategoryId = 0;
  IORACE_FIELDS(amount, audienceSubCategoryId, seatCategoryId)
};
struct Area {
  int64_t areaId = 0;
  std::vector<int64_t> blockIds;
  IORACE_FIELDS(areaId, blockIds)
};
struct SeatCategory {
  int64_t seatCategoryId = 0;
  std::vector<Area> areas;
  IORACE_FIELDS(seatCategoryId, areas)
};
struct Performance {
  int64_t id = 0, eventId = 0;
  std::optional<std::string> name, logo;
  int64_t start = 0;
  std::string venueCode;
  std::vector<Price> prices;
  std::vector<SeatCategory> seatCategories;
  IORACE_FIELDS(id, eventId, name, logo, start, venueCode, prices, seatCategories)
};
struct Catalog {
  std::map<std::string, std::string> areaNames;
  std::map<std::string, Event> events;
  std::vector<Performance> performances;
  std::map<std::string, std::vector<int64_t>> topicSubTopics;
  std::map<std::string, std::string> venueNames;
  IORACE_FIELDS(areaNames, events, performances, topicSubTopics, venueNames)
};

// The canon stream: std::map<std::string, T> iterates by key bytes (std::string compares as unsigned chars).
struct Canon {
  std::string out;
  void i64(int64_t v) {
    uint64_t u = static_cast<uint64_t>(v);
    for (int i = 0; i < 8; i++) out.push_back(static_cast<char>(u >> (8 * i)));
  }
  void count(size_t n) {
    for (int i = 0; i < 4; i++) out.push_back(static_cast<char>(static_cast<uint32_t>(n) >> (8 * i)));
  }
  void str(const std::string &s) {
    count(s.size());
    out += s;
  }
  void opt(const std::optional<std::string> &s) {
    out.push_back(s ? 1 : 0);
    if (s) str(*s);
  }
  void ints(const std::vector<int64_t> &v) {
    count(v.size());
    for (int64_t x : v) i64(x);
  }
  void strings(const std::map<std::string, std::string> &m) {
    count(m.size());
    for (const auto &[k, v] : m) {
      str(k);
      str(v);
    }
  }
};

inline std::string digest(const Catalog &c) {
  Canon o;
  o.strings(c.areaNames);
  o.count(c.events.size());
  for (const auto &[k, e] : c.events) {
    o.str(k);
    o.i64(e.id);
    o.str(e.name);
    o.opt(e.description);
    o.opt(e.logo);
    o.ints(e.subTopicIds);
    o.ints(e.topicIds);
  }
  o.count(c.performances.size());
  for (const auto &p : c.performances) {
    o.i64(p.id);
    o.i64(p.eventId);
    o.opt(p.name);
    o.opt(p.logo);
    o.i64(p.start);
    o.str(p.venueCode);
    o.count(p.prices.size());
    for (const auto &pr : p.prices) {
      o.i64(pr.amount);
      o.i64(pr.audienceSubCategoryId);
      o.i64(pr.seatCategoryId);
    }
    o.count(p.seatCategories.size());
    for (const auto &sc : p.seatCategories) {
      o.i64(sc.seatCategoryId);
      o.count(sc.areas.size());
      for (const auto &a : sc.areas) {
        o.i64(a.areaId);
        o.ints(a.blockIds);
      }
    }
  }
  o.count(c.topicSubTopics.size());
  for (const auto &[k, v] : c.topicSubTopics) {
    o.str(k);
    o.ints(v);
  }
  o.strings(c.venueNames);
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char *>(o.out.data()), o.out.size(), md);
  std::string hex;
  char two[3];
  for (unsigned char b : md) {
    std::snprintf(two, sizeof two, "%02x", b);
    hex += two;
  }
  return hex;
}

inline std::string read_file(const char *path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot open ") + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Catalog load_canonical(const std::string &text);  // each program: the canonical JSON to plain objects

// `PROG CANON encode|decode|read PASSES`, `PROG --emit CANON OUT`, `PROG --decode FILE`, `PROG --read FILE`.
// read (zero-copy formats only): bytes -> the visit checksum (README), no plain objects built; op=read times it.
template <class Encode, class Decode, class Read = std::nullptr_t>
int run_main(int argc, char **argv, Encode encode, Decode decode, Read read = nullptr) {
  constexpr bool can_read = !std::is_same_v<Read, std::nullptr_t>;
  try {
    if (argc == 4 && std::strcmp(argv[1], "--emit") == 0) {
      std::string out = encode(load_canonical(read_file(argv[2])));
      std::ofstream(argv[3], std::ios::binary).write(out.data(), static_cast<std::streamsize>(out.size()));
      return 0;
    }
    if (argc == 3 && std::strcmp(argv[1], "--decode") == 0) {
      std::printf("%s\n", digest(decode(read_file(argv[2]))).c_str());
      return 0;
    }
    if constexpr (can_read) {
      if (argc == 3 && std::strcmp(argv[1], "--read") == 0) {
        std::printf("%llu\n", static_cast<unsigned long long>(read(read_file(argv[2]))));
        return 0;
      }
    }
    bool enc = argc == 4 && std::strcmp(argv[2], "encode") == 0;
    bool rd = can_read && argc == 4 && std::strcmp(argv[2], "read") == 0;
    long passes = argc == 4 ? std::atol(argv[3]) : 0;
    if (argc != 4 || (!enc && !rd && std::strcmp(argv[2], "decode") != 0) || passes < 1) {
      std::fprintf(stderr, "error: usage: %s CANON encode|decode PASSES | --emit CANON OUT | --decode FILE\n", argv[0]);
      return 2;
    }
    const Catalog data = load_canonical(read_file(argv[1]));  // untimed
    std::string encoded = encode(data);
    const size_t size = encoded.size();
    std::string answer;
    auto start = std::chrono::steady_clock::now();
    if (enc) {
      for (long p = 1; p <= passes; p++) {
        encoded = encode(data);
        if (encoded.size() != size) {
          std::fprintf(stderr, "error: pass %ld wrote %zu bytes, the first %zu\n", p, encoded.size(), size);
          return 1;
        }
      }
    }
    if constexpr (can_read) {
      if (rd) {
        uint64_t sum = 0;
        for (long p = 1; p <= passes; p++) sum = read(encoded);
        long long inner = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "iorace-result {\"answer\": \"%llu\", \"inner_ns\": %lld, \"extra\": {\"encoded_bytes\": %zu}}\n",
                     static_cast<unsigned long long>(sum), inner, size);
        return 0;
      }
    }
    Catalog decoded;
    if (!enc)
      for (long p = 1; p <= passes; p++) decoded = decode(encoded);
    long long inner = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
    answer = digest(enc ? decode(encoded) : decoded);  // untimed
    std::fprintf(stderr, "iorace-result {\"answer\": \"%s\", \"inner_ns\": %lld, \"extra\": {\"encoded_bytes\": %zu}}\n",
                 answer.c_str(), inner, size);
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
