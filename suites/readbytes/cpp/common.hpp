// Shared by every C++ readbytes variant: the command line, the timed passes loop and the result line.
// A variant only supplies a Reader class whose read() returns the next byte (0..255) or -1 at end of file;
// every byte of every pass goes through that call, as in the original benchmark.
#pragma once

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace readbytes {

struct Args {
  const char* path;
  bool sum;    // mode "sum": every byte value plus the count; mode "count": bytes delivered
  long passes; // the file is reopened for each pass
};

[[noreturn]] inline void usage_error(const char* msg) {
  std::fprintf(stderr, "readbytes: %s (usage: prog FILE count|sum PASSES)\n", msg);
  std::exit(2);
}

// One line on stderr naming the file and the reason, then a non-zero exit.
[[noreturn]] inline void io_error(const char* what, const char* path) {
  std::fprintf(stderr, "readbytes: %s %s: %s\n", what, path, std::strerror(errno));
  std::exit(1);
}

inline Args parse_args(int argc, char** argv) {
  if (argc != 4) usage_error("expected 3 arguments");
  Args a{argv[1], false, 0};
  if (std::strcmp(argv[2], "sum") == 0) a.sum = true;
  else if (std::strcmp(argv[2], "count") != 0) usage_error("mode must be count or sum");
  char* end = nullptr;
  a.passes = std::strtol(argv[3], &end, 10);
  if (*argv[3] == '\0' || *end != '\0' || a.passes < 1) usage_error("passes must be a positive integer");
  return a;
}

// The application observes every byte it is handed: `acc = observe(acc, byte)` returns acc unchanged, but an
// empty asm tells the compiler that the new acc depends on the byte, so the byte must be loaded into a register
// and the loop can be neither folded nor vectorised: without it, g++ -O3 turns the count loop over mmap into
// `end - begin` (0.1 ms for 128 MB, the file never read) and vectorises the sum loop. The asm is not volatile
// and names no memory: it costs no instruction and no memory access under g++ and clang++ alike. (The former
// `asm volatile("" : : "r"(byte))` made clang++ assume the asm may read memory, so it spilled and reloaded the
// reader's cursor every byte: 7 instructions per byte for the mmap loop against g++'s 4.) Its result must be
// used, or the compiler may drop the asm.
inline std::uint64_t observe(std::uint64_t acc, int byte) {
  asm("" : "+r"(acc) : "r"(byte));
  return acc;
}

template <class Reader>
std::uint64_t consume(const Args& a) {
  std::uint64_t count = 0, sum = 0;
  for (long pass = 0; pass < a.passes; ++pass) {
    Reader r(a.path);
    int c;
    if (a.sum) {
      while ((c = r.read()) != -1) { sum += static_cast<unsigned>(c); count = observe(count + 1, c); }
    } else {
      while ((c = r.read()) != -1) { count = observe(count + 1, c); }
    }
  }
  return a.sum ? sum + count : count;
}

// Times the passes (the seed's figure) and prints the answer: a human line on stdout and the
// machine-readable iorace-result line last on stderr.
template <class Reader>
int run(int argc, char** argv) {
  Args a = parse_args(argc, argv);
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t answer = consume<Reader>(a);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s(%s) %llu in %.1f ms\n", argv[0], a.sum ? "sum" : "count", (unsigned long long)answer, ns / 1e6);
  std::fprintf(stderr, "iorace-result {\"answer\": %llu, \"inner_ns\": %lld}\n", (unsigned long long)answer,
               (long long)ns);
  return 0;
}

}  // namespace readbytes
