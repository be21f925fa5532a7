/* The RDB parser shared by the C programs; the including file defines src_open() and src_read() (its read strategy). */
/*
 * Include this after defining:
 *   static int src_open(const char *path, uint64_t *size);   0 on success (errno set otherwise)
 *   static int src_read(void *dst, size_t n);                1 when all n bytes were read
 * or, for a strategy that parses the file in place (c/inplace.c), instead of src_read:
 *   #define SRC_IN_PLACE 1
 *   static const unsigned char *src_map;                     the whole file, set by src_open
 * It provides main(): `prog FILE`, summary as in ../README.md.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* In-place strategies (c/inplace) define SRC_IN_PLACE 1 and map the whole file at `src_map` (`g_size` bytes)
 * instead of defining src_read: the parser then reads fields where they are (strings and compact blobs are
 * pointers into the mapping, never copied) and checks the trailer's CRC-64 from the file itself, catching up
 * after a key once 64 KiB behind, instead of piece by piece as each field is read. A constant, so each
 * program keeps only its own read path (as rust/src/lib.rs's Source::IN_PLACE). */
#ifndef SRC_IN_PLACE
#define SRC_IN_PLACE 0
#endif

/* ---- RDB type codes and opcodes: Redis's own names (src/rdb.h) ---- */
enum {
    RDB_TYPE_STRING = 0,
    RDB_TYPE_LIST = 1,
    RDB_TYPE_SET = 2,
    RDB_TYPE_ZSET = 3,
    RDB_TYPE_HASH = 4,
    RDB_TYPE_ZSET_2 = 5,         /* binary double scores */
    RDB_TYPE_MODULE_PRE_GA = 6,  /* 4.0 release candidates: not skippable */
    RDB_TYPE_MODULE_2 = 7,       /* annotated module value: skippable */
    RDB_TYPE_HASH_ZIPMAP = 9,
    RDB_TYPE_LIST_ZIPLIST = 10,
    RDB_TYPE_SET_INTSET = 11,
    RDB_TYPE_ZSET_ZIPLIST = 12,
    RDB_TYPE_HASH_ZIPLIST = 13,
    RDB_TYPE_LIST_QUICKLIST = 14,
    RDB_TYPE_STREAM_LISTPACKS = 15,
    RDB_TYPE_HASH_LISTPACK = 16,
    RDB_TYPE_ZSET_LISTPACK = 17,
    RDB_TYPE_LIST_QUICKLIST_2 = 18,
    RDB_TYPE_STREAM_LISTPACKS_2 = 19,
    RDB_TYPE_SET_LISTPACK = 20,
    RDB_TYPE_STREAM_LISTPACKS_3 = 21,
    RDB_TYPE_HASH_METADATA_PRE_GA = 22,    /* field TTLs, absolute (7.4 release candidates) */
    RDB_TYPE_HASH_LISTPACK_EX_PRE_GA = 23, /* listpack with field TTLs (7.4 release candidates) */
    RDB_TYPE_HASH_METADATA = 24,           /* field TTLs relative to a min expire */
    RDB_TYPE_HASH_LISTPACK_EX = 25,        /* listpack with field TTLs, after a min expire */

    RDB_OPCODE_SLOT_INFO = 244,
    RDB_OPCODE_FUNCTION2 = 245,
    RDB_OPCODE_FUNCTION_PRE_GA = 246,
    RDB_OPCODE_MODULE_AUX = 247,
    RDB_OPCODE_IDLE = 248,
    RDB_OPCODE_FREQ = 249,
    RDB_OPCODE_AUX = 250,
    RDB_OPCODE_RESIZEDB = 251,
    RDB_OPCODE_EXPIRETIME_MS = 252,
    RDB_OPCODE_EXPIRETIME = 253,
    RDB_OPCODE_SELECTDB = 254,
    RDB_OPCODE_EOF = 255,

    RDB_MODULE_OPCODE_EOF = 0,
    RDB_MODULE_OPCODE_SINT = 1,
    RDB_MODULE_OPCODE_UINT = 2,
    RDB_MODULE_OPCODE_FLOAT = 3,
    RDB_MODULE_OPCODE_DOUBLE = 4,
    RDB_MODULE_OPCODE_STRING = 5,

    RDB_ENC_INT8 = 0,
    RDB_ENC_INT16 = 1,
    RDB_ENC_INT32 = 2,
    RDB_ENC_LZF = 3,

    QUICKLIST_NODE_CONTAINER_PLAIN = 1,
    QUICKLIST_NODE_CONTAINER_PACKED = 2,

    MAX_VERSION = 12,
};
#define EB_EXPIRE_TIME_MAX ((1ULL << 48) - 1) /* the largest field expiry Redis accepts (ms) */

/* ---- errors: one line, the offset and the problem ---- */
static jmp_buf fail_jmp;
static char fail_msg[512];
static uint64_t fail_off;

__attribute__((noreturn, format(printf, 2, 3))) static void fail(uint64_t off, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fail_msg, sizeof fail_msg, fmt, ap);
    va_end(ap);
    fail_off = off;
    longjmp(fail_jmp, 1);
}

/* Raw file bytes for an error message: printable ASCII kept, quote and backslash escaped, every other byte
 * as \xNN, so a message stays one line and cannot plant an iorace-result line. At most 32 input bytes. */
static const char *esc(const uint8_t *p, size_t n) {
    static char out[4 * 32 + 8];
    size_t o = 0;
    if (n > 32) n = 32;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            out[o++] = (char)c;
        } else {
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", c);
        }
    }
    out[o] = 0;
    return out;
}

/* ---- CRC-64/Jones, reflected: slicing-by-8 for short pieces, carry-less multiplication for long ones ---- */
static uint64_t crc_tab[8][256];
static int crc_clmul; /* the CPU has PCLMULQDQ (x86-64): crc64() folds long data with it */

static void crc_init(void) {
    for (int i = 0; i < 256; i++) {
        uint64_t c = (uint64_t)i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x95AC9329AC4BC9B5ULL : c >> 1;
        crc_tab[0][i] = c;
    }
    for (int j = 1; j < 8; j++)
        for (int i = 0; i < 256; i++) crc_tab[j][i] = (crc_tab[j - 1][i] >> 8) ^ crc_tab[0][crc_tab[j - 1][i] & 0xFF];
#if defined(__x86_64__)
    crc_clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
#endif
}

static uint64_t crc64_sliced(uint64_t crc, const uint8_t *p, size_t n) {
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8); /* little-endian host */
        crc ^= w;
        crc = crc_tab[7][crc & 0xFF] ^ crc_tab[6][(crc >> 8) & 0xFF] ^ crc_tab[5][(crc >> 16) & 0xFF] ^
              crc_tab[4][(crc >> 24) & 0xFF] ^ crc_tab[3][(crc >> 32) & 0xFF] ^ crc_tab[2][(crc >> 40) & 0xFF] ^
              crc_tab[1][(crc >> 48) & 0xFF] ^ crc_tab[0][crc >> 56];
        p += 8;
        n -= 8;
    }
    while (n--) crc = crc_tab[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__)
#include <immintrin.h>
/* x (128 bits of the message, as loaded little-endian) times x^D mod P, as 128 bits to xor into the data D bits on:
 * k's low half is x^(D+63) mod P, its high half x^(D-1) mod P, both bit-reflected (scripts: see crc64_clmul). */
#define CLMUL_FOLD(x, k) _mm_xor_si128(_mm_clmulepi64_si128((x), (k), 0x00), _mm_clmulepi64_si128((x), (k), 0x11))

