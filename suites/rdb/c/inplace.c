/* mmap(2) the whole file and parse it in place: strings and compact blobs are pointers into the mapping, never copied; the CRC-64 from the file, caught up after a key once 64 KiB behind. */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SRC_IN_PLACE 1 /* rdbparse.h reads fields where they are in src_map; no src_read */

static const unsigned char *src_map;

static int src_open(const char *path, uint64_t *size) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) return -1;
    *size = (uint64_t)st.st_size;
    if (st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) return -1;
        madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
        src_map = p;
    }
    close(fd);
    return 0;
}

#include "rdbparse.h"
