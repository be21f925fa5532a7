/* stdio: fopen + fread(buf, 1, n, f) per field, through the FILE's own buffer (the C programmer's default). */
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

static FILE *src_file;

static int src_open(const char *path, uint64_t *size) {
    src_file = fopen(path, "rb");
    if (!src_file) return -1;
    struct stat st;
    if (fstat(fileno(src_file), &st) != 0) return -1;
    *size = (uint64_t)st.st_size;
    return 0;
}

static int src_read(void *dst, size_t n) { return fread(dst, 1, n, src_file) == n; }

#include "rdbparse.h"
