/* Strategy: read(2) straight into an own 64 KiB buffer (no stdio); reader_read() hands out one byte per call. */
#include <fcntl.h>
#include <unistd.h>

#include "common.h"

struct reader {
  int fd;
  unsigned char *next, *end;
  unsigned char buffer[1 << 16];
};

static void reader_open(struct reader *r, const char *path) {
  r->fd = open(path, O_RDONLY);
  if (r->fd < 0) io_error("cannot open", path);
  r->next = r->end = r->buffer;
}

static int reader_fill(struct reader *r) {
  ssize_t n;
  do n = read(r->fd, r->buffer, sizeof r->buffer); while (n < 0 && errno == EINTR);
  if (n < 0) io_error("cannot read", "input");
  r->next = r->buffer;
  r->end = r->buffer + n;
  return n > 0;
}

static inline int reader_read(struct reader *r) {
  if (r->next == r->end && !reader_fill(r)) return -1;
  return *r->next++;
}

int main(int argc, char **argv) {
  struct args a = parse_args(argc, argv);
  static struct reader r;
  uint64_t count = 0, sum = 0;
  int64_t t0 = now_ns();
  for (long pass = 0; pass < a.passes; ++pass) {
    int c;
    reader_open(&r, a.path);
    if (a.sum) {
      while ((c = reader_read(&r)) != -1) { sum += (unsigned)c; count = observe(count + 1, c); }
    } else {
      while ((c = reader_read(&r)) != -1) { count = observe(count + 1, c); }
    }
    close(r.fd);
  }
  report(argv[0], &a, a.sum ? sum + count : count, now_ns() - t0);
  return 0;
}
