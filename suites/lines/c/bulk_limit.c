// Strategy: LIMIT, not line by line: read(2) 128 KiB blocks and write(2) each block as it is (what a copy costs without looking at lines).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char buf[128 * 1024];

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
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
            return 1;
        }
        if (r == 0) break;
        for (ssize_t done = 0; done < r;) {
            ssize_t w = write(STDOUT_FILENO, buf + done, (size_t)(r - done));
            if (w < 0) {
                if (errno == EINTR) continue;
                fprintf(stderr, "write error: %s\n", strerror(errno));
                return 1;
            }
            done += w;
        }
    }
    close(fd);
    return 0;
}
