// Strategy: plain fgetc per byte, locking the FILE each call: the seed's program as written (original #3; no observation barrier).
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

// The seed's reader: read() is fgetc on the FILE (EOF is -1).
class StdioFileReader {
 public:
  explicit StdioFileReader(std::string path) : file_(std::fopen(path.c_str(), "rb")) {
    if (!file_) fail("cannot open", path.c_str());
  }
  ~StdioFileReader() { std::fclose(file_); }

  int read() { return std::fgetc(file_); }

 private:
  std::FILE* file_;
};

// The seed's loop, count and sum built apart as its two binaries were: the first byte read before the loop,
// the next at its end, nothing tying the count to the bytes (cpp/fgetc is the honest cell).
template <bool Sum>
std::uint64_t read_bytes(const char* path, long passes) {
  std::uint64_t res = 0, sum = 0;
  for (long i = 0; i < passes; i++) {
    StdioFileReader r(path);
    int read = r.read();
    while (read != EOF) {
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
