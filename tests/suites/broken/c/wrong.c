/* Strategy: none - counts correctly, then answers one byte too many. */
#include <stdio.h>

int main(int argc, char **argv) {
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 1;
  size_t total = 0;
  while (fgetc(f) != EOF) total++;
  fprintf(stderr, "iorace-result {\"answer\": %zu}\n", total + 1);
  return 0;
}
