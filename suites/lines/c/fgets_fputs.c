// Strategy: fgets() into a fixed 8 KiB buffer (longer lines arrive in pieces), fputs() each piece to block-buffered stdout; a NUL byte ends the string, so it cannot copy data containing NULs.
#include <errno.h>
#include <stdio.h>
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
    char line[8192];
    /* fgets stops after '\n' or when the buffer is full; fputs writes up to the first NUL:
       whatever follows a NUL byte on the same piece is lost (known limitation). */
    while (fgets(line, sizeof line, in) != NULL) {
        if (fputs(line, stdout) == EOF) {
            fprintf(stderr, "write error: %s\n", strerror(errno));
            return 1;
        }
    }
    if (ferror(in)) {
        fprintf(stderr, "%s: read error\n", argv[1]);
        return 1;
    }
    fclose(in);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "write error: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
