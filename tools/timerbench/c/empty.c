/* Strategy: none - an empty program (one write of its result line) to time a harness's own cost with. */
#include <unistd.h>

int main(void) {
  static const char line[] = "iorace-result {\"answer\": 0}\n";
  return write(2, line, sizeof line - 1) == sizeof line - 1 ? 0 : 1;
}
