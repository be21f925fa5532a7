/* Shared by every C readbytes variant: the command line, timing, and the result line. */
#ifndef READBYTES_COMMON_H
#define READBYTES_COMMON_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct args {
  const char *path;
  int sum;     /* mode "sum": every byte value plus the count; "count": bytes delivered */
  long passes; /* the file is reopened for each pass */
};

static void usage_error(const char *msg) {
  fprintf(stderr, "readbytes: %s (usage: prog FILE count|sum PASSES)\n", msg);
  exit(2);
}

/* One line on stderr naming the file and the reason, then a non-zero exit. */
static void io_error(const char *what, const char *path) {
  fprintf(stderr, "readbytes: %s %s: %s\n", what, path, strerror(errno));
  exit(1);
}

static struct args parse_args(int argc, char **argv) {
  struct args a = {0};
  char *end;
  if (argc != 4) usage_error("expected 3 arguments");
  a.path = argv[1];
  if (strcmp(argv[2], "sum") == 0) a.sum = 1;
  else if (strcmp(argv[2], "count") != 0) usage_error("mode must be count or sum");
  a.passes = strtol(argv[3], &end, 10);
  if (*argv[3] == '\0' || *end != '\0' || a.passes < 1) usage_error("passes must be a positive integer");
  return a;
}

/* The application observes every byte it is handed: `acc = observe(acc, byte)` returns acc unchanged, but an
   empty asm tells the compiler that the new acc depends on the byte. So the byte must be loaded into a register
   and the loop cannot be folded (a count over an mmap into `end - begin`) or vectorised. The asm is not
   volatile and has no memory operand or clobber: it costs no instruction and no memory access, and clang, like
   gcc, keeps the reader's cursor in a register (a volatile asm makes clang assume it may read memory, so
   clang spilled and reloaded the cursor every byte). Its result must be used, or the compiler drops it. */
static inline uint64_t observe(uint64_t acc, int byte) {
  __asm__("" : "+r"(acc) : "r"(byte));
  return acc;
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A human line on stdout, the machine-readable iorace-result line last on stderr. */
static void report(const char *prog, const struct args *a, uint64_t answer, int64_t ns) {
  printf("%s(%s) %llu in %.1f ms\n", prog, a->sum ? "sum" : "count", (unsigned long long)answer, ns / 1e6);
  fprintf(stderr, "iorace-result {\"answer\": %llu, \"inner_ns\": %lld}\n", (unsigned long long)answer, (long long)ns);
}

#endif
