/* The RDB parser shared by the C programs; the including file defines src_open() and src_read() (its read strategy). */
/*
 * Include this after defining:
 *   static int src_open(const char *path, uint64_t *size);   0 on success (errno set otherwise)
 *   static int src_read(void *dst, size_t n);                1 when all n bytes were read
 * It provides main(): `prog FILE`, summary as in ../README.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* ---- CRC-64/Jones, reflected, slicing-by-8 ---- */
static uint64_t crc_tab[8][256];

static void crc_init(void) {
    for (int i = 0; i < 256; i++) {
        uint64_t c = (uint64_t)i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x95AC9329AC4BC9B5ULL : c >> 1;
        crc_tab[0][i] = c;
    }
    for (int j = 1; j < 8; j++)
        for (int i = 0; i < 256; i++) crc_tab[j][i] = (crc_tab[j - 1][i] >> 8) ^ crc_tab[0][crc_tab[j - 1][i] & 0xFF];
}

static uint64_t crc64(uint64_t crc, const uint8_t *p, size_t n) {
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

/* ---- growable byte buffer ---- */
typedef struct {
    uint8_t *p;
    size_t len, cap;
} buf_t;

static void buf_reserve(buf_t *b, size_t n) {
    if (n <= b->cap) return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < n) cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) fail(0, "out of memory (%zu bytes)", n);
    b->p = p;
    b->cap = cap;
}

/* ---- the summary ---- */
static const char *TYPE_NAMES[6] = {"string", "list", "set", "zset", "hash", "stream"};
enum { T_STRING, T_LIST, T_SET, T_ZSET, T_HASH, T_STREAM };
static uint64_t s_keys, s_expires, s_types[6], s_digest;
static uint64_t *s_db_ids, *s_db_keys;
static size_t s_ndb, s_capdb;

