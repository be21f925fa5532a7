// Strategy: nlohmann/json 3.11.2 on any JSON file, no schema: parse() into a DOM, then the sizes of dump() (compact),
// to_msgpack() and to_cbor() of it, as nlohmann's own size table measures them (tests/src/unit-binary_formats.cpp).
// Not a cell (it has no catalogue, no clock and no digest): docs/results/2026-11-28-schemaless-sizes/sizes_check.py
// builds and runs it on the real corpus files. `nlohmann_sizes FILE` prints `format<TAB>bytes` lines.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "error: usage: %s FILE.json\n", argv[0]);
    return 2;
  }
  try {
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot open ") + argv[1]);
    const nlohmann::json j = nlohmann::json::parse(in);
    std::printf("json\t%zu\nmsgpack\t%zu\ncbor\t%zu\n", j.dump().size(), nlohmann::json::to_msgpack(j).size(),
                nlohmann::json::to_cbor(j).size());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
