/* mmap(2) the whole file read-only; each field is memcpy'd out of the mapping at a cursor. */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const unsigned char *src_map;
static size_t src_len, src_pos;

static int src_open(const char *path, uint64_t *size) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) return -1;
    src_len = (size_t)st.st_size;
    *size = (uint64_t)st.st_size;
    if (src_len > 0) {
        void *p = mmap(NULL, src_len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) return -1;
        madvise(p, src_len, MADV_SEQUENTIAL);
        src_map = p;
    }
    close(fd);
    return 0;
}

static int src_read(void *dst, size_t n) {
    if (n > src_len - src_pos) return 0;
    if (n) memcpy(dst, src_map + src_pos, n); /* an empty string's buffer may still be NULL: memcpy(NULL, .., 0) is UB */
    src_pos += n;
    return 1;
}

#include "rdbparse.h"
