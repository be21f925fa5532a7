// Strategy: std::ifstream::get() per byte (an istream sentry is built on every call).
#include <fstream>

#include "common.hpp"

class IfstreamGetReader {
 public:
  explicit IfstreamGetReader(const char* path) : in_(path, std::ios::binary) {
    if (!in_) readbytes::io_error("cannot open", path);
  }

  int read() {
    std::ifstream::int_type c = in_.get();  // to_int_type: 0..255, or eof() == -1
    return c == std::ifstream::traits_type::eof() ? -1 : static_cast<int>(c);
  }

 private:
  std::ifstream in_;
};

int main(int argc, char** argv) { return readbytes::run<IfstreamGetReader>(argc, argv); }
