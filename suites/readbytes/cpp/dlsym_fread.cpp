// Strategy: fread looked up at run time with dlopen("libc.so.6") + dlsym, own 1 KiB buffer (original #5).
#include <dlfcn.h>

#include <cstdio>

#include "common.hpp"

using FreadFn = size_t (*)(void*, size_t, size_t, std::FILE*);

static FreadFn load_fread() {
  void* libc = dlopen("libc.so.6", RTLD_LAZY);
  if (!libc) {
    std::fprintf(stderr, "readbytes: dlopen(libc.so.6) failed: %s\n", dlerror());
    std::exit(1);
  }
  void* sym = dlsym(libc, "fread");
  if (!sym) {
    std::fprintf(stderr, "readbytes: dlsym(fread) failed: %s\n", dlerror());
    std::exit(1);
  }
  return reinterpret_cast<FreadFn>(sym);
}

class DlsymFreadReader {
 public:
  explicit DlsymFreadReader(const char* path) : file_(std::fopen(path, "rb")) {
    if (!file_) readbytes::io_error("cannot open", path);
  }
  ~DlsymFreadReader() { std::fclose(file_); }

  int read() {
    if (next_ == end_ && !fill()) return -1;
    return *next_++;
  }

 private:
  bool fill() {
    static const FreadFn fread_fn = load_fread();
    size_t n = fread_fn(buffer_, 1, sizeof buffer_, file_);
    next_ = buffer_;
    end_ = buffer_ + n;
    return n != 0;
  }

  std::FILE* file_;
  unsigned char buffer_[1024];
  unsigned char* next_ = buffer_;
  unsigned char* end_ = buffer_;
};

int main(int argc, char** argv) { return readbytes::run<DlsymFreadReader>(argc, argv); }
