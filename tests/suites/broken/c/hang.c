/* Strategy: none - forks a child, and both sleep forever (the timeout must kill the whole group). */
#include <signal.h>
#include <unistd.h>

int main(void) {
  signal(SIGTERM, SIG_IGN);
  fork();
  for (;;) pause();
}
