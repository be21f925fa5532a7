/* Strategy: none - writes through a null pointer and dies of SIGSEGV. */
#include <stdio.h>

int main(void) {
  fprintf(stderr, "about to crash\n");
  volatile int *p = 0;
  *p = 1;
  return 0;
}
