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

/* The application observes every byte it is handed: the empty asm marks the value as used (no instruction),
   so the optimiser cannot collapse or vectorise the per-byte loop into a bulk operation. */
static inline void observe(int byte) { __asm__ volatile("" : : "r"(byte)); }

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
