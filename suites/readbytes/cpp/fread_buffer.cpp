// Strategy: own 1 KiB buffer refilled by fread_unlocked; read() hands out one byte per call (original #1).
#include <cstdio>

#include "common.hpp"

class StdioFileReader {
 public:
  explicit StdioFileReader(const char* path) : file_(std::fopen(path, "rb")) {
    if (!file_) readbytes::io_error("cannot open", path);
  }
  ~StdioFileReader() { std::fclose(file_); }

  int read() {
    if (next_ == end_ && !fill()) return -1;
    return *next_++;
  }

 private:
  bool fill() {
    size_t n = fread_unlocked(buffer_, 1, sizeof buffer_, file_);
    next_ = buffer_;
    end_ = buffer_ + n;
    return n != 0;
  }

  std::FILE* file_;
  unsigned char buffer_[1024];
  unsigned char* next_ = buffer_;
  unsigned char* end_ = buffer_;
};

int main(int argc, char** argv) { return readbytes::run<StdioFileReader>(argc, argv); }
