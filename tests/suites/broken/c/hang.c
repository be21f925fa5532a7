/* Strategy: none - forks a child, and both sleep forever (the timeout must kill the whole group). */
#include <signal.h>
#include <unistd.h>

#include "pidfile.h"

int main(void) {
  signal(SIGTERM, SIG_IGN);
  fork();
  note_pid("hang", getpid());
  for (;;) pause();
}
