// Strategy: fread found with dlopen("libc.so.6") + dlsym, own 1 KiB buffer, read() per byte: the seed's program as written (original #5, no observation barrier).
#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "common.hpp"

// The seed checks with assert, which keeps its constructor small enough to inline; the error path here stays
// out of line for the same reason (an out-of-line constructor lets the reader escape, and clang++ then stores
// its cursor every byte).
[[noreturn]] __attribute__((noinline, cold)) static void fail(const char* what, const char* path) {
  readbytes::io_error(what, path);
}

// The seed's reader: each reader dlopens libc and looks fread up in its constructor and keeps the pointer in
// a member, declared as the seed declared it (returning int); a 1024-byte buffer, fill_buffer() says whether
// the file is finished. (The seed names /lib/x86_64-linux-gnu/libc.so.6; its table and this cell say libc.so.6.)
class StdioFileReader {
 public:
  explicit StdioFileReader(std::string path) : file_(std::fopen(path.c_str(), "rb")), next_(buffer_), end_(buffer_) {
    if (!file_) fail("cannot open", path.c_str());
    libc_ = dlopen("libc.so.6", RTLD_LAZY);
    if (!libc_) {
      std::fprintf(stderr, "readbytes: dlopen(libc.so.6) failed: %s\n", dlerror());
      std::exit(1);
    }
    read_ = reinterpret_cast<int (*)(void*, size_t, size_t, std::FILE*)>(dlsym(libc_, "fread"));
    if (!read_) {
      std::fprintf(stderr, "readbytes: dlsym(fread) failed: %s\n", dlerror());
      std::exit(1);
    }
  }
  ~StdioFileReader() { std::fclose(file_); }

  int read() {
    bool finished = next_ == end_;
    if (finished) {
      finished = fill_buffer();
      if (finished) return -1;
    }
    return *next_++;
  }

 private:
  static const size_t kBufferSize = 1024;

  bool fill_buffer() {
    size_t l = read_(buffer_, 1, kBufferSize, file_);
    next_ = buffer_;
    end_ = next_ + l;
    return l == 0;
  }

  std::FILE* file_;
  unsigned char buffer_[kBufferSize];
  unsigned char* next_;
  unsigned char* end_;
  void* libc_;
  int (*read_)(void*, size_t, size_t, std::FILE*);
};

// The seed's loop, count and sum built apart as its two binaries were: the first byte read before the loop,
// the next at its end, nothing tying the count to the bytes (cpp/dlsym-fread is the honest cell).
template <bool Sum>
std::uint64_t read_bytes(const char* path, long passes) {
  std::uint64_t res = 0, sum = 0;
  for (long i = 0; i < passes; i++) {
    StdioFileReader r(path);
    int read = r.read();
    while (read != -1) {
      ++res;
      if (Sum) sum += read;
      read = r.read();
    }
  }
  return Sum ? res + sum : res;
}

int main(int argc, char** argv) {
  readbytes::Args a = readbytes::parse_args(argc, argv);
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t answer = a.sum ? read_bytes<true>(a.path, a.passes) : read_bytes<false>(a.path, a.passes);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s(%s) %llu in %.1f ms\n", argv[0], a.sum ? "sum" : "count", (unsigned long long)answer, ns / 1e6);
  std::fprintf(stderr, "iorace-result {\"answer\": %llu, \"inner_ns\": %lld}\n", (unsigned long long)answer,
               (long long)ns);
  return 0;
}
