/* Strategy: count bytes with fread into a 4 KiB buffer (the control: always right). */
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  char buf[4096];
  size_t n, total = 0;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) total += n;
  fclose(f);
  fprintf(stderr, "iorace-result {\"answer\": %zu}\n", total);
  return 0;
}
