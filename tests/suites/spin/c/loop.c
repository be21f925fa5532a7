/* Strategy: a dependent chain of integer steps in registers (CPU time only: no memory, no I/O). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  long steps = atol(argv[2]);
  unsigned long x = 1;
  long done = 0;
  for (long i = 0; i < steps; i++) {
    x = x * 6364136223846793005UL + 1442695040888963407UL;
    done++;
    __asm__ volatile("" : "+r"(x), "+r"(done));  /* keep the chain: the compiler must not fold the loop */
  }
  fprintf(stderr, "iorace-result {\"answer\": %ld}\n", done + (long)(x & 0));
  return 0;
}
