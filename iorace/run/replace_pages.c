/* iorace-replace-pages FILE...: give each file's page-cache copy new physical pages.
 *
 * Where a file's cached pages sit in physical memory stays fixed for a whole session once they are read,
 * and it moves timings (cache colouring, TLB reach, the host's backing under a VM: Hocko & Kalibera,
 * 2010). Measured once per session, that placement is a bias no number of rounds can average away.
 * Run as the first job of every round, this drops each input file's clean cached pages
 * (fdatasync, then posix_fadvise(POSIX_FADV_DONTNEED)) and reads the file back, so every round gets a
 * fresh placement and the rounds sample it. The reading happens before the round's timed runs, never
 * during them. Exit 0, or 1 with one line on stderr for a file it cannot open or read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int replace(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    fprintf(stderr, "iorace-replace-pages: %s: %s\n", path, strerror(errno));
    return 1;
  }
  fdatasync(fd); /* a dirty page cannot be dropped; the datasets are written once, so this is cheap */
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  static char buf[1 << 20];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      fprintf(stderr, "iorace-replace-pages: %s: %s\n", path, strerror(errno));
      close(fd);
      return 1;
    }
  }
  close(fd);
  return 0;
}

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; i++) status |= replace(argv[i]);
  return status;
}
