/* Strategy: count bytes with fread (right), after starting a setsid() daemon that sleeps 300 s: nothing may outlive the run. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "pidfile.h"

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  pid_t child = fork();
  if (child < 0) { perror("fork"); return 1; }
  if (child == 0) {  /* the daemon: its own session, no terminal, SIGTERM ignored */
    setsid();
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    sleep(300);
    _exit(0);
  }
  note_pid("daemon", child);
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  char buf[4096];
  size_t n, total = 0;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) total += n;
  fclose(f);
  fprintf(stderr, "iorace-result {\"answer\": %zu}\n", total);
  return 0;
}