/* CRC-64 of n >= 16 bytes by folding (Intel's "Fast CRC computation for generic polynomials using PCLMULQDQ"):
 * four 128-bit lanes 512 bits apart, then one, then the last 128-bit remainder and the tail through the table.
 * The initial crc is xored into the first 8 bytes, as the table step does; the folded remainder is congruent
 * to the message mod P, so the table finishes it from crc 0 (no Barrett reduction). Constants: x^575, x^511,
 * x^191, x^127 mod P (Jones, P = 0xad93d23594c935a9 + x^64), bit-reflected. Held to crc64_sliced by the tests. */
__attribute__((target("pclmul,sse4.1"))) static uint64_t crc64_clmul(uint64_t crc, const uint8_t *p, size_t n) {
    const __m128i k128 = _mm_set_epi64x((long long)0x381d0015c96f4444ULL, (long long)0xd9d7be7d505da32cULL);
    const __m128i k512 = _mm_set_epi64x((long long)0xf49784a634f014e4ULL, (long long)0xaf86efb16d9ab4fbULL);
    __m128i x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi64_si128((long long)crc));
    p += 16, n -= 16;
    if (n >= 48) {
        __m128i x1 = _mm_loadu_si128((const __m128i *)p), x2 = _mm_loadu_si128((const __m128i *)(p + 16)),
                x3 = _mm_loadu_si128((const __m128i *)(p + 32));
        p += 48, n -= 48;
        for (; n >= 64; p += 64, n -= 64) {
            x0 = _mm_xor_si128(CLMUL_FOLD(x0, k512), _mm_loadu_si128((const __m128i *)p));
            x1 = _mm_xor_si128(CLMUL_FOLD(x1, k512), _mm_loadu_si128((const __m128i *)(p + 16)));
            x2 = _mm_xor_si128(CLMUL_FOLD(x2, k512), _mm_loadu_si128((const __m128i *)(p + 32)));
            x3 = _mm_xor_si128(CLMUL_FOLD(x3, k512), _mm_loadu_si128((const __m128i *)(p + 48)));
        }
        x0 = _mm_xor_si128(CLMUL_FOLD(x0, k128), x1);
        x0 = _mm_xor_si128(CLMUL_FOLD(x0, k128), x2);
        x0 = _mm_xor_si128(CLMUL_FOLD(x0, k128), x3);
    }
    for (; n >= 16; p += 16, n -= 16) x0 = _mm_xor_si128(CLMUL_FOLD(x0, k128), _mm_loadu_si128((const __m128i *)p));
    uint8_t rest[16];
    _mm_storeu_si128((__m128i *)rest, x0);
    return crc64_sliced(crc64_sliced(0, rest, 16), p, n);
}
#endif

/* Pieces under 64 bytes (the streaming parsers' many small reads) take the table; longer ones are folded. */
static inline uint64_t crc64(uint64_t crc, const uint8_t *p, size_t n) {
#if defined(__x86_64__)
    if (n >= 64 && crc_clmul) return crc64_clmul(crc, p, n);
#endif
    return crc64_sliced(crc, p, n);
}

static uint64_t g_pos, g_size, g_crc; /* read position, file size, CRC so far */

/* ---- growable byte buffer ---- */
typedef struct {
    uint8_t *p;
    size_t len, cap;
} buf_t;

/* Every buffer keeps BUF_SLACK bytes past what it is asked for, so that a field of up to 32 bytes at its start
 * can enter the digest with one fixed-size copy (field_in). */
#define BUF_SLACK 32

__attribute__((noinline)) static void buf_grow(buf_t *b, size_t n) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < n + BUF_SLACK) cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) fail(g_pos, "out of memory (%zu bytes)", n);
    b->p = p;
    b->cap = cap;
}

static inline void buf_reserve(buf_t *b, size_t n) {
    if (n + BUF_SLACK > b->cap) buf_grow(b, n);
}

/* ---- the summary ---- */
static const char *TYPE_NAMES[7] = {"string", "list", "set", "zset", "hash", "stream", "module"};
enum { T_STRING, T_LIST, T_SET, T_ZSET, T_HASH, T_STREAM, T_MODULE };
static uint64_t s_keys, s_expires, s_types[7], s_field_expires, s_module_aux, s_digest;
/* keys per database: ids and counts in first-seen order, found through an open-addressing hash table */
static uint64_t *s_db_ids, *s_db_keys;
static size_t s_ndb, s_capdb;
static size_t *s_db_slot; /* index + 1 into s_db_ids, 0 = empty; s_capdb * 2 slots */

static size_t db_hash(uint64_t db, size_t mask) { return (size_t)((db * 0x9E3779B97F4A7C15ULL) >> 32) & mask; }

static uint64_t *db_counter(uint64_t db) {
    size_t mask = 2 * s_capdb - 1, h = s_capdb ? db_hash(db, mask) : 0;
    if (s_capdb)
        for (; s_db_slot[h]; h = (h + 1) & mask)
            if (s_db_ids[s_db_slot[h] - 1] == db) return &s_db_keys[s_db_slot[h] - 1];
    if (s_ndb == s_capdb) { /* grow (load factor 1/2) and rehash */
        s_capdb = s_capdb ? 2 * s_capdb : 16;
        s_db_ids = realloc(s_db_ids, s_capdb * 8);
        s_db_keys = realloc(s_db_keys, s_capdb * 8);
        free(s_db_slot);
        s_db_slot = calloc(2 * s_capdb, sizeof *s_db_slot);
        if (!s_db_ids || !s_db_keys || !s_db_slot) fail(0, "out of memory");
        mask = 2 * s_capdb - 1;
        for (size_t i = 0; i < s_ndb; i++) {
            size_t k = db_hash(s_db_ids[i], mask);
            while (s_db_slot[k]) k = (k + 1) & mask;
            s_db_slot[k] = i + 1;
        }
        h = db_hash(db, mask);
        while (s_db_slot[h]) h = (h + 1) & mask;
    }
    s_db_ids[s_ndb] = db;
    s_db_keys[s_ndb] = 0;
    s_db_slot[h] = ++s_ndb;
    return &s_db_keys[s_ndb - 1];
}

/* The digest: CRC-64 over length-prefixed fields. The fields (a 4-byte length and mostly short bytes) are staged
 * in a 4 KiB buffer and hashed in one crc64() call when it fills, not a table step per byte; a field of up to
 * 32 bytes is staged without asking whether it fits (the stage has room past DG_STAGE). */
#define DG_STAGE 4096
static uint8_t dg_stage[DG_STAGE + 64];
static size_t dg_n; /* bytes staged, below DG_STAGE between calls */
static uint64_t dg_crc;

__attribute__((noinline)) static void dg_flush(void) {
    dg_crc = crc64(dg_crc, dg_stage, dg_n);
    dg_n = 0;
}

static inline void dg_advance(size_t n) {
    dg_n = n;
    if (n >= DG_STAGE) dg_flush();
}

/* The digest's value: everything staged so far included. */
static uint64_t dg_value(void) { return crc64(dg_crc, dg_stage, dg_n); }

/* Bytes of any length into the digest. */
__attribute__((noinline)) static void dg_update(const uint8_t *p, size_t n) {
    if (n <= DG_STAGE - dg_n) {
        memcpy(dg_stage + dg_n, p, n);
        dg_advance(dg_n + n);
        return;
    }
    dg_flush();
    if (n >= DG_STAGE) dg_crc = crc64(dg_crc, p, n);
    else memcpy(dg_stage, p, n), dg_n = n;
}

__attribute__((noinline)) static void field_long(const void *p, size_t n) {
    uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    dg_update(len, 4);
    dg_update(p, n);
}

