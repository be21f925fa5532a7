// Deserializer design "template": the reader is a template parameter over the file's bytes (take() inlined), no allocation.
#include "common.hpp"

int main(int argc, char** argv) {
  return ser::run_deser(argc, argv, [](const std::uint8_t* p, ser::Record& r) {
    ser::SliceReader rd{p};
    ser::read(rd, r);
    return rd.p;
  });
}
