// Strategy: the seed's mmap program as written (original #2): the same reader, its count and sum loops with no observation barrier, so today's compilers may fold them.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

#include "common.hpp"

// The reader of cpp/mmap.cpp: a pointer walked through the mapping.
class MmapReader {
 public:
  explicit MmapReader(const char* path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) readbytes::io_error("cannot open", path);
    struct stat st;
    if (fstat(fd, &st) != 0) readbytes::io_error("cannot stat", path);
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) {
      void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) readbytes::io_error("cannot mmap", path);
      base_ = static_cast<const unsigned char*>(p);
    }
    close(fd);
    next_ = base_;
    end_ = base_ + size_;
  }
  ~MmapReader() {
    if (base_) munmap(const_cast<unsigned char*>(base_), size_);
  }

  int read() { return next_ != end_ ? *next_++ : -1; }

 private:
  const unsigned char* base_ = nullptr;
  size_t size_ = 0;
  const unsigned char* next_;
  const unsigned char* end_;
};

// The seed's loops: `while (r.read() != -1) ++count;` and `sum += c` - nothing ties the count to the bytes, so
// g++ and clang++ -O3 turn the count into end - begin (the file is never read) and vectorise the sum. This is
// the seed's program measured as it stands today, not a measure of reading (cpp/mmap is that, with the barrier).
int main(int argc, char** argv) {
  readbytes::Args a = readbytes::parse_args(argc, argv);
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t count = 0, sum = 0;
  for (long pass = 0; pass < a.passes; ++pass) {
    MmapReader r(a.path);
    int c;
    if (a.sum) {
      while ((c = r.read()) != -1) { sum += static_cast<unsigned>(c); ++count; }
    } else {
      while (r.read() != -1) ++count;
    }
  }
  std::uint64_t answer = a.sum ? sum + count : count;
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s(%s) %llu in %.1f ms\n", argv[0], a.sum ? "sum" : "count", (unsigned long long)answer, ns / 1e6);
  std::fprintf(stderr, "iorace-result {\"answer\": %llu, \"inner_ns\": %lld}\n", (unsigned long long)answer,
               (long long)ns);
  return 0;
}