/* Copy n <= 32 bytes with two overlapping fixed-size copies of the largest power of two that fits. */
static inline void copy_short(uint8_t *d, const uint8_t *s, size_t n) {
    if (n >= 16) {
        memcpy(d, s, 16);
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

static inline void field(const void *p, size_t n) {
    if (n > 32) {
        field_long(p, n);
        return;
    }
    uint8_t *d = dg_stage + dg_n;
    uint32_t len = (uint32_t)n;
    memcpy(d, &len, 4); /* little-endian host */
    copy_short(d + 4, p, n);
    dg_advance(dg_n + 4 + n);
}

/* field(p, n) when 32 bytes can be read from p (a string in the mapped file, a buffer with BUF_SLACK): one
 * fixed-size copy whatever n, so the copy does not branch on the field's length (random lengths mispredict). */
static inline void field_in(const uint8_t *p, size_t n) {
    if (n > 32) {
        field_long(p, n);
        return;
    }
    uint8_t *d = dg_stage + dg_n;
    uint32_t len = (uint32_t)n;
    memcpy(d, &len, 4);
    memcpy(d + 4, p, 32);
    dg_advance(dg_n + 4 + n);
}

/* Decimal text of v at out (at least 20 bytes), two digits a step; returns its length. */
static const char DIGIT_PAIRS[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                     "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                     "8081828384858687888990919293949596979899";

static size_t fmt_u64(uint64_t v, char *out) {
    size_t n = 1;
    for (uint64_t t = v; t >= 10; t /= 10) n++;
    char *e = out + n;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--e = DIGIT_PAIRS[d + 1];
        *--e = DIGIT_PAIRS[d];
    }
    if (v >= 10) {
        *--e = DIGIT_PAIRS[v * 2 + 1];
        *--e = DIGIT_PAIRS[v * 2];
    } else {
        *--e = (char)('0' + v);
    }
    return n;
}

static size_t fmt_i64(int64_t v, char *out) {
    if (v >= 0) return fmt_u64((uint64_t)v, out);
    out[0] = '-';
    return 1 + fmt_u64(-(uint64_t)v, out + 1);
}

static void int_field(int64_t v) {
    char t[64]; /* 32 bytes readable past any decimal text: field_in */
    field_in((const uint8_t *)t, fmt_i64(v, t));
}

static void uint_field(uint64_t v) {
    char t[64];
    field_in((const uint8_t *)t, fmt_u64(v, t));
}

static void score_field(double x) {
    static const char hex[] = "0123456789abcdef";
    uint64_t bits;
    if (isnan(x)) bits = 0x7ff8000000000000ULL;
    else memcpy(&bits, &x, 8);
    uint8_t t[16];
    for (int k = 0; k < 16; k++) t[k] = (uint8_t)hex[(bits >> (60 - 4 * k)) & 15];
    field(t, 16);
}

/* The type names padded to 32 bytes, for field_in. */
static const char TYPE_PADDED[7][32] = {"string", "list", "set", "zset", "hash", "stream", "module"};
static const uint8_t TYPE_LEN[7] = {6, 4, 3, 4, 4, 6, 6};

/* The database of the latest keys: its number as decimal text and its keys since it began, so that a run of
 * keys in one database costs neither a decimal conversion nor a table update per key. */
static uint64_t s_cur_db, s_cur_keys; /* s_cur_keys 0: no key yet */
static char s_cur_text[64];
static size_t s_cur_len;

/* Add the current database's run of keys to the table (on a switch, and once at the end). */
static void db_flush(void) {
    if (s_cur_keys) *db_counter(s_cur_db) += s_cur_keys;
    s_cur_keys = 0;
}

__attribute__((noinline)) static void db_switch(uint64_t db) {
    db_flush();
    s_cur_db = db;
    s_cur_len = fmt_u64(db, s_cur_text);
}

static void sum_begin(uint64_t db, int t, const uint8_t *key, size_t klen, const uint8_t *klim, int has_exp, int64_t exp) {
    if (s_cur_keys == 0 || s_cur_db != db) db_switch(db);
    s_cur_keys++;
    field_in((const uint8_t *)s_cur_text, s_cur_len);
    field_in((const uint8_t *)TYPE_PADDED[t], TYPE_LEN[t]);
    if (klim - key >= 32) field_in(key, klen);
    else field(key, klen);
    if (has_exp) int_field(exp);
    else field_in((const uint8_t *)s_cur_text, 0);
    s_keys++;
    s_types[t]++;
    if (has_exp) s_expires++;
}

/* A hash field's absolute expiry in ms (0 = none, an empty field), counted. */
static void field_ttl(uint64_t expire_at) {
    if (expire_at == 0) {
        field("", 0);
        return;
    }
    s_field_expires++;
    uint_field(expire_at);
}

/* digits [. digits] (at least one digit) then an optional exponent letter, sign and decimal digits, to the end. */
static int scan_float(const uint8_t *s, size_t n, int hex, char e) {
    size_t i = 0, digits = 0;
    int (*dig)(int) = hex ? isxdigit : isdigit;
    while (i < n && dig(s[i])) i++, digits++;
    if (i < n && s[i] == '.')
        for (i++; i < n && dig(s[i]); i++) digits++;
    if (!digits) return 0;
    if (i == n) return 1;
    if (tolower(s[i]) != e) return 0;
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (i == n) return 0;
    for (; i < n; i++)
        if (!isdigit(s[i])) return 0;
    return 1;
}

static int prefix_ci(const uint8_t *s, size_t n, const char *w) {
    size_t k = strlen(w);
    return n >= k && strncasecmp((const char *)s, w, k) == 0;
}

/* A score written as text: the whole field must be what strtod reads (Redis loads these with strtod/sscanf):
 * optional sign, then a decimal float, a hex float (0x, optional p exponent), inf, infinity, nan or
 * nan(chars), any case; no space, nothing after it. glibc's strtod rounds correctly, +-inf on overflow. */
static buf_t g_score;

/* Whether the 8 bytes of v (loaded little-endian) are all ASCII digits: no bit outside the digits' 0x30 in each
 * high nibble, and no low nibble above 9 (adding 6 would carry into the high one). */
static inline int eight_digits(uint64_t v) {
    return ((v & 0xF0F0F0F0F0F0F0F0ULL) | (((v + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) == 0x3333333333333333ULL;
}

/* The value of 8 ASCII digits loaded little-endian (the first digit in the low byte): fast_float's SWAR step. */
static inline uint64_t eight_digits_value(uint64_t v) {
    v -= 0x3030303030303030ULL;
    v = v * 10 + (v >> 8); /* each even byte: two digits */
    uint64_t quads = (v & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32));
    uint64_t rest = ((v >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32));
    return ((quads + rest) >> 32) & 0xFFFFFFFF;
}

/* A run of decimal digits from i, folded into *m (wrapping: more than 19 digits are refused by the caller). */
static inline size_t scan_digits(const uint8_t *s, size_t n, size_t i, uint64_t *m) {
    uint64_t v = *m;
    while (n - i >= 8) { /* eight at a time while there are eight (the %.17g scores' long fractions) */
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (!eight_digits(w)) break;
        v = v * 100000000 + eight_digits_value(w);
        i += 8;
    }
    for (; i < n && (uint8_t)(s[i] - '0') <= 9; i++) v = v * 10 + (uint64_t)(s[i] - '0');
    *m = v;
    return i;
}

static const uint64_t POW10_U64[20] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
                                       100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
                                       1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
                                       1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
                                       1000000000000000000ULL, 10000000000000000000ULL};

/* The double nearest to m / d (ties to even), for 0 < d < 2^64 and m / d between 2^-64 and 2^64: q = m * 2^sh / d
 * in 128-bit integers with q of 55 bits or more; its top 53 bits are the mantissa, the bits below them and the
 * remainder decide the rounding (the same steps as rust/src/lib.rs's nearest_quotient). */
static double nearest_quotient(uint64_t m, uint64_t d) {
    if (m == 0) return 0.0;
    int bm = 64 - __builtin_clzll(m), bd = 64 - __builtin_clzll(d);
    int sh = 55 + bd - bm;
    if (sh < 0) sh = 0;
    unsigned __int128 num = (unsigned __int128)m << sh, q = num / d, r = num % d;
    uint64_t qh = (uint64_t)(q >> 64);
    int qbits = qh ? 128 - __builtin_clzll(qh) : 64 - __builtin_clzll((uint64_t)q);
    int drop = qbits - 53; /* q's bits below the mantissa: 2 or more */
    uint64_t mant = (uint64_t)(q >> drop);
    unsigned __int128 low = q & (((unsigned __int128)1 << drop) - 1), half = (unsigned __int128)1 << (drop - 1);
    if (low > half || (low == half && (r != 0 || (mant & 1)))) mant++; /* 2^53 at most: exact as a double */
    uint64_t pow2_bits = (uint64_t)(1023 + drop - sh) << 52; /* 2^(drop - sh), a normal double */
    double pow2;
    memcpy(&pow2, &pow2_bits, 8);
    return (double)mant * pow2;
}

/* The common score text, digits[.digits] with at most 19 digits in all and no exponent, rounded exactly: the
 * digits m (< 10^19 < 2^64) over 10^k. Clinger's fast path when both are exact doubles (m < 2^53, k <= 15),
 * else nearest_quotient. 0 for any other text: the full grammar decides. As rust/src/lib.rs's short_decimal. */
static inline int short_decimal(const uint8_t *s, size_t n, double *out) {
    static const double POW10[16] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    uint64_t m = 0;
    size_t int_end = scan_digits(s, n, 0, &m), end = int_end, frac = 0;
    if (int_end < n && s[int_end] == '.') {
        end = scan_digits(s, n, int_end + 1, &m);
        frac = end - int_end - 1;
    }
    int point = end > int_end;
    if (int_end == 0 || (point && frac == 0) || end != n || int_end + frac > 19) return 0;
    if (frac == 0) *out = (double)m; /* an integer: rounds to nearest, ties to even */
    else if (m < (1ULL << 53) && frac <= 15) *out = (double)m / POW10[frac];
    else *out = nearest_quotient(m, POW10_U64[frac]);
    return 1;
}

static int parse_score(const uint8_t *s, size_t n, double *out) {
    size_t i = (n > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    const uint8_t *b = s + i;
    size_t bn = n - i;
    double x;
    if (short_decimal(b, bn, &x)) { /* what it takes is decimal text strtod reads to the same double */
        *out = s[0] == '-' ? -x : x;
        return 1;
    }
    if (prefix_ci(b, bn, "inf")) {
        if (bn != 3 && !(bn == 8 && prefix_ci(b, bn, "infinity"))) return 0;
    } else if (prefix_ci(b, bn, "nan")) {
        if (bn != 3) {
            if (bn < 5 || b[3] != '(' || b[bn - 1] != ')') return 0;
            for (size_t k = 4; k < bn - 1; k++)
                if (!isalnum(b[k]) && b[k] != '_') return 0;
        }
    } else if (prefix_ci(b, bn, "0x")) {
        if (!scan_float(b + 2, bn - 2, 1, 'p')) return 0;
    } else if (!scan_float(b, bn, 0, 'e')) {
        return 0;
    }
    buf_reserve(&g_score, n + 1);
    memcpy(g_score.p, s, n);
    g_score.p[n] = 0;
    char *end;
    *out = strtod((const char *)g_score.p, &end);
    return end == (char *)g_score.p + n;
}

/* ---- reading with bounds, CRC and offset ---- */

__attribute__((noreturn, noinline, cold)) static void truncated(uint64_t n) {
    fail(g_pos, "need %" PRIu64 " bytes but only %" PRIu64 " remain (truncated file or bad length)", n, g_size - g_pos);
}

static inline void rd(void *dst, size_t n) {
    if (n > g_size - g_pos) truncated(n);
#if SRC_IN_PLACE
    if (n) memcpy(dst, src_map + g_pos, n); /* dst may be NULL when n is 0 */
#else
    if (!src_read(dst, n)) fail(g_pos, "read failed: %s", errno ? strerror(errno) : "premature end of file");
    g_crc = crc64(g_crc, dst, n);
#endif
    g_pos += n;
}

static inline uint8_t rd_u8(void) {
#if SRC_IN_PLACE
    if (g_pos < g_size) return src_map[g_pos++];
#endif
    uint8_t b;
    rd(&b, 1);
    return b;
}

static uint64_t rd_le(int w) {
    uint8_t b[8];
    rd(b, (size_t)w);
    uint64_t v = 0;
    for (int k = 0; k < w; k++) v |= (uint64_t)b[k] << (8 * k);
    return v;
}

static uint64_t rd_be(int w) {
    uint8_t b[8];
    rd(b, (size_t)w);
    uint64_t v = 0;
    for (int k = 0; k < w; k++) v = (v << 8) | b[k];
    return v;
}

static int64_t sext(uint64_t v, int bits) { return (int64_t)(v << (64 - bits)) >> (64 - bits); }

static uint64_t length_enc(int *enc) {
    uint64_t at = g_pos;
    uint8_t b = rd_u8();
    *enc = 0;
    switch (b >> 6) {
    case 0: return b & 0x3F;
    case 1: return ((uint64_t)(b & 0x3F) << 8) | rd_u8();
    case 3: *enc = 1; return b & 0x3F;
    default:
        if (b == 0x80) return rd_be(4);
        if (b == 0x81) return rd_be(8);
        fail(at, "bad length byte 0x%02x", b);
    }
}

static uint64_t length(void) {
    uint64_t at = g_pos;
    int enc;
    uint64_t v = length_enc(&enc);
    if (enc) fail(at, "encoded string where a length was expected");
    return v;
}

static uint64_t count(const char *what) {
    uint64_t at = g_pos, n = length();
    if (n > g_size - g_pos) fail(at, "%s count %" PRIu64 " exceeds the %" PRIu64 " bytes left", what, n, g_size - g_pos);
    return n;
}

static void read_into(uint64_t n, buf_t *out) {
    if (n > g_size - g_pos) truncated(n);
    buf_reserve(out, (size_t)n);
    out->len = (size_t)n;
    rd(out->p, (size_t)n);
}

static void lzf_decompress(const uint8_t *src, size_t n, size_t ulen, buf_t *out, uint64_t at) {
    /* grow as the data decompresses: a crafted header cannot make us reserve its claimed size up front */
    buf_reserve(out, ulen < 4 * n ? ulen : 4 * n);
    uint8_t *o = out->p;
    size_t ol = 0, i = 0;
    while (i < n) {
        size_t ctrl = src[i++];
        if (ctrl < 32) {
            size_t ln = ctrl + 1;
            if (i + ln > n || ol + ln > ulen) fail(at, "corrupt LZF data (literal run past the end)");
            buf_reserve(out, ol + ln);
            o = out->p;
            memcpy(o + ol, src + i, ln);
            ol += ln;
            i += ln;
        } else {
            size_t ln = ctrl >> 5;
            if (ln == 7) {
                if (i >= n) fail(at, "corrupt LZF data (truncated)");
                ln += src[i++];
            }
            if (i >= n) fail(at, "corrupt LZF data (truncated)");
            size_t back = ((ctrl & 0x1F) << 8) + src[i++] + 1;
            ln += 2;
            if (back > ol || ol + ln > ulen) fail(at, "corrupt LZF data (back reference out of range)");
            buf_reserve(out, ol + ln);
            o = out->p;
            if (back >= ln) { /* no overlap */
                memcpy(o + ol, o + ol - back, ln);
                ol += ln;
            } else {
                for (size_t k = 0; k < ln; k++, ol++) o[ol] = o[ol - back]; /* overlaps: byte by byte */
            }
        }
    }
    if (ol != ulen) fail(at, "LZF data decompressed to %zu bytes, header says %zu", ol, ulen);
    out->len = ol;
}

#if !SRC_IN_PLACE
static buf_t g_lzf; /* LZF data read from the file, before it is decompressed */
#endif

/* A string with the special encoding v (int8/16/32 as decimal text, or LZF) into out; at: where it starts. */
static void encoded_string(uint64_t at, uint64_t v, buf_t *out) {
    int64_t num;
    switch (v) {
    case RDB_ENC_INT8: num = sext(rd_le(1), 8); break;
    case RDB_ENC_INT16: num = sext(rd_le(2), 16); break;
    case RDB_ENC_INT32: num = sext(rd_le(4), 32); break;
    case RDB_ENC_LZF: {
        uint64_t clen = length(), ulen = length();
        if (clen > (UINT64_MAX - 16) / 100 || ulen > clen * 100 + 16)
            fail(at, "LZF uncompressed length %" PRIu64 " implausible for %" PRIu64 " compressed bytes", ulen, clen);
#if SRC_IN_PLACE
        if (clen > g_size - g_pos) truncated(clen);
        const uint8_t *comp = src_map + g_pos; /* decompressed from the mapping */
        g_pos += clen;
        lzf_decompress(comp, (size_t)clen, (size_t)ulen, out, at);
#else
        read_into(clen, &g_lzf);
        lzf_decompress(g_lzf.p, g_lzf.len, (size_t)ulen, out, at);
#endif
        return;
    }
    default: fail(at, "unknown string encoding %" PRIu64, v);
    }
    buf_reserve(out, 24);
    out->len = fmt_i64(num, (char *)out->p);
}

/* An RDB string (raw, int-encoded as decimal text, or LZF) into out. */
static void string_into(buf_t *out) {
    uint64_t at = g_pos;
    int enc;
    uint64_t v = length_enc(&enc);
    if (enc) encoded_string(at, v, out);
    else read_into(v, out);
}

/* A string the parser got: its bytes, and how far memory can be read from p (lim - p >= 32: field_in). */
typedef struct {
    const uint8_t *p;
    size_t len;
    const uint8_t *lim;
} str_t;

static inline str_t buf_str(const buf_t *b) { return (str_t){b->p, b->len, b->p + b->cap}; }

static inline void field_str(str_t s) {
    if (s.lim - s.p >= 32) field_in(s.p, s.len);
    else field(s.p, s.len);
}

#if SRC_IN_PLACE
/* In place: step over n bytes of the file, returning where they are. */
static inline const uint8_t *skip(uint64_t n) {
    if (n > g_size - g_pos) truncated(n);
    const uint8_t *p = src_map + g_pos;
    g_pos += n;
    return p;
}

/* string_at for any string: every length encoding; int and LZF strings go to scratch. */
__attribute__((noinline)) static str_t any_string_at(buf_t *scratch) {
    uint64_t at = g_pos;
    int enc;
    uint64_t v = length_enc(&enc);
    if (enc) {
        encoded_string(at, v, scratch);
        return buf_str(scratch);
    }
    const uint8_t *p = skip(v);
    return (str_t){p, (size_t)v, src_map + g_size};
}
#endif

/* An RDB string. In place, a plain string stays in the mapping (the common case, a 6- or 14-bit length, read
 * inline); otherwise (streaming strategies, int and LZF strings) it is read into scratch. */
static inline str_t string_at(buf_t *scratch) {
#if SRC_IN_PLACE
    uint64_t p = g_pos;
    if (p < g_size) {
        uint8_t b = src_map[p];
        uint64_t n = UINT64_MAX, at = 0;
        if ((b >> 6) == 0) n = b & 0x3F, at = p + 1;
        else if ((b >> 6) == 1 && p + 1 < g_size) n = ((uint64_t)(b & 0x3F) << 8) | src_map[p + 1], at = p + 2;
        if (n <= g_size - at) {
            g_pos = at + n;
            return (str_t){src_map + at, (size_t)n, src_map + g_size};
        }
    }
    return any_string_at(scratch);
#else
    string_into(scratch);
    return buf_str(scratch);
#endif
}

/* ---- compact encodings: walk the entries of a blob in memory ---- */
/* mode: 0 plain elements; 1 zset pairs (odd entries are scores); 2 hash triples (every third a field TTL) */
typedef struct {
    int mode;
    uint64_t idx;
    uint64_t at;
    const uint8_t *lim; /* the blob's str_t lim: entries with 32 readable bytes enter the digest by field_in */
} walk_t;

static void emit_str(walk_t *w, const uint8_t *s, size_t n) {
    if (w->mode == 2 && w->idx % 3 == 2) fail(w->at, "hash listpack with field TTLs: a TTL is not an integer");
    if (w->mode == 1 && (w->idx & 1)) {
        double x;
        if (!parse_score(s, n, &x)) fail(w->at, "bad zset score \"%s\"", esc(s, n));
        score_field(x);
    } else if (w->lim - s >= 32) {
        field_in(s, n);
    } else {
        field(s, n);
    }
    w->idx++;
}

static void emit_int(walk_t *w, int64_t v) {
    if (w->mode == 2 && w->idx % 3 == 2) {
        if (v < 0 || (uint64_t)v > EB_EXPIRE_TIME_MAX) fail(w->at, "hash field expiry %" PRId64 " out of range", v);
        field_ttl((uint64_t)v);
        w->idx++;
        return;
    }
    if (w->mode == 1 && (w->idx & 1)) score_field((double)v);
    else int_field(v);
    w->idx++;
}

#define NEED(i, n, what) \
    do { if ((n) > len || (i) > len - (n)) fail(w->at, "corrupt %s (entry past its end)", what); } while (0)

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static int64_t le_int(const uint8_t *p, int w) {
    uint64_t v = 0;
    for (int k = 0; k < w; k++) v |= (uint64_t)p[k] << (8 * k);
    return sext(v, 8 * w);
}

/* A ziplist's entries; its header (zlbytes, zltail, zllen) and every prevlen are checked against the walk. */
static void walk_ziplist(const uint8_t *b, size_t len, walk_t *w) {
    if (len < 11 || le32(b) != len) fail(w->at, "corrupt ziplist header");
    size_t zltail = le32(b + 4), zllen = (size_t)b[8] | (size_t)b[9] << 8;
    size_t i = 10, n = 0;
    size_t last = 10, prev = 0, start = 10; /* the last entry's offset, the previous entry's size */
    for (;; n++) {
        if (n > 0) last = start, prev = i - start;
        NEED(i, 1, "ziplist");
        if (b[i] == 0xFF) break;
        start = i;
        size_t plen;
        if (b[i] == 0xFE) {
            NEED(i, 5, "ziplist");
            plen = le32(b + i + 1);
            i += 5;
        } else {
            plen = b[i++];
        }
        if (plen != prev) fail(w->at, "corrupt ziplist (prevlen %zu, previous entry has %zu bytes)", plen, prev);
        NEED(i, 1, "ziplist");
        uint8_t enc = b[i];
        if ((enc >> 6) < 3) {
            size_t ln;
            if ((enc >> 6) == 0) {
                ln = enc & 0x3F;
                i += 1;
            } else if ((enc >> 6) == 1) {
                NEED(i, 2, "ziplist");
                ln = ((size_t)(enc & 0x3F) << 8) | b[i + 1];
                i += 2;
            } else if (enc == 0x80) {
                NEED(i, 5, "ziplist");
                ln = (size_t)b[i + 1] << 24 | (size_t)b[i + 2] << 16 | (size_t)b[i + 3] << 8 | b[i + 4];
                i += 5;
            } else {
                fail(w->at, "corrupt ziplist (encoding 0x%02x)", enc);
            }
            NEED(i, ln, "ziplist");
            emit_str(w, b + i, ln);
            i += ln;
            continue;
        }
        i += 1;
        int wd;
        switch (enc) {
        case 0xC0: wd = 2; break;
        case 0xD0: wd = 4; break;
        case 0xE0: wd = 8; break;
        case 0xF0: wd = 3; break;
        case 0xFE: wd = 1; break;
        default:
            if (enc >= 0xF1 && enc <= 0xFD) {
                emit_int(w, (enc & 0x0F) - 1);
                continue;
            }
            fail(w->at, "corrupt ziplist (encoding 0x%02x)", enc);
        }
        NEED(i, (size_t)wd, "ziplist");
        emit_int(w, le_int(b + i, wd));
        i += (size_t)wd;
    }
    if (i != len - 1) fail(w->at, "corrupt ziplist (bytes after its end marker)");
    if (zltail != last) fail(w->at, "corrupt ziplist (zltail %zu, last entry at %zu)", zltail, last);
    if (zllen != 0xFFFF && zllen != n) fail(w->at, "corrupt ziplist (zllen %zu, %zu entries)", zllen, n);
}

static size_t backlen_size(size_t n) {
    return n <= 127 ? 1 : n < 16383 ? 2 : n < 2097151 ? 3 : n < 268435455 ? 4 : 5;
}

/* The size bytes at i encode elen as a listpack back length (7 bits a byte, most significant first, every
 * byte but the first with its high bit set). */
static int backlen_ok(const uint8_t *b, size_t i, size_t elen, size_t size) {
    for (size_t k = 0; k < size; k++) {
        uint8_t want = (uint8_t)((elen >> (7 * (size - 1 - k))) & 127) | (k ? 128 : 0);
        if (b[i + k] != want) return 0;
    }
    return 1;
}

/* A listpack's entries; its header (total bytes, element count) and every back length are checked. */
static void walk_listpack(const uint8_t *b, size_t len, walk_t *w) {
    if (len < 7 || le32(b) != len) fail(w->at, "corrupt listpack header");
    size_t numele = (size_t)b[4] | (size_t)b[5] << 8;
    size_t i = 6, n = 0;
    for (;; n++) {
        NEED(i, 1, "listpack");
        uint8_t c = b[i];
        if (c == 0xFF) break;
        size_t elen;
        if (c < 0x80) {
            emit_int(w, c);
            elen = 1;
        } else if (c < 0xC0) {
            size_t ln = c & 0x3F;
            NEED(i, 1 + ln, "listpack");
            emit_str(w, b + i + 1, ln);
            elen = 1 + ln;
        } else if (c < 0xE0) {
            NEED(i, 2, "listpack");
            emit_int(w, sext(((uint64_t)(c & 0x1F) << 8) | b[i + 1], 13));
            elen = 2;
        } else if (c < 0xF0) {
            NEED(i, 2, "listpack");
            size_t ln = ((size_t)(c & 0x0F) << 8) | b[i + 1];
            NEED(i, 2 + ln, "listpack");
            emit_str(w, b + i + 2, ln);
            elen = 2 + ln;
        } else if (c == 0xF0) {
            NEED(i, 5, "listpack");
            size_t ln = le32(b + i + 1);
            NEED(i, 5 + ln, "listpack");
            emit_str(w, b + i + 5, ln);
            elen = 5 + ln;
        } else {
            int wd = c == 0xF1 ? 2 : c == 0xF2 ? 3 : c == 0xF3 ? 4 : c == 0xF4 ? 8 : 0;
            if (!wd) fail(w->at, "corrupt listpack (encoding 0x%02x)", c);
            NEED(i, 1 + (size_t)wd, "listpack");
            emit_int(w, le_int(b + i + 1, wd));
            elen = 1 + (size_t)wd;
        }
        size_t bl = backlen_size(elen);
        NEED(i + elen, bl, "listpack");
        if (!backlen_ok(b, i + elen, elen, bl)) fail(w->at, "corrupt listpack (back length does not match an entry of %zu bytes)", elen);
        i += elen + bl;
    }
    if (i != len - 1) fail(w->at, "corrupt listpack (bytes after its end marker)");
    if (numele != 0xFFFF && numele != n) fail(w->at, "corrupt listpack (header says %zu entries, %zu found)", numele, n);
}

/* A zipmap's keys and values; its count byte (when below 254) is checked against the walk. */
static void walk_zipmap(const uint8_t *b, size_t len, walk_t *w) {
    if (len == 0) fail(w->at, "corrupt zipmap (entry past its end)");
    size_t i = 1, pairs = 0;
    for (;; pairs++) {
        NEED(i, 1, "zipmap");
        if (b[i] == 0xFF) break;
        for (int part = 0; part < 2; part++) {
            NEED(i, 1, "zipmap");
            size_t ln;
            if (b[i] < 254) {
                ln = b[i];
                i += 1;
            } else if (b[i] == 254) {
                NEED(i, 5, "zipmap");
                ln = le32(b + i + 1);
                i += 5;
            } else {
                fail(w->at, "corrupt zipmap (unexpected end marker)");
            }
            size_t fr = 0;
            if (part == 1) {
                NEED(i, 1, "zipmap");
                fr = b[i++];
            }
            NEED(i, ln + fr, "zipmap");
            emit_str(w, b + i, ln);
            i += ln + fr;
        }
    }
    if (i != len - 1) fail(w->at, "corrupt zipmap (bytes after its end marker)");
    if (b[0] < 254 && b[0] != pairs) fail(w->at, "corrupt zipmap (header says %d pairs, %zu found)", b[0], pairs);
}

static void walk_intset(const uint8_t *b, size_t len, walk_t *w) {
    if (len < 8) fail(w->at, "corrupt intset header");
    uint32_t enc = le32(b), n = le32(b + 4);
    if (!(enc == 2 || enc == 4 || enc == 8) || (uint64_t)len != 8 + (uint64_t)n * enc)
        fail(w->at, "corrupt intset (encoding %u, %u entries, %zu bytes)", enc, n, len);
    for (uint32_t k = 0; k < n; k++) emit_int(w, le_int(b + 8 + (size_t)k * enc, (int)enc));
}

/* ---- values ---- */
static buf_t g_s;

static uint64_t stream_value(int t) {
    for (uint64_t k = 0, n = count("stream listpack"); k < n; k++) {
        uint64_t kat = g_pos;
        string_into(&g_s);
        if (g_s.len != 16) fail(kat, "stream node key is not 16 bytes");
        string_into(&g_s);
    }
    uint64_t len = length();
    length(), length();
    if (t >= RDB_TYPE_STREAM_LISTPACKS_2)
        for (int k = 0; k < 5; k++) length();
    uint8_t raw[24];
    for (uint64_t g = 0, ng = count("stream consumer group"); g < ng; g++) {
        string_into(&g_s);
        length(), length();
        if (t >= RDB_TYPE_STREAM_LISTPACKS_2) length();
        for (uint64_t k = 0, n = count("stream PEL"); k < n; k++) {
            rd(raw, 24);
            length();
        }
        for (uint64_t c = 0, nc = count("stream consumer"); c < nc; c++) {
            string_into(&g_s);
            rd(raw, 8);
            if (t >= RDB_TYPE_STREAM_LISTPACKS_3) rd(raw, 8);
            for (uint64_t k = 0, n = count("consumer PEL"); k < n; k++) rd(raw, 16);
        }
    }
    return len;
}

/* The logical type of a value type code (index into TYPE_NAMES), -1 for opcodes and unknown codes. */
static int logical_type(int t) {
    switch (t) {
    case RDB_TYPE_STRING: return T_STRING;
    case RDB_TYPE_LIST: case RDB_TYPE_LIST_ZIPLIST: case RDB_TYPE_LIST_QUICKLIST: case RDB_TYPE_LIST_QUICKLIST_2: return T_LIST;
    case RDB_TYPE_SET: case RDB_TYPE_SET_INTSET: case RDB_TYPE_SET_LISTPACK: return T_SET;
    case RDB_TYPE_ZSET: case RDB_TYPE_ZSET_2: case RDB_TYPE_ZSET_ZIPLIST: case RDB_TYPE_ZSET_LISTPACK: return T_ZSET;
    case RDB_TYPE_HASH: case RDB_TYPE_HASH_ZIPMAP: case RDB_TYPE_HASH_ZIPLIST: case RDB_TYPE_HASH_LISTPACK:
    case RDB_TYPE_HASH_METADATA_PRE_GA: case RDB_TYPE_HASH_LISTPACK_EX_PRE_GA: case RDB_TYPE_HASH_METADATA:
    case RDB_TYPE_HASH_LISTPACK_EX: return T_HASH;
    case RDB_TYPE_STREAM_LISTPACKS: case RDB_TYPE_STREAM_LISTPACKS_2: case RDB_TYPE_STREAM_LISTPACKS_3: return T_STREAM;
    case RDB_TYPE_MODULE_2: return T_MODULE;
    default: return -1;
    }
}

/* Skip a module's annotated value as redis-check-rdb does: [opcode][value] until EOF; return the count. */
static uint64_t module_value(void) {
    uint8_t raw[8];
    for (uint64_t n = 0;; n++) {
        uint64_t oat = g_pos, op = length();
        switch (op) {
        case RDB_MODULE_OPCODE_EOF: return n;
        case RDB_MODULE_OPCODE_SINT: case RDB_MODULE_OPCODE_UINT: length(); break;
        case RDB_MODULE_OPCODE_FLOAT: rd(raw, 4); break;
        case RDB_MODULE_OPCODE_DOUBLE: rd(raw, 8); break;
        case RDB_MODULE_OPCODE_STRING: string_into(&g_s); break;
        default: fail(oat, "unknown module value opcode %" PRIu64, op);
        }
    }
}

/* Types 22 and 24: [min expire] count, then [ttl][field][value] each; the TTL enters the digest after the
 * value as an absolute time in ms (empty when none). */
static uint64_t hash_metadata(int t) {
    uint64_t min_expire = 0;
    if (t == RDB_TYPE_HASH_METADATA) {
        uint64_t mat = g_pos;
        min_expire = rd_le(8);
        if (min_expire > EB_EXPIRE_TIME_MAX + 1) fail(mat, "hash min expire %" PRIu64 " out of range", min_expire);
    }
    uint64_t n = count("hash");
    for (uint64_t k = 0; k < n; k++) {
        uint64_t tat = g_pos, expire_at = length();
        if (t == RDB_TYPE_HASH_METADATA && expire_at != 0) {
            if (expire_at > EB_EXPIRE_TIME_MAX + 1) fail(tat, "hash field expiry %" PRIu64 " out of range", expire_at);
            expire_at = expire_at + min_expire - 1; /* stored relative to the min expire, + 1 */
        }
        if (expire_at > EB_EXPIRE_TIME_MAX) fail(tat, "hash field expiry %" PRIu64 " out of range", expire_at);
        field_str(string_at(&g_s));
        field_str(string_at(&g_s));
        field_ttl(expire_at);
    }
    return n;
}

static void value(int t, uint64_t at, uint64_t db, str_t key, int has_exp, int64_t exp) {
    int logical = logical_type(t);
    if (logical < 0) fail(at, "unknown value type %d", t);
    sum_begin(db, logical, key.p, key.len, key.lim, has_exp, exp);
    walk_t w = {0, 0, at, NULL};
    str_t b;
    uint64_t n = 0;
    switch (t) {
    case RDB_TYPE_STRING:
        field_str(string_at(&g_s));
        n = 1;
        break;
    case RDB_TYPE_LIST: case RDB_TYPE_SET:
        n = count(t == RDB_TYPE_LIST ? "list" : "set");
        for (uint64_t k = 0; k < n; k++) {
            field_str(string_at(&g_s));
        }
        break;
    case RDB_TYPE_ZSET: case RDB_TYPE_ZSET_2:
        n = count("zset");
        for (uint64_t k = 0; k < n; k++) {
            field_str(string_at(&g_s));
            uint64_t sat = g_pos;
            double x;
            if (t == RDB_TYPE_ZSET_2) {
                uint64_t bits = rd_le(8);
                memcpy(&x, &bits, 8);
            } else {
                uint8_t ln = rd_u8();
                if (ln == 253) x = NAN;
                else if (ln == 254) x = INFINITY;
                else if (ln == 255) x = -INFINITY;
                else {
#if SRC_IN_PLACE
                    const uint8_t *text = skip(ln); /* the score's text, where it is */
#else
                    read_into(ln, &g_s);
                    const uint8_t *text = g_s.p;
#endif
                    if (!parse_score(text, ln, &x)) fail(sat, "bad zset score \"%s\"", esc(text, ln));
                }
            }
            score_field(x);
        }
        break;
    case RDB_TYPE_HASH:
        n = count("hash");
        for (uint64_t k = 0; k < 2 * n; k++) {
            field_str(string_at(&g_s));
        }
        break;
    case RDB_TYPE_HASH_ZIPMAP: case RDB_TYPE_LIST_ZIPLIST: case RDB_TYPE_SET_INTSET: case RDB_TYPE_SET_LISTPACK:
    case RDB_TYPE_ZSET_ZIPLIST: case RDB_TYPE_ZSET_LISTPACK: case RDB_TYPE_HASH_ZIPLIST: case RDB_TYPE_HASH_LISTPACK:
        b = string_at(&g_s);
        w.mode = (t == RDB_TYPE_ZSET_ZIPLIST || t == RDB_TYPE_ZSET_LISTPACK);
        w.lim = b.lim;
        if (t == RDB_TYPE_HASH_ZIPMAP) walk_zipmap(b.p, b.len, &w);
        else if (t == RDB_TYPE_LIST_ZIPLIST || t == RDB_TYPE_ZSET_ZIPLIST || t == RDB_TYPE_HASH_ZIPLIST) walk_ziplist(b.p, b.len, &w);
        else if (t == RDB_TYPE_SET_INTSET) walk_intset(b.p, b.len, &w);
        else walk_listpack(b.p, b.len, &w);
        n = w.idx;
        if (logical == T_HASH || logical == T_ZSET) {
            if (n % 2) fail(at, "%s with an odd number of entries", logical == T_ZSET ? "zset" : "hash");
            n /= 2;
        }
        break;
    case RDB_TYPE_LIST_QUICKLIST:
        for (uint64_t k = 0, nodes = count("quicklist node"); k < nodes; k++) {
            b = string_at(&g_s);
            w.lim = b.lim;
            walk_ziplist(b.p, b.len, &w);
        }
        n = w.idx;
        break;
    case RDB_TYPE_LIST_QUICKLIST_2:
        for (uint64_t k = 0, nodes = count("quicklist node"); k < nodes; k++) {
            uint64_t cat = g_pos, container = length();
            b = string_at(&g_s);
            w.lim = b.lim;
            if (container == QUICKLIST_NODE_CONTAINER_PLAIN) {
                field_str(b);
                w.idx++;
            } else if (container == QUICKLIST_NODE_CONTAINER_PACKED) {
                walk_listpack(b.p, b.len, &w);
            } else {
                fail(cat, "bad quicklist container %" PRIu64, container);
            }
        }
        n = w.idx;
        break;
    case RDB_TYPE_HASH_METADATA: case RDB_TYPE_HASH_METADATA_PRE_GA:
        n = hash_metadata(t);
        break;
    case RDB_TYPE_HASH_LISTPACK_EX: case RDB_TYPE_HASH_LISTPACK_EX_PRE_GA:
        if (t == RDB_TYPE_HASH_LISTPACK_EX) rd_le(8); /* min expire: a hint, unused when loading (as in Redis) */
        b = string_at(&g_s);
        w.mode = 2;
        w.lim = b.lim;
        walk_listpack(b.p, b.len, &w);
        if (w.idx % 3) fail(at, "hash listpack with field TTLs: entries are not triples");
        n = w.idx / 3;
        break;
    case RDB_TYPE_MODULE_2:
        uint_field(length()); /* the module type id (name and encoding version) */
        n = module_value();
        break;
    default:
        n = stream_value(t);
    }
    uint_field(n);
}

#if SRC_IN_PLACE
static uint64_t g_crc_upto; /* in place: g_crc is the CRC-64 of the file's first g_crc_upto bytes */

/* Fold the bytes parsed since the last call into the file's CRC while they are still in the cache (called after
 * a key once FILE_CRC_STEP behind; one pass over the whole file at the end read it back from memory). */
#define FILE_CRC_STEP (64u << 10)
__attribute__((noinline)) static void crc_behind(void) {
    g_crc = crc64(g_crc, src_map + g_crc_upto, g_pos - g_crc_upto);
    g_crc_upto = g_pos;
}
#endif

/* The parser's state as a fresh process starts it (the libFuzzer target parses many inputs in one process). */
static void parse_reset(uint64_t size) {
    g_pos = 0;
    g_size = size;
    g_crc = 0;
#if SRC_IN_PLACE
    g_crc_upto = 0;
#endif
    dg_n = 0;
    dg_crc = 0;
    s_cur_db = s_cur_keys = 0;
    s_cur_len = 0;
    s_keys = s_expires = s_field_expires = s_module_aux = s_digest = 0;
    memset(s_types, 0, sizeof s_types);
    free(s_db_ids); /* the per-db table: ids, counts and its hash slots */
    free(s_db_keys);
    free(s_db_slot);
    s_db_ids = s_db_keys = NULL;
    s_db_slot = NULL;
    s_ndb = s_capdb = 0;
}

static void parse(void) {
    uint8_t magic[9];
    rd(magic, 9);
    if (memcmp(magic, "REDIS", 5) != 0) fail(0, "bad magic \"%s\" (not an RDB file)", esc(magic, 5));
    int version = 0;
    for (int k = 5; k < 9; k++) {
        if (magic[k] < '0' || magic[k] > '9') {
            version = -1;
            break;
        }
        version = version * 10 + (magic[k] - '0');
    }
    if (version == 13 || version == 14)
        fail(5, "RDB version %d (%s) is not supported: its format is newer than the Redis source this parser follows (RDB %d)",
             version, version == 13 ? "Redis 8.6" : "Redis 8.8", MAX_VERSION);
    if (version < 1 || version > MAX_VERSION) fail(5, "unsupported RDB version \"%s\"", esc(magic + 5, 4));
    uint64_t db = 0;
    int has_exp = 0;
    int64_t exp = 0;
    buf_t key = {0};
    for (;;) {
        uint64_t at = g_pos;
        uint8_t op = rd_u8();
        if (op == RDB_OPCODE_EOF) break;
        switch (op) {
        case RDB_OPCODE_SELECTDB: db = length(); break;
        case RDB_OPCODE_EXPIRETIME: has_exp = 1; exp = (int64_t)(int32_t)(uint32_t)rd_le(4) * 1000; break; /* signed 32-bit */
        case RDB_OPCODE_EXPIRETIME_MS: has_exp = 1; exp = (int64_t)rd_le(8); break;
        case RDB_OPCODE_RESIZEDB: length(); length(); break;
        case RDB_OPCODE_SLOT_INFO: length(); length(); length(); break; /* slot id, sizes: a hint, ignored */
        case RDB_OPCODE_AUX: string_into(&key); string_into(&key); break;
        case RDB_OPCODE_FREQ: rd_u8(); break;
        case RDB_OPCODE_IDLE: length(); break;
        case RDB_OPCODE_FUNCTION2: string_into(&key); break; /* the library source */
        case RDB_OPCODE_MODULE_AUX: {
            length(); /* module id */
            uint64_t wat = g_pos;
            if (length() != RDB_MODULE_OPCODE_UINT) fail(wat, "MODULE_AUX: bad when opcode");
            length(); /* when */
            module_value();
            s_module_aux++;
            break;
        }
        case RDB_OPCODE_FUNCTION_PRE_GA: fail(at, "pre-release FUNCTION opcode is unsupported");
        case RDB_TYPE_MODULE_PRE_GA: fail(at, "pre-release module value type 6 cannot be skipped without its module");
        default:
            if (logical_type(op) >= 0) {
                value(op, at, db, string_at(&key), has_exp, exp); /* the key: in place when it can be */
                has_exp = 0;
#if SRC_IN_PLACE
                if (g_pos - g_crc_upto >= FILE_CRC_STEP) crc_behind();
#endif
            } else {
                fail(at, "unknown opcode or value type %d", op);
            }
        }
    }
    if (version >= 5) {
#if SRC_IN_PLACE
        crc_behind();
#endif
        uint64_t body_end = g_pos, crc = g_crc, stored = rd_le(8);
        if (stored != 0 && stored != crc)
            fail(body_end, "checksum mismatch: file says %016" PRIx64 ", computed %016" PRIx64, stored, crc);
    }
    /* Bytes after the checksum are ignored, as Redis does (an AOF with an RDB preamble continues there). */
    db_flush();
    s_digest = dg_value();
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = s_db_ids[*(const size_t *)a], y = s_db_ids[*(const size_t *)b];
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    crc_init();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t size = 0;
    if (src_open(argv[1], &size) != 0) {
        fprintf(stderr, "rdb: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    parse_reset(size);
    if (setjmp(fail_jmp)) {
        fprintf(stderr, "rdb: %s: offset %" PRIu64 ": %s\n", argv[1], fail_off, fail_msg);
        return 1;
    }
    parse();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    size_t *order = malloc((s_ndb + 1) * sizeof *order);
    for (size_t i = 0; i < s_ndb; i++) order[i] = i;
    qsort(order, s_ndb, sizeof *order, cmp_u64);
    fprintf(stderr, "iorace-result {\"answer\": {\"keys\": %" PRIu64 ", \"expires\": %" PRIu64 ", \"dbs\": {", s_keys, s_expires);
    for (size_t i = 0; i < s_ndb; i++)
        fprintf(stderr, "%s\"%" PRIu64 "\": %" PRIu64, i ? ", " : "", s_db_ids[order[i]], s_db_keys[order[i]]);
    fprintf(stderr, "}, \"types\": {");
    for (int t = 0; t < 7; t++) fprintf(stderr, "%s\"%s\": %" PRIu64, t ? ", " : "", TYPE_NAMES[t], s_types[t]);
    fprintf(stderr, "}, \"field_expires\": %" PRIu64 ", \"module_aux\": %" PRIu64, s_field_expires, s_module_aux);
    fprintf(stderr, ", \"digest\": \"%016" PRIx64 "\"}, \"inner_ns\": %lld}\n", s_digest, ns);
    return 0;
}
