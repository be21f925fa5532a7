// Strategy: nlohmann/json 3.11.2's CBOR (to_cbor / from_cbor): typed structs to a json DOM (the JSON cell's
// to_json) then to_cbor into a new std::string; a flat walk of the bytes that refuses nesting past 256 levels (and a
// container counting more items than the bytes left), then from_cbor to a DOM and get<Catalog>(). from_cbor
// recurses once per level with no limit of its own: 100,000 nested one-item arrays overflow the stack (the mutant
// run, under ASan). Maps are std::map in the DOM, so keys come out sorted by their bytes, not in schema order.
#include <cstdint>
#include <string>
#include <vector>

#include "json_nlohmann.hpp"

constexpr size_t kMaxDepth = 256;  // ciborium's default limit; the catalogue is 6 deep
constexpr uint64_t kIndefinite = UINT64_MAX;

// Walks the items flat, with a stack of the items each open container still holds; anything it cannot read (a
// reserved head, a string or an argument cut short) it leaves to from_cbor's own error.
static void check_nesting(const std::string &b) {
  std::vector<uint64_t> left;
  size_t i = 0;
  while (i < b.size()) {
    const size_t at = i;
    const uint8_t c = static_cast<uint8_t>(b[i++]);
    const unsigned major = c >> 5, info = c & 31;
    if (c == 0xff) {  // a break: ends the innermost indefinite container, itself an item of its parent
      if (left.empty() || left.back() != kIndefinite) return;
      left.pop_back();
    } else if (info == 31) {  // an indefinite string, array or map: its items (a string's chunks) until a break
      if (major < 2 || major > 5) return;
      left.push_back(kIndefinite);
      if (left.size() > kMaxDepth) throw std::runtime_error("cbor: nested deeper than 256 levels at offset " + std::to_string(at));
      continue;
    } else {
      uint64_t n = info;
      if (info >= 28) return;
      if (info >= 24) {
        const size_t w = size_t{1} << (info - 24);
        if (b.size() - i < w) return;
        n = 0;
        for (size_t k = 0; k < w; k++) n = n << 8 | static_cast<uint8_t>(b[i++]);
      }
      if (major == 2 || major == 3) {
        if (n > b.size() - i) return;
        i += n;
      } else if (major == 4 || major == 5) {
        if (n > b.size() - i)
          throw std::runtime_error("cbor: a container of " + std::to_string(n) + " items at offset " + std::to_string(at) +
                                   ", more than the " + std::to_string(b.size() - i) + " bytes left");
        if (n > 0) {
          left.push_back(major == 5 ? 2 * n : n);
          if (left.size() > kMaxDepth) throw std::runtime_error("cbor: nested deeper than 256 levels at offset " + std::to_string(at));
          continue;
        }
      } else if (major == 6) {
        continue;  // a tag: the item it tags follows (from_cbor refuses tags: its default handler)
      }
    }
    // an item is whole: its container holds one fewer, and a container that holds none is whole in its turn
    while (!left.empty() && left.back() != kIndefinite) {
      if (--left.back() > 0) break;
      left.pop_back();
    }
  }
}

int main(int argc, char **argv) {
  return run_main(
      argc, argv,
      [](const Catalog &c) {
        std::string out;
        json::to_cbor(json(c), out);
        return out;
      },
      [](const std::string &b) {
        check_nesting(b);
        return json::from_cbor(b).get<Catalog>();
      });
}
