// Serializer design "template, new vector": the writer is a template parameter (put() inlined), a new std::vector per op (Cerealed v0.5.0's dynamic array).
#include "common.hpp"

struct VectorWriter {
  std::vector<std::uint8_t> bytes;
  void put(std::uint8_t b) { bytes.push_back(b); }
};

int main(int argc, char** argv) {
  return ser::run_ser(argc, argv, [](const ser::Record& r, std::uint64_t n, ser::SerSink& sink) {
    VectorWriter w;
    ser::write(w, r);
    sink.consume(n, w.bytes.data(), w.bytes.size());
  });
}
