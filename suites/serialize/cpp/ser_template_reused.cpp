// Serializer design "template, reused vector": the writer is a template parameter, one std::vector cleared per op (no allocation after the first).
#include "common.hpp"

struct VectorWriter {
  std::vector<std::uint8_t>& bytes;
  void put(std::uint8_t b) { bytes.push_back(b); }
};

int main(int argc, char** argv) {
  std::vector<std::uint8_t> buffer;
  return ser::run_ser(argc, argv, [&buffer](const ser::Record& r, std::uint64_t n, ser::SerSink& sink) {
    buffer.clear();
    VectorWriter w{buffer};
    ser::write(w, r);
    sink.consume(n, buffer.data(), buffer.size());
  });
}
