/* Strategy: none - reports a problem on stderr and exits 3. */
#include <stdio.h>

int main(void) {
  fprintf(stderr, "exit-nonzero: the input is not what I expected\n");
  return 3;
}
