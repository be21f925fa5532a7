// Serializer design "virtual": Cerealed v0.4.1's classes in C++: a virtual per-byte put() on an abstract Writer, a new std::vector per op.
#include "common.hpp"

struct Writer {
  virtual ~Writer() = default;
  virtual void put(std::uint8_t b) = 0;
};

struct VectorWriter final : Writer {
  std::vector<std::uint8_t> bytes;
  void put(std::uint8_t b) override { bytes.push_back(b); }
};

int main(int argc, char** argv) {
  return ser::run_ser(argc, argv, [](const ser::Record& r, std::uint64_t n, ser::SerSink& sink) {
    VectorWriter vw;
    Writer* w = &vw;
    ser::launder(w);  // the code only knows a Writer: every put() is a virtual call
    ser::write(*w, r);
    sink.consume(n, vw.bytes.data(), vw.bytes.size());
  });
}
