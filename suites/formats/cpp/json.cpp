// Strategy: nlohmann/json 3.11.2: typed structs to a json DOM (to_json) then dump(); parse() to a DOM then get<Catalog>().
#include "json_nlohmann.hpp"

int main(int argc, char **argv) {
  return run_main(
      argc, argv, [](const Catalog &c) { return json(c).dump(); },
      [](const std::string &b) { return json::parse(b).get<Catalog>(); });
}
