/* iorace-spawn: start one program and report exactly what it cost, like GNU time does.
 *
 * Why a C launcher and not Python's fork: Linux carries the memory high-water
 * mark of the process that exec()s into the new program's ru_maxrss. Forked from
 * the ~100 MB Python harness, every variant would report >= 100 MB max RSS. This
 * launcher is tiny, so the program it forks and execs starts from a tiny mark.
 *
 * usage: iorace-spawn REPORT_FD PROGRAM [ARGS...]
 * Writes one line to REPORT_FD when the program has ended:
 *   wall_ns user_ns sys_ns max_rss_kb minflt majflt nvcsw nivcsw wait_status
 * and exits 0. stdin/stdout/stderr are passed through unchanged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tv_ns(struct timeval tv) { return (long long)tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL; }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: iorace-spawn REPORT_FD PROGRAM [ARGS...]\n");
    return 2;
  }
  int report_fd = atoi(argv[1]);
  FILE *report = fdopen(report_fd, "w");
  if (!report) {
    fprintf(stderr, "iorace-spawn: bad report fd %s: %s\n", argv[1], strerror(errno));
    return 2;
  }
  long long start = now_ns();
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "iorace-spawn: fork failed: %s\n", strerror(errno));
    return 2;
  }
  if (pid == 0) {
    close(report_fd);
    execvp(argv[2], argv + 2);
    fprintf(stderr, "iorace-spawn: cannot execute %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  int status;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) {
      fprintf(stderr, "iorace-spawn: wait4 failed: %s\n", strerror(errno));
      return 2;
    }
  }
  long long wall = now_ns() - start;
  fprintf(report, "%lld %lld %lld %ld %ld %ld %ld %ld %d\n", wall, tv_ns(ru.ru_utime), tv_ns(ru.ru_stime),
          ru.ru_maxrss, ru.ru_minflt, ru.ru_majflt, ru.ru_nvcsw, ru.ru_nivcsw, status);
  fclose(report);
  return 0;
}
