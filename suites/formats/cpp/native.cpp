// Strategy: cereal 1.3.2's PortableBinaryArchive (Debian libcereal-dev) over the typed structs (serialize functions
// below, fields in schema order; u64 sizes, little-endian): saved into a new std::ostringstream; loaded from a
// stream over the bytes in place. cereal trusts sizes (vector::resize(n), string::resize(n) before reading) and
// bool bytes, so a flat walk first (on the clock) checks every size against the bytes left, every optional's flag
// is 0 or 1 and that the bytes end with the catalogue. C++'s own format, read only by this program: not in the
// interop matrix (README, "Native formats").
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <sstream>
#include <streambuf>

#include "json_nlohmann.hpp"  // only to read the canonical file, untimed

template <class A> void serialize(A &ar, Event &e) { ar(e.id, e.name, e.description, e.logo, e.subTopicIds, e.topicIds); }
template <class A> void serialize(A &ar, Price &p) { ar(p.amount, p.audienceSubCategoryId, p.seatCategoryId); }
template <class A> void serialize(A &ar, Area &a) { ar(a.areaId, a.blockIds); }
template <class A> void serialize(A &ar, SeatCategory &s) { ar(s.seatCategoryId, s.areas); }
template <class A> void serialize(A &ar, Performance &p) {
  ar(p.id, p.eventId, p.name, p.logo, p.start, p.venueCode, p.prices, p.seatCategories);
}
template <class A> void serialize(A &ar, Catalog &c) { ar(c.areaNames, c.events, c.performances, c.topicSubTopics, c.venueNames); }

// The archive's layout walked without allocating: a size past the bytes left, a flag neither 0 nor 1 or bytes
// after the catalogue are refused before cereal resizes anything.
struct Walk {
  const unsigned char *p, *end;
  bool swap = false;  // cereal byte-swaps when the first byte is not 1 (little-endian)

  void need(uint64_t n) const {
    if (n > static_cast<uint64_t>(end - p)) throw std::runtime_error("cereal: a size past the bytes left");
  }
  uint64_t u64() {
    need(8);
    uint64_t v;
    std::memcpy(&v, p, 8);
    p += 8;
    return swap ? __builtin_bswap64(v) : v;
  }
  void skip(uint64_t n) { need(n), p += n; }
  void str() { skip(u64()); }
  void opt() {
    need(1);
    unsigned char flag = *p++;  // nullopt
    if (flag > 1) throw std::runtime_error("cereal: an optional's flag neither 0 nor 1");
    if (flag == 0) str();
  }
  void ints() { uint64_t n = u64(); need(n > UINT64_MAX / 8 ? UINT64_MAX : n * 8), skip(n * 8); }
  template <class F> void each(F item) {
    for (uint64_t n = u64(); n > 0; n--) item();
  }
  void catalog() {
    need(1);
    swap = *p++ != 1;
    each([&] { str(), str(); });
    each([&] { str(), skip(8), str(), opt(), opt(), ints(), ints(); });
    each([&] {
      skip(16), opt(), opt(), skip(8), str();
      each([&] { skip(24); });
      each([&] { skip(8), each([&] { skip(8), ints(); }); });
    });
    each([&] { str(), ints(); });
    each([&] { str(), str(); });
    if (p != end) throw std::runtime_error("cereal: bytes left after the catalogue");
  }
};

struct InPlace : std::streambuf {
  InPlace(const std::string &b) {
    char *at = const_cast<char *>(b.data());  // read only: a get area
    setg(at, at, at + b.size());
  }
};

int main(int argc, char **argv) {
  return run_main(
      argc, argv,
      [](const Catalog &c) {
        std::ostringstream out;
        {
          cereal::PortableBinaryOutputArchive ar(out);
          ar(c);
        }
        return std::move(out).str();
      },
      [](const std::string &b) {
        Walk{reinterpret_cast<const unsigned char *>(b.data()), reinterpret_cast<const unsigned char *>(b.data()) + b.size()}
            .catalog();
        InPlace buf(b);
        std::istream in(&buf);
        cereal::PortableBinaryInputArchive ar(in);
        Catalog c;
        ar(c);
        return c;
      });
}
