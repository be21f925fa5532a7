// Strategy: nlohmann/json 3.11.2's CBOR (to_cbor / from_cbor): typed structs to a json DOM (the JSON cell's
// to_json) then to_cbor into a new std::string; from_cbor to a DOM then get<Catalog>(). Maps are std::map in the
// DOM, so keys come out sorted by their bytes, not in schema order; ints in their shortest head.
#include "json_nlohmann.hpp"

int main(int argc, char **argv) {
  return run_main(
      argc, argv,
      [](const Catalog &c) {
        std::string out;
        json::to_cbor(json(c), out);
        return out;
      },
      [](const std::string &b) { return json::from_cbor(b).get<Catalog>(); });
}
