/* One parse of the fuzzer's input through rdbparse.h, copied field by field or in place (the including file
 * defines SRC_IN_PLACE, FZ_PARSE and FZ_MAIN first); included by fuzz_parse.c and fuzz_inplace.c, one mode
 * each, as the parser's functions and state are static to the file that includes it. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const uint8_t *fz_data;
static size_t fz_len, fz_pos;

#if SRC_IN_PLACE
static const unsigned char *src_map; /* the parser reads the fuzzer's buffer where it is */
#else
static int src_read(void *dst, size_t n) {
    if (n > fz_len - fz_pos) return 0;
    if (n) memcpy(dst, fz_data + fz_pos, n); /* as c/mmap.c: dst may be NULL when n is 0 */
    fz_pos += n;
    return 1;
}
#endif

static int src_open(const char *path, uint64_t *size) {
    (void)path;
    *size = fz_len;
#if SRC_IN_PLACE
    src_map = fz_data;
#endif
    return 0;
}

#define main FZ_MAIN /* the program's main(), unused */
#include "../rdbparse.h"
#undef main

/* Parse data; 1 and the summary in out when accepted, 0 and the error line's offset and problem when not. */
int FZ_PARSE(const uint8_t *data, size_t size, char *out, size_t cap);
int FZ_PARSE(const uint8_t *data, size_t size, char *out, size_t cap) {
    static int ready;
    if (!ready) crc_init(), ready = 1;
    fz_data = data;
    fz_len = size;
    fz_pos = 0;
    uint64_t size64 = 0;
    src_open("", &size64);
    parse_reset(size64); /* the parser's state, as a fresh process starts it */
    if (setjmp(fail_jmp)) {
        snprintf(out, cap, "offset %" PRIu64 ": %s", fail_off, fail_msg);
        return 0;
    }
    parse();
    int o = snprintf(out, cap, "keys %" PRIu64 " expires %" PRIu64 " field_expires %" PRIu64 " module_aux %" PRIu64 " digest %016" PRIx64,
                     s_keys, s_expires, s_field_expires, s_module_aux, s_digest);
    for (int t = 0; t < 7; t++)
        if (o >= 0 && (size_t)o < cap) o += snprintf(out + o, cap - (size_t)o, " %s %" PRIu64, TYPE_NAMES[t], s_types[t]);
    for (size_t i = 0; i < s_ndb; i++) /* first-seen order: the same code orders both */
        if (o >= 0 && (size_t)o < cap) o += snprintf(out + o, cap - (size_t)o, " db%" PRIu64 " %" PRIu64, s_db_ids[i], s_db_keys[i]);
    return 1;
}