static inline void field(const void *p, size_t n) {
    uint8_t len[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    s_digest = crc64(s_digest, len, 4);
    s_digest = crc64(s_digest, p, n);
}

static size_t fmt_i64(int64_t v, char *out) { return (size_t)sprintf(out, "%" PRId64, v); }

static void int_field(int64_t v) {
    char t[24];
    field(t, fmt_i64(v, t));
}

static void uint_field(uint64_t v) {
    char t[24];
    field(t, (size_t)sprintf(t, "%" PRIu64, v));
}

static void score_field(double x) {
    uint64_t bits;
    if (isnan(x)) bits = 0x7ff8000000000000ULL;
    else memcpy(&bits, &x, 8);
    char t[17];
    snprintf(t, sizeof t, "%016" PRIx64, bits);
    field(t, 16);
}

static void sum_begin(uint64_t db, int t, const uint8_t *key, size_t klen, int has_exp, int64_t exp) {
    uint_field(db);
    field(TYPE_NAMES[t], strlen(TYPE_NAMES[t]));
    field(key, klen);
    if (has_exp) int_field(exp);
    else field("", 0);
    s_keys++;
    s_types[t]++;
    if (has_exp) s_expires++;
    size_t i;
    for (i = 0; i < s_ndb && s_db_ids[i] != db; i++) {}
    if (i == s_ndb) {
        if (s_ndb == s_capdb) {
            s_capdb = s_capdb ? 2 * s_capdb : 16;
            s_db_ids = realloc(s_db_ids, s_capdb * 8);
            s_db_keys = realloc(s_db_keys, s_capdb * 8);
            if (!s_db_ids || !s_db_keys) fail(0, "out of memory");
        }
        s_db_ids[s_ndb] = db;
        s_db_keys[s_ndb++] = 0;
    }
    s_db_keys[i]++;
}

/* A score written as text: the whole string must be a decimal float (strtod, correctly rounded). */
static int parse_score(const uint8_t *s, size_t n, double *out) {
    char t[400];
    if (n == 0 || n >= sizeof t || s[0] == ' ' || (s[0] >= '\t' && s[0] <= '\r')) return 0;
    memcpy(t, s, n);
    t[n] = 0;
    if (memchr(t, 0, n)) return 0;
    char *end;
    errno = 0;
    *out = strtod(t, &end);
    return end == t + n;
}

/* ---- reading with bounds, CRC and offset ---- */
static uint64_t g_pos, g_size, g_crc;

static inline void rd(void *dst, size_t n) {
    if (n > g_size - g_pos) fail(g_pos, "need %zu bytes but only %" PRIu64 " remain (truncated file or bad length)", n, g_size - g_pos);
    if (!src_read(dst, n)) fail(g_pos, "read failed: %s", errno ? strerror(errno) : "premature end of file");
    g_crc = crc64(g_crc, dst, n);
    g_pos += n;
}

static inline uint8_t rd_u8(void) {
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
    if (n > g_size - g_pos) fail(g_pos, "need %" PRIu64 " bytes but only %" PRIu64 " remain (truncated file or bad length)", n, g_size - g_pos);
    buf_reserve(out, (size_t)n);
    out->len = (size_t)n;
    rd(out->p, (size_t)n);
}

static void lzf_decompress(const uint8_t *src, size_t n, size_t ulen, buf_t *out, uint64_t at) {
    buf_reserve(out, ulen);
    uint8_t *o = out->p;
    size_t ol = 0, i = 0;
    while (i < n) {
        size_t ctrl = src[i++];
        if (ctrl < 32) {
            size_t ln = ctrl + 1;
            if (i + ln > n || ol + ln > ulen) fail(at, "corrupt LZF data (literal run past the end)");
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
            for (size_t k = 0; k < ln; k++, ol++) o[ol] = o[ol - back]; /* may overlap */
        }
    }
    if (ol != ulen) fail(at, "LZF data decompressed to %zu bytes, header says %zu", ol, ulen);
    out->len = ol;
}

static buf_t g_lzf;

/* An RDB string (raw, int-encoded as decimal text, or LZF) into out. */
static void string_into(buf_t *out) {
    uint64_t at = g_pos;
    int enc;
    uint64_t v = length_enc(&enc);
    if (!enc) {
        read_into(v, out);
        return;
    }
    int64_t num;
    switch (v) {
    case 0: num = sext(rd_le(1), 8); break;
    case 1: num = sext(rd_le(2), 16); break;
    case 2: num = sext(rd_le(4), 32); break;
    case 3: {
        uint64_t clen = length(), ulen = length();
        if (clen > (UINT64_MAX - 16) / 100 || ulen > clen * 100 + 16)
            fail(at, "LZF uncompressed length %" PRIu64 " implausible for %" PRIu64 " compressed bytes", ulen, clen);
        read_into(clen, &g_lzf);
        lzf_decompress(g_lzf.p, g_lzf.len, (size_t)ulen, out, at);
        return;
    }
    default: fail(at, "unknown string encoding %" PRIu64, v);
    }
    buf_reserve(out, 24);
    out->len = fmt_i64(num, (char *)out->p);
}

/* ---- compact encodings: walk the entries of a blob in memory ---- */
/* mode: 0 plain elements; 1 zset pairs (odd entries are scores) */
typedef struct {
    int mode;
    uint64_t idx;
    uint64_t at;
} walk_t;

static void emit_str(walk_t *w, const uint8_t *s, size_t n) {
    if (w->mode == 1 && (w->idx & 1)) {
        double x;
        if (!parse_score(s, n, &x)) fail(w->at, "bad zset score \"%.*s\"", (int)(n < 32 ? n : 32), s);
        score_field(x);
    } else {
        field(s, n);
    }
    w->idx++;
}

static void emit_int(walk_t *w, int64_t v) {
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

static void walk_ziplist(const uint8_t *b, size_t len, walk_t *w) {
    if (len < 11 || le32(b) != len) fail(w->at, "corrupt ziplist header");
    size_t i = 10;
    for (;;) {
        NEED(i, 1, "ziplist");
        if (b[i] == 0xFF) break;
        i += b[i] == 0xFE ? 5 : 1;
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
}

static size_t backlen_size(size_t n) {
    return n <= 127 ? 1 : n < 16383 ? 2 : n < 2097151 ? 3 : n < 268435455 ? 4 : 5;
}

static void walk_listpack(const uint8_t *b, size_t len, walk_t *w) {
    if (len < 7 || le32(b) != len) fail(w->at, "corrupt listpack header");
    size_t i = 6;
    for (;;) {
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
        i += elen + backlen_size(elen);
    }
    if (i != len - 1) fail(w->at, "corrupt listpack (bytes after its end marker)");
}

static void walk_zipmap(const uint8_t *b, size_t len, walk_t *w) {
    size_t i = 1;
    for (;;) {
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
    if (t >= 19)
        for (int k = 0; k < 5; k++) length();
    uint8_t raw[24];
    for (uint64_t g = 0, ng = count("stream consumer group"); g < ng; g++) {
        string_into(&g_s);
        length(), length();
        if (t >= 19) length();
        for (uint64_t k = 0, n = count("stream PEL"); k < n; k++) {
            rd(raw, 24);
            length();
        }
        for (uint64_t c = 0, nc = count("stream consumer"); c < nc; c++) {
            string_into(&g_s);
            rd(raw, 8);
            if (t >= 21) rd(raw, 8);
            for (uint64_t k = 0, n = count("consumer PEL"); k < n; k++) rd(raw, 16);
        }
    }
    return len;
}

static void value(int t, uint64_t at, uint64_t db, const buf_t *key, int has_exp, int64_t exp) {
    int logical;
    switch (t) {
    case 0: logical = T_STRING; break;
    case 1: case 10: case 14: case 18: logical = T_LIST; break;
    case 2: case 11: case 20: logical = T_SET; break;
    case 3: case 5: case 12: case 17: logical = T_ZSET; break;
    case 4: case 9: case 13: case 16: logical = T_HASH; break;
    case 15: case 19: case 21: logical = T_STREAM; break;
    default: fail(at, "unknown value type %d", t);
    }
    sum_begin(db, logical, key->p, key->len, has_exp, exp);
    walk_t w = {0, 0, at};
    uint64_t n = 0;
    switch (t) {
    case 0:
        string_into(&g_s);
        field(g_s.p, g_s.len);
        n = 1;
        break;
    case 1: case 2:
        n = count(t == 1 ? "list" : "set");
        for (uint64_t k = 0; k < n; k++) {
            string_into(&g_s);
            field(g_s.p, g_s.len);
        }
        break;
    case 3: case 5:
        n = count("zset");
        for (uint64_t k = 0; k < n; k++) {
            string_into(&g_s);
            field(g_s.p, g_s.len);
            uint64_t sat = g_pos;
            double x;
            if (t == 5) {
                uint64_t bits = rd_le(8);
                memcpy(&x, &bits, 8);
            } else {
                uint8_t ln = rd_u8();
                if (ln == 253) x = NAN;
                else if (ln == 254) x = INFINITY;
                else if (ln == 255) x = -INFINITY;
                else {
                    read_into(ln, &g_s);
                    if (!parse_score(g_s.p, g_s.len, &x)) fail(sat, "bad zset score \"%.*s\"", (int)g_s.len, g_s.p);
                }
            }
            score_field(x);
        }
        break;
    case 4:
        n = count("hash");
        for (uint64_t k = 0; k < 2 * n; k++) {
            string_into(&g_s);
            field(g_s.p, g_s.len);
        }
        break;
    case 9: case 10: case 11: case 20: case 12: case 17: case 13: case 16:
        string_into(&g_s);
        w.mode = (t == 12 || t == 17);
        if (t == 9) walk_zipmap(g_s.p, g_s.len, &w);
        else if (t == 10 || t == 12 || t == 13) walk_ziplist(g_s.p, g_s.len, &w);
        else if (t == 11) walk_intset(g_s.p, g_s.len, &w);
        else walk_listpack(g_s.p, g_s.len, &w);
        n = w.idx;
        if (t == 9 || t == 12 || t == 13 || t == 16 || t == 17) {
            if (n % 2) fail(at, "%s with an odd number of entries", logical == T_ZSET ? "zset" : "hash");
            n /= 2;
        }
        break;
    case 14:
        for (uint64_t k = 0, nodes = count("quicklist node"); k < nodes; k++) {
            string_into(&g_s);
            walk_ziplist(g_s.p, g_s.len, &w);
        }
        n = w.idx;
        break;
    case 18:
        for (uint64_t k = 0, nodes = count("quicklist node"); k < nodes; k++) {
            uint64_t cat = g_pos, container = length();
            string_into(&g_s);
            if (container == 1) {
                field(g_s.p, g_s.len);
                w.idx++;
            } else if (container == 2) {
                walk_listpack(g_s.p, g_s.len, &w);
            } else {
                fail(cat, "bad quicklist container %" PRIu64, container);
            }
        }
        n = w.idx;
        break;
    default:
        n = stream_value(t);
    }
    uint_field(n);
}

static void parse(void) {
    uint8_t magic[9];
    rd(magic, 9);
    if (memcmp(magic, "REDIS", 5) != 0) fail(0, "bad magic \"%.5s\" (not an RDB file)", magic);
    int version = 0;
    for (int k = 5; k < 9; k++) {
        if (magic[k] < '0' || magic[k] > '9') {
            version = -1;
            break;
        }
        version = version * 10 + (magic[k] - '0');
    }
    if (version < 1 || version > 12) fail(5, "unsupported RDB version \"%.4s\"", magic + 5);
    uint64_t db = 0;
    int has_exp = 0;
    int64_t exp = 0;
    buf_t key = {0};
    for (;;) {
        uint64_t at = g_pos;
        uint8_t op = rd_u8();
        if (op == 0xFF) break;
        switch (op) {
        case 0xFE: db = length(); break;
        case 0xFD: has_exp = 1; exp = (int64_t)rd_le(4) * 1000; break;
        case 0xFC: has_exp = 1; exp = (int64_t)rd_le(8); break;
        case 0xFB: length(); length(); break;
        case 0xFA: string_into(&key); string_into(&key); break;
        case 0xF9: rd_u8(); break;
        case 0xF8: length(); break;
        case 0xF5: string_into(&key); break; /* FUNCTION2: the library source */
        case 0xF7: fail(at, "MODULE_AUX data is unsupported (needs the module)");
        case 0xF6: fail(at, "pre-release FUNCTION opcode is unsupported");
        case 6: case 7: fail(at, "module value type %d is unsupported (needs the module)", op);
        default:
            if (op <= 21 && op != 8) {
                string_into(&key);
                value(op, at, db, &key, has_exp, exp);
                has_exp = 0;
            } else {
                fail(at, "unknown opcode or value type %d", op);
            }
        }
    }
    if (version >= 5) {
        uint64_t body_end = g_pos, crc = g_crc, stored = rd_le(8);
        if (stored != 0 && stored != crc)
            fail(body_end, "checksum mismatch: file says %016" PRIx64 ", computed %016" PRIx64, stored, crc);
    }
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
    if (src_open(argv[1], &g_size) != 0) {
        fprintf(stderr, "rdb: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
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
    for (int t = 0; t < 6; t++) fprintf(stderr, "%s\"%s\": %" PRIu64, t ? ", " : "", TYPE_NAMES[t], s_types[t]);
    fprintf(stderr, "}, \"digest\": \"%016" PRIx64 "\"}, \"inner_ns\": %lld}\n", s_digest, ns);
    return 0;
}
