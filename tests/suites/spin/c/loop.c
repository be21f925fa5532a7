/* Strategy: a dependent chain of integer steps in registers (CPU time only: no memory, no I/O). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* IORACE_SPIN_SLOWER=NAME:PERCENT makes the program named NAME do PERCENT% more steps than it counts: a
 * planted slowdown for the tests and studies of `compare` and `history` (the answer stays right). */
static long extra_steps(const char *name, long steps) {
  const char *s = getenv("IORACE_SPIN_SLOWER");
  size_t n = strlen(name);
  if (!s || strncmp(s, name, n) != 0 || s[n] != ':') return 0;
  return steps * atol(s + n + 1) / 100;
}

#ifndef SPIN_NAME
#define SPIN_NAME "loop"
#endif
#ifndef MULTIPLIES
#define MULTIPLIES 1
#endif

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  long steps = atol(argv[2]);
  long total = steps + extra_steps(SPIN_NAME, steps);
  unsigned long x = 1;
  long done = 0;
  for (long i = 0; i < total; i++) {
    for (int k = 0; k < MULTIPLIES; k++) x = x * 6364136223846793005UL + 1442695040888963407UL;
    done += i < steps;
    __asm__ volatile("" : "+r"(x), "+r"(done)); /* keep the chain: the compiler must not fold the loop */
  }
  fprintf(stderr, "iorace-result {\"answer\": %ld}\n", done);
  return 0;
}
