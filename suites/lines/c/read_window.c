// Strategy: buffer window over read(2) (128 KiB reads, grows for long lines), memchr finds each line, lines are copied into a 128 KiB output buffer that goes out with one write(2) when full.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { READ_SIZE = 128 * 1024, OUT_SIZE = 128 * 1024 };

static char out[OUT_SIZE];
static size_t out_len;

static int write_all(const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int flush_out(void) {
    int rc = write_all(out, out_len);
    out_len = 0;
    return rc;
}

/* One line (with its '\n', if any) into the output buffer; a line longer than the buffer goes out directly. */
static int put_line(const char *p, size_t n) {
    if (out_len + n > OUT_SIZE) {
        if (flush_out() != 0) return -1;
        if (n > OUT_SIZE) return write_all(p, n);
    }
    memcpy(out + out_len, p, n);
    out_len += n;
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    size_t cap = 2 * READ_SIZE;
    char *buf = malloc(cap);
    size_t start = 0, end = 0; /* the window is buf[start, end) */
    size_t scanned = 0;        /* buf[start, scanned) holds no '\n' */
    int eof = 0;
    if (buf == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (;;) {
        char *nl = scanned < end ? memchr(buf + scanned, '\n', end - scanned) : NULL;
        if (nl != NULL) {
            size_t len = (size_t)(nl - (buf + start)) + 1;
            if (put_line(buf + start, len) != 0) goto write_error;
            start += len;
            scanned = start;
            continue;
        }
        scanned = end;
        if (eof) break;
        /* No '\n' left: move the partial line to the front, grow if a read would not fit. */
        if (start > 0) {
            memmove(buf, buf + start, end - start);
            end -= start;
            scanned -= start;
            start = 0;
        }
        if (cap - end < READ_SIZE) {
            cap *= 2;
            char *bigger = realloc(buf, cap);
            if (bigger == NULL) {
                fprintf(stderr, "out of memory\n");
                return 1;
            }
            buf = bigger;
        }
        ssize_t r = read(fd, buf + end, READ_SIZE);
        if (r < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
            return 1;
        }
        if (r == 0) eof = 1;
        end += (size_t)r;
    }
    /* A last line without '\n' is copied as it is. */
    if (put_line(buf + start, end - start) != 0 || flush_out() != 0) goto write_error;
    free(buf);
    close(fd);
    return 0;
write_error:
    fprintf(stderr, "write error: %s\n", strerror(errno));
    return 1;
}
