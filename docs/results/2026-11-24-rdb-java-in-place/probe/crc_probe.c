/* Not a variant: `crc_probe MODE FILE` times C's CRC-64 functions of c/rdbparse.h over FILE (all but its last 8 bytes),
 * mapped as c/inplace maps it: MODE sliced (slicing-by-8, one chain: what C would do without PCLMULQDQ) or clmul
 * (crc64(), the parser's: PCLMULQDQ folding). Prints an iorace-result line like the suite's programs. */
#define main rdb_main
#define SRC_IN_PLACE 1
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
static const unsigned char *src_map;
static int src_open(const char *path, uint64_t *size) {
    (void)path;
    (void)size;
    return -1;
}
#include "../../../../suites/rdb/c/rdbparse.h"
#undef main

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    crc_init();
    int fd = open(argv[2], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 8) return 1;
    const uint8_t *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) return 1;
    size_t n = (size_t)st.st_size - 8;
    uint64_t crc = strcmp(argv[1], "sliced") == 0 ? crc64_sliced(0, p, n) : crc64(0, p, n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    fprintf(stderr, "iorace-result {\"answer\": {\"crc64\": \"%016llx\"}, \"inner_ns\": %lld}\n", (unsigned long long)crc, ns);
    return 0;
}
