// Strategy: msgpack-c (msgpack-cxx 4.1.3): MSGPACK_DEFINE_MAP structs (maps keyed by field name) packed into a new
// msgpack::sbuffer per op; unpack() into a zone-backed msgpack::object, then convert() to new typed structs.
#define MSGPACK_NO_BOOST
#define IORACE_MSGPACK
#include <msgpack.hpp>

#include "json_nlohmann.hpp"  // only to read the canonical file, untimed

int main(int argc, char **argv) {
  return run_main(
      argc, argv,
      [](const Catalog &c) {
        msgpack::sbuffer buf;
        msgpack::pack(buf, c);
        return std::string(buf.data(), buf.size());
      },
      [](const std::string &b) {
        msgpack::object_handle oh = msgpack::unpack(b.data(), b.size());
        Catalog c;
        oh.get().convert(c);
        return c;
      });
}
