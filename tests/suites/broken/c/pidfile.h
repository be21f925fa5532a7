/* Shared by the variants that leave processes behind: note a pid where the test can find it. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

/* Append "pid\n" to the file named by IORACE_TEST_PIDFILE (if set), and say it on stderr. */
static void note_pid(const char *what, pid_t pid) {
  fprintf(stderr, "%s pid %ld\n", what, (long)pid);
  const char *path = getenv("IORACE_TEST_PIDFILE");
  if (!path) return;
  FILE *f = fopen(path, "a");
  if (!f) return;
  fprintf(f, "%ld\n", (long)pid);
  fclose(f);
}
