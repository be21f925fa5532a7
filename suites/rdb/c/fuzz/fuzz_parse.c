/* Not a variant: a libFuzzer target for the C parser (rdbparse.h), built with clang -fsanitize=fuzzer,address,undefined. */
/*
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
 *       suites/rdb/c/fuzz/fuzz_parse.c -o fuzz_parse -lm
 *   ./fuzz_parse -max_len=65536 -detect_leaks=0 CORPUS_DIR SEED_DIR
 *
 * The parser reads from the fuzzer's buffer through the same src_open/src_read pair every
 * strategy file defines; its main() is renamed and unused. A rejected input (the parser's
 * fail(), a longjmp) is fine; a sanitizer report, a crash or a timeout is a finding.
 * Leak detection is off: the parser keeps its buffers in globals for the process's life and
 * its key buffer is left to exit(), which a program run once per file may do.
 * Every global of the parser's state must be reset between inputs (rdbparse.h's parse_reset(), which
 * must name every one): state left over from one input to the next made a false "timeout".
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const uint8_t *fz_data;
static size_t fz_len, fz_pos;

static int src_open(const char *path, uint64_t *size) {
    (void)path;
    *size = fz_len;
    return 0;
}

static int src_read(void *dst, size_t n) {
    if (n > fz_len - fz_pos) return 0;
    if (n) memcpy(dst, fz_data + fz_pos, n); /* as c/mmap.c: dst may be NULL when n is 0 */
    fz_pos += n;
    return 1;
}

#define main rdb_program_main
#include "../rdbparse.h"
#undef main

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    crc_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_data = data;
    fz_len = size;
    fz_pos = 0;
    uint64_t size64 = 0;
    src_open("", &size64);
    parse_reset(size64); /* the parser's state, as a fresh process starts it */
    if (setjmp(fail_jmp) == 0) parse();
    return 0;
}
