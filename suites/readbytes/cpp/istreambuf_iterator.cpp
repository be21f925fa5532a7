// Strategy: std::istreambuf_iterator<char> over a binary std::ifstream, one byte per increment.
#include <fstream>
#include <iterator>

#include "common.hpp"

class IstreambufReader {
 public:
  explicit IstreambufReader(const char* path) : in_(path, std::ios::binary) {
    if (!in_) readbytes::io_error("cannot open", path);
    it_ = std::istreambuf_iterator<char>(in_);
  }

  int read() {
    if (it_ == end_) return -1;
    unsigned char c = static_cast<unsigned char>(*it_);
    ++it_;
    return c;
  }

 private:
  std::ifstream in_;
  std::istreambuf_iterator<char> it_;
  std::istreambuf_iterator<char> end_;
};

int main(int argc, char** argv) { return readbytes::run<IstreambufReader>(argc, argv); }
