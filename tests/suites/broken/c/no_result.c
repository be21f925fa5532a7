/* Strategy: none - does the work but forgets the iorace-result line. */
#include <stdio.h>

int main(void) {
  fprintf(stderr, "done\n");
  return 0;
}
