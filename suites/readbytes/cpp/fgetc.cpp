// Strategy: plain fgetc per byte; the FILE is locked and unlocked on every call (original #3).
#include <cstdio>

#include "common.hpp"

class FgetcReader {
 public:
  explicit FgetcReader(const char* path) : file_(std::fopen(path, "rb")) {
    if (!file_) readbytes::io_error("cannot open", path);
  }
  ~FgetcReader() { std::fclose(file_); }

  int read() { return std::fgetc(file_); }  // EOF is -1

 private:
  std::FILE* file_;
};

int main(int argc, char** argv) { return readbytes::run<FgetcReader>(argc, argv); }
