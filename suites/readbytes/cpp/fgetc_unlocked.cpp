// Strategy: fgetc_unlocked per byte: stdio's own buffer, without the per-call lock (original #3b).
#include <cstdio>

#include "common.hpp"

class FgetcUnlockedReader {
 public:
  explicit FgetcUnlockedReader(const char* path) : file_(std::fopen(path, "rb")) {
    if (!file_) readbytes::io_error("cannot open", path);
  }
  ~FgetcUnlockedReader() { std::fclose(file_); }

  int read() { return fgetc_unlocked(file_); }  // EOF is -1

 private:
  std::FILE* file_;
};

int main(int argc, char** argv) { return readbytes::run<FgetcUnlockedReader>(argc, argv); }
