// Shared by every C++ serialize variant: the record, Cerealed's format as templates over a byte sink or
// source, the plain file decoder, a counting operator new, the timed loops and the result line.
#pragma once

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <string_view>
#include <vector>

// --- heap bytes allocated (every operator new of the program; the report's alloc_bytes_per_op) -----
inline std::uint64_t g_new_bytes = 0;
void* operator new(std::size_t n) {
  g_new_bytes += n;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace ser {

// The record every language serializes; field order = wire order. Encoded size = 38 + name.size().
struct Record {
  std::uint32_t id;
  std::uint8_t kind;
  std::int16_t delta;
  std::int64_t stamp;
  bool active;
  float ratio;
  double value;
  std::uint16_t dims[4];  // a static array: elements only
  std::string_view name;  // u16 big-endian length, then the bytes
};

template <class T, class F> inline T bits(F v) {
  static_assert(sizeof(T) == sizeof(F));
  T t;
  std::memcpy(&t, &v, sizeof t);
  return t;
}

// Cerealed's format: big-endian, byte by byte through w.put(uint8_t); signed, bool and floating-point
// values as the unsigned type of their size; 64-bit values in network byte order.
template <class W, class U> inline void put_be(W& w, U v) {
  for (int i = sizeof(U) - 1; i >= 0; --i) w.put(static_cast<std::uint8_t>(v >> (8 * i)));
}

template <class W> inline void write(W& w, const Record& r) {
  put_be(w, r.id);
  put_be(w, r.kind);
  put_be(w, static_cast<std::uint16_t>(r.delta));
  put_be(w, static_cast<std::uint64_t>(r.stamp));
  put_be(w, static_cast<std::uint8_t>(r.active));
  put_be(w, bits<std::uint32_t>(r.ratio));
  put_be(w, bits<std::uint64_t>(r.value));
  for (auto d : r.dims) put_be(w, d);
  put_be(w, static_cast<std::uint16_t>(r.name.size()));
  for (char c : r.name) w.put(static_cast<std::uint8_t>(c));
}

// Reading: rd.take() gives the next byte, rd.take_slice(n) the next n bytes (no copy).
template <class U, class R> inline U get_be(R& rd) {
  U v = 0;
  for (unsigned i = 0; i < sizeof(U); ++i) v = static_cast<U>((v << 8) | rd.take());
  return v;
}

template <class R> inline void read(R& rd, Record& r) {
  r.id = get_be<std::uint32_t>(rd);
  r.kind = get_be<std::uint8_t>(rd);
  r.delta = static_cast<std::int16_t>(get_be<std::uint16_t>(rd));
  r.stamp = static_cast<std::int64_t>(get_be<std::uint64_t>(rd));
  r.active = get_be<std::uint8_t>(rd) != 0;
  r.ratio = bits<float>(get_be<std::uint32_t>(rd));
  r.value = bits<double>(get_be<std::uint64_t>(rd));
  for (auto& d : r.dims) d = get_be<std::uint16_t>(rd);
  std::size_t n = get_be<std::uint16_t>(rd);
  const std::uint8_t* p = rd.take_slice(n);
  r.name = std::string_view(reinterpret_cast<const char*>(p), n);
}

// A reader over a byte range (the file checked first, so no bounds checks).
struct SliceReader {
  const std::uint8_t* p;
  std::uint8_t take() { return *p++; }
  const std::uint8_t* take_slice(std::size_t n) { const std::uint8_t* s = p; p += n; return s; }
};

// --- the command line and the plain decoder ------------------------------------------------------
[[noreturn]] inline void fail(const std::string& msg, int status = 1) {
  std::fprintf(stderr, "serialize: %s\n", msg.c_str());
  std::exit(status);
}

constexpr std::size_t kHeader = 38;  // every field but the name's bytes

// The size of the valid record at data[pos..], or a one-line error naming what is wrong.
inline std::size_t check_record(const std::vector<std::uint8_t>& data, std::size_t pos, std::size_t index) {
  std::string at = "record " + std::to_string(index) + " at byte " + std::to_string(pos);
  std::size_t left = data.size() - pos;
  if (left < kHeader) fail(at + " is truncated: " + std::to_string(left) + " bytes left, a record needs 38");
  if (data[pos + 15] > 1) fail(at + ": bool byte " + std::to_string(data[pos + 15]) + " is neither 0 nor 1");
  std::size_t n = (data[pos + 36] << 8) | data[pos + 37];
  if (n > left - kHeader) fail(at + ": name of " + std::to_string(n) + " bytes runs past the end of the file");
  return kHeader + n;
}

struct Job {
  std::vector<std::uint8_t> data;
  std::vector<Record> records;  // names point into data
  std::uint64_t ops;
};

inline Job parse_args(int argc, char** argv) {
  if (argc != 3) fail(std::string("usage: ") + argv[0] + " FILE OPS", 2);
  Job job;
  char* end = nullptr;
  job.ops = std::strtoull(argv[2], &end, 10);
  if (*argv[2] == '\0' || *argv[2] == '-' || *end != '\0' || job.ops == 0)
    fail(std::string("OPS must be a positive integer, not '") + argv[2] + "'", 2);
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) fail(std::string("cannot open ") + argv[1] + ": " + std::strerror(errno));
  job.data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (job.data.empty()) fail("empty file: no records");
  for (std::size_t pos = 0; pos < job.data.size();) {
    std::size_t size = check_record(job.data, pos, job.records.size());
    SliceReader rd{job.data.data() + pos};
    Record r;
    read(rd, r);
    job.records.push_back(r);
    pos += size;
  }
  return job;
}

// Hides a value from the optimiser (so the work that made it cannot be dropped or the object behind
// a pointer assumed known) without costing an instruction or a memory operation.
template <class T> inline void launder(T& v) { asm("" : "+r"(v)); }

// --- consuming the results, timing, the result line -------------------------------------------------
struct SerSink {
  std::uint64_t bytes = 0, hash = 0xcbf29ce484222325ULL;
  unsigned x = 0;
  // The spec's length sum, XOR of out[n & 31] and FNV-1a 64 of every 64th output. The data pointer
  // goes through launder(): the bytes must really be in memory (no allocation or store elided).
  void consume(std::uint64_t n, const std::uint8_t* out, std::size_t len) {
    launder(out);
    bytes += len;
    x ^= out[n & 31];
    if (n % 64 == 0)
      for (std::size_t i = 0; i < len; ++i) hash = (hash ^ out[i]) * 0x100000001b3ULL;
  }
};

inline std::uint64_t fold(std::uint64_t checksum, const Record& r) {
  std::uint64_t s = std::uint64_t(r.id) + r.kind + std::uint64_t(std::int64_t(r.delta)) + std::uint64_t(r.stamp) +
                    r.active + bits<std::uint32_t>(r.ratio) + bits<std::uint64_t>(r.value) + r.dims[0] +
                    r.dims[1] + r.dims[2] + r.dims[3] + r.name.size();
  for (unsigned char c : r.name) s += c;
  return checksum * 1000003 + s;
}

using Clock = std::chrono::steady_clock;
inline long long ns_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

// The serializer benchmark: op n serializes record n mod K; `serialize(record, n, sink)` consumes it.
template <class F> int run_ser(int argc, char** argv, F serialize) {
  Job job = parse_args(argc, argv);
  SerSink sink;
  std::uint64_t before = g_new_bytes;
  auto t0 = Clock::now();
  std::size_t k = 0;
  for (std::uint64_t n = 0; n < job.ops; ++n) {
    serialize(job.records[k], n, sink);
    if (++k == job.records.size()) k = 0;
  }
  long long ns = ns_since(t0);
  double alloc = double(g_new_bytes - before) / job.ops;
  std::printf("serialized %" PRIu64 " records, %" PRIu64 " bytes in %.1f ms\n", job.ops, sink.bytes, ns / 1e6);
  std::fflush(stdout);
  std::fprintf(stderr,
               "iorace-result {\"answer\": {\"ops\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"xor\": %u, \"digest\": "
               "\"%016" PRIx64 "\"}, \"inner_ns\": %lld, \"extra\": {\"alloc_bytes_per_op\": %.2f}}\n",
               job.ops, sink.bytes, sink.x, sink.hash, ns, alloc);
  return 0;
}

inline void report_checksum(std::uint64_t ops, std::uint64_t checksum, long long ns, double alloc) {
  std::printf("%" PRIu64 " records, checksum %" PRIu64 " in %.1f ms\n", ops, checksum, ns / 1e6);
  std::fflush(stdout);
  std::fprintf(stderr,
               "iorace-result {\"answer\": {\"ops\": %" PRIu64 ", \"checksum\": %" PRIu64 "}, \"inner_ns\": %lld, "
               "\"extra\": {\"alloc_bytes_per_op\": %.2f}}\n",
               ops, checksum, ns, alloc);
}

// The deserializer benchmark: `deserialize(p, record)` decodes the record at p and returns the byte
// after it; after the last record, back to the start of the file.
template <class F> int run_deser(int argc, char** argv, F deserialize) {
  Job job = parse_args(argc, argv);
  const std::uint8_t* begin = job.data.data();
  const std::uint8_t* end = begin + job.data.size();
  std::uint64_t checksum = 0, before = g_new_bytes;
  auto t0 = Clock::now();
  const std::uint8_t* p = begin;
  for (std::uint64_t n = 0; n < job.ops; ++n) {
    if (p == end) p = begin;
    Record r;
    p = deserialize(p, r);
    checksum = fold(checksum, r);
  }
  long long ns = ns_since(t0);
  report_checksum(job.ops, checksum, ns, double(g_new_bytes - before) / job.ops);
  return 0;
}

}  // namespace ser
