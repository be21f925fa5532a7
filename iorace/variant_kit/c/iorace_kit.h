/* iorace's variant kit for C and C++: the argument checks, the passes loop, the monotonic timer and the
 * result line of the variant protocol (docs/ARCHITECTURE.md), so that a variant is its loop.
 *
 *   #include "iorace_kit.h"
 *   static long long job(const struct iorace_job *job) { ... one pass over job->input ...; return answer; }
 *   int main(int argc, char **argv) { return iorace_run(argc, argv, job); }
 *
 * The program takes `FILE PASSES [PARAM...]`; job() runs PASSES times, each pass timed as one block, and every
 * pass must give the same answer (a pass the compiler dropped or cut short would not). Wire it in suite.toml
 * with `flags = "-I{kit}/c"` and `deps = ["{kit}/c"]` (what `iorace new` writes). */
#ifndef IORACE_KIT_H
#define IORACE_KIT_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct iorace_job {
  const char *input;   /* the input file */
  long passes;         /* how many times job() runs (the suite's work parameter) */
  int nparams;         /* the arguments after PASSES, as given */
  char **params;
};

/* One line on stderr naming the program, then exit 1: for bad input and failed I/O. */
static inline void iorace_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

/* fopen or fail with the reason, the usual first line of a job. */
static inline FILE *iorace_open(const char *path, const char *mode) {
  FILE *f = fopen(path, mode);
  if (!f) iorace_fail("cannot open %s: %s", path, strerror(errno));
  return f;
}

static inline long long iorace_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static inline int iorace_run(int argc, char **argv, long long (*job)(const struct iorace_job *)) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s FILE PASSES [PARAM...]\n", argv[0]);
    return 2;
  }
  char *end;
  errno = 0;
  long passes = strtol(argv[2], &end, 10);
  if (errno || *end || end == argv[2] || passes < 1) {
    fprintf(stderr, "error: PASSES must be a positive integer, not '%s'\n", argv[2]);
    return 2;
  }
  struct iorace_job j = {argv[1], passes, argc - 3, argv + 3};
  long long start = iorace_now_ns();
  long long answer = job(&j);
  for (long p = 1; p < passes; p++) {
    long long again = job(&j);
    if (again != answer) iorace_fail("pass %ld answered %lld, the first pass %lld", p + 1, again, answer);
  }
  long long inner = iorace_now_ns() - start;
  fprintf(stderr, "iorace-result {\"answer\": %lld, \"inner_ns\": %lld}\n", answer, inner);
  return 0;
}

#endif
