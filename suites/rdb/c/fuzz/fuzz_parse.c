/* Not a variant: a libFuzzer target for the C parser (rdbparse.h), built with clang -fsanitize=fuzzer,address,undefined. */
/*
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
 *       suites/rdb/c/fuzz/fuzz_parse.c suites/rdb/c/fuzz/fuzz_inplace.c -o fuzz_parse -lm
 *   ./fuzz_parse -max_len=65536 -detect_leaks=0 CORPUS_DIR SEED_DIR
 *
 * Each input is parsed both ways, as the C strategies build the parser: copied field by field through
 * a src_read over the fuzzer's buffer (c/fread, c/mmap; this file), and in place in that buffer
 * (c/inplace; fuzz_inplace.c). Both must give the same verdict, and the same summary when they accept
 * (the same error line when they refuse): a disagreement aborts, as does a sanitizer report, a crash or
 * a timeout. A rejected input (the parser's fail(), a longjmp) is fine.
 * Leak detection is off: the parser keeps its buffers in globals for the process's life and
 * its key buffer is left to exit(), which a program run once per file may do.
 * Every global of the parser's state must be reset between inputs (rdbparse.h's parse_reset(), which
 * must name every one): state left over from one input to the next made a false "timeout".
 */
#include <stdlib.h>

#define SRC_IN_PLACE 0
#define FZ_PARSE fz_parse_copied
#define FZ_MAIN rdb_main_copied
#include "fuzz_one.h"

int fz_parse_in_place(const uint8_t *data, size_t size, char *out, size_t cap); /* fuzz_inplace.c */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char copied[8192], in_place[8192];
    int a = fz_parse_copied(data, size, copied, sizeof copied);
    int b = fz_parse_in_place(data, size, in_place, sizeof in_place);
    if (a != b || strcmp(copied, in_place) != 0) {
        fprintf(stderr, "copied and in-place parses disagree:\n  copied:   %s\n  in place: %s\n", copied, in_place);
        abort();
    }
    return 0;
}
