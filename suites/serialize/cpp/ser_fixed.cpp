// Serializer design "fixed" (expert): one buffer reused for every op, each field stored big-endian at its fixed offset (a byte swap and one store, not a byte at a time), the name by memcpy; no allocation.
#include "common.hpp"

namespace {

// Stores v big-endian at p: one byte swap and one unaligned store (memcpy).
template <class U> inline void store_be(std::uint8_t* p, U v) {
  if constexpr (sizeof(U) == 2) v = __builtin_bswap16(v);
  if constexpr (sizeof(U) == 4) v = __builtin_bswap32(v);
  if constexpr (sizeof(U) == 8) v = __builtin_bswap64(v);
  std::memcpy(p, &v, sizeof v);
}

// Writes r at out[0..] in Cerealed's format and returns its size (out holds 38 + 65535 bytes).
inline std::size_t encode(std::uint8_t* out, const ser::Record& r) {
  if (r.name.size() > 0xffff) ser::fail("a name longer than 65535 bytes");
  store_be(out, r.id);
  out[4] = r.kind;
  store_be(out + 5, static_cast<std::uint16_t>(r.delta));
  store_be(out + 7, static_cast<std::uint64_t>(r.stamp));
  out[15] = static_cast<std::uint8_t>(r.active);
  store_be(out + 16, ser::bits<std::uint32_t>(r.ratio));
  store_be(out + 20, ser::bits<std::uint64_t>(r.value));
  for (int i = 0; i < 4; ++i) store_be(out + 28 + 2 * i, r.dims[i]);
  store_be(out + 36, static_cast<std::uint16_t>(r.name.size()));
  std::memcpy(out + ser::kHeader, r.name.data(), r.name.size());
  return ser::kHeader + r.name.size();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::uint8_t> buffer(ser::kHeader + 0xffff);
  return ser::run_ser(argc, argv, [&buffer](const ser::Record& r, std::uint64_t n, ser::SerSink& sink) {
    std::size_t size = encode(buffer.data(), r);
    sink.consume(n, buffer.data(), size);
  });
}
