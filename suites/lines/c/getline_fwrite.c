// Strategy: POSIX getline() reads each line (with its '\n') into a growing malloc'd buffer; fwrite() to block-buffered stdout.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (in == NULL) {
        fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    /* getline returns the byte count, so embedded NULs and a last line without '\n' survive. */
    while ((len = getline(&line, &cap, in)) != -1) {
        if (fwrite(line, 1, (size_t)len, stdout) != (size_t)len) {
            fprintf(stderr, "write error: %s\n", strerror(errno));
            return 1;
        }
    }
    if (ferror(in)) {
        fprintf(stderr, "%s: read error\n", argv[1]);
        return 1;
    }
    free(line);
    fclose(in);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "write error: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
