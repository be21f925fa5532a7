// Deserializer design "virtual": Cerealed v0.4.1's classes in C++: a virtual per-byte take() on an abstract Reader over the file's bytes.
#include "common.hpp"

struct Reader {
  virtual ~Reader() = default;
  virtual std::uint8_t take() = 0;
  virtual const std::uint8_t* take_slice(std::size_t n) = 0;
};

struct SliceReader final : Reader {
  const std::uint8_t* p;
  explicit SliceReader(const std::uint8_t* p) : p(p) {}
  std::uint8_t take() override { return *p++; }
  const std::uint8_t* take_slice(std::size_t n) override {
    const std::uint8_t* s = p;
    p += n;
    return s;
  }
};

int main(int argc, char** argv) {
  return ser::run_deser(argc, argv, [](const std::uint8_t* p, ser::Record& r) {
    SliceReader sr(p);
    Reader* rd = &sr;
    ser::launder(rd);  // the code only knows a Reader: every take() is a virtual call
    ser::read(*rd, r);
    return sr.p;
  });
}
