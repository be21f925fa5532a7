/* Strategy: none - a fixed amount of work (ITERATIONS steps over a 256 KiB table) to time a harness with. */
#include <stdio.h>
#include <stdlib.h>

static unsigned table[1 << 16];

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  long n = atol(argv[2]);
  unsigned x = 12345;
  for (unsigned i = 0; i < sizeof table / sizeof *table; i++) table[i] = i * 2654435761u;
  for (long i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    table[x >> 16] += x;
  }
  unsigned sum = 0;
  for (unsigned i = 0; i < sizeof table / sizeof *table; i++) sum ^= table[i];
  fprintf(stderr, "iorace-result {\"answer\": %d, \"extra\": {\"checksum\": %u}}\n", sum == 1u && x == 1u, sum);
  return 0;
}
