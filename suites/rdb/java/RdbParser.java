// The RDB parser shared by the Java programs: reads through the Source interface each program implements.
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public final class RdbParser {
    // ---- RDB type codes and opcodes: Redis's own names (src/rdb.h) ----
    static final int RDB_TYPE_STRING = 0;
    static final int RDB_TYPE_LIST = 1;
    static final int RDB_TYPE_SET = 2;
    static final int RDB_TYPE_ZSET = 3;
    static final int RDB_TYPE_HASH = 4;
    static final int RDB_TYPE_ZSET_2 = 5; // binary double scores
    static final int RDB_TYPE_MODULE_PRE_GA = 6; // 4.0 release candidates: not skippable
    static final int RDB_TYPE_MODULE_2 = 7; // annotated module value: skippable
    static final int RDB_TYPE_HASH_ZIPMAP = 9;
    static final int RDB_TYPE_LIST_ZIPLIST = 10;
    static final int RDB_TYPE_SET_INTSET = 11;
    static final int RDB_TYPE_ZSET_ZIPLIST = 12;
    static final int RDB_TYPE_HASH_ZIPLIST = 13;
    static final int RDB_TYPE_LIST_QUICKLIST = 14;
    static final int RDB_TYPE_STREAM_LISTPACKS = 15;
    static final int RDB_TYPE_HASH_LISTPACK = 16;
    static final int RDB_TYPE_ZSET_LISTPACK = 17;
    static final int RDB_TYPE_LIST_QUICKLIST_2 = 18;
    static final int RDB_TYPE_STREAM_LISTPACKS_2 = 19;
    static final int RDB_TYPE_SET_LISTPACK = 20;
    static final int RDB_TYPE_STREAM_LISTPACKS_3 = 21;
    static final int RDB_TYPE_HASH_METADATA_PRE_GA = 22; // field TTLs, absolute (7.4 release candidates)
    static final int RDB_TYPE_HASH_LISTPACK_EX_PRE_GA = 23; // listpack with field TTLs (7.4 release candidates)
    static final int RDB_TYPE_HASH_METADATA = 24; // field TTLs relative to a min expire
    static final int RDB_TYPE_HASH_LISTPACK_EX = 25; // listpack with field TTLs, after a min expire

    static final int RDB_OPCODE_SLOT_INFO = 244;
    static final int RDB_OPCODE_FUNCTION2 = 245;
    static final int RDB_OPCODE_FUNCTION_PRE_GA = 246;
    static final int RDB_OPCODE_MODULE_AUX = 247;
    static final int RDB_OPCODE_IDLE = 248;
    static final int RDB_OPCODE_FREQ = 249;
    static final int RDB_OPCODE_AUX = 250;
    static final int RDB_OPCODE_RESIZEDB = 251;
    static final int RDB_OPCODE_EXPIRETIME_MS = 252;
    static final int RDB_OPCODE_EXPIRETIME = 253;
    static final int RDB_OPCODE_SELECTDB = 254;
    static final int RDB_OPCODE_EOF = 255;

    static final int RDB_MODULE_OPCODE_EOF = 0;
    static final int RDB_MODULE_OPCODE_SINT = 1;
    static final int RDB_MODULE_OPCODE_UINT = 2;
    static final int RDB_MODULE_OPCODE_FLOAT = 3;
    static final int RDB_MODULE_OPCODE_DOUBLE = 4;
    static final int RDB_MODULE_OPCODE_STRING = 5;

    static final int RDB_ENC_INT8 = 0;
    static final int RDB_ENC_INT16 = 1;
    static final int RDB_ENC_INT32 = 2;
    static final int RDB_ENC_LZF = 3;

    static final int QUICKLIST_NODE_CONTAINER_PLAIN = 1;
    static final int QUICKLIST_NODE_CONTAINER_PACKED = 2;

    static final long EB_EXPIRE_TIME_MAX = (1L << 48) - 1; // the largest field expiry Redis accepts (ms)
    static final int MAX_VERSION = 12;

    /** How the parser gets bytes: fill b[off..off+len) completely or throw. */
    public interface Source {
        void readFully(byte[] b, int off, int len) throws IOException;
    }

    /** A Source that holds the whole file (RdbInPlace.java): the parser reads it in place, without calling
     *  readFully: strings and compact blobs are borrowed from it, never copied, and the file's CRC-64 is
     *  computed from it a large piece at a time (caught up after a key once 64 KiB behind), not per read. */
    public interface WholeFile extends Source {
        byte[] bytes();
    }

    /** A file the parser cannot read: the offset and the problem. */
    public static final class RdbException extends RuntimeException {
        final long offset;

        RdbException(long offset, String msg) {
            super(msg);
            this.offset = offset;
        }
    }

    static RdbException fail(long offset, String msg) {
        return new RdbException(offset, msg);
    }

    /** Raw file bytes for an error message: printable ASCII kept, quote and backslash escaped, every other byte
     *  as \xNN, so a message stays one line and cannot plant an iorace-result line. At most 32 input bytes. */
    static String esc(byte[] b, int off, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = off; i < off + Math.min(n, 32); i++) {
            int c = b[i] & 0xFF;
            if (c == '"' || c == '\\') sb.append('\\').append((char) c);
            else if (c >= 0x20 && c < 0x7f) sb.append((char) c);
            else sb.append(String.format("\\x%02x", c));
        }
        return sb.toString();
    }

    // ---- CRC-64/Jones, reflected, slicing-by-8 ----
    /** The slicing tables, flat: TAB[256 * j + b] is byte b's CRC advanced over j more zero bytes. One static
     *  final array, so C2 knows its length (a constant) and that an index 256 * j + (x & 0xFF) is in range: no
     *  bounds check per lookup. (As long[8][256], each row is loaded from the outer array, its length unknown,
     *  and each of the 8 lookups per 8 bytes kept its cmp/jae: the CRC ran ~1.4x slower.) */
    static final long[] TAB = new long[8 * 256];

    static {
        for (int i = 0; i < 256; i++) {
            long c = i;
            for (int k = 0; k < 8; k++) c = (c & 1) != 0 ? (c >>> 1) ^ 0x95AC9329AC4BC9B5L : c >>> 1;
            TAB[i] = c;
        }
        for (int j = 1; j < 8; j++)
            for (int i = 0; i < 256; i++) TAB[256 * j + i] = (TAB[256 * (j - 1) + i] >>> 8) ^ TAB[(int) (TAB[256 * (j - 1) + i] & 0xFF)];
    }

    /** 8 bytes of a byte[] as one little-endian long: one load once compiled, not eight. */
    static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** One slicing-by-8 step: the CRC of the 8 bytes x (the data xored with the CRC so far). */
    static long step8(long x) {
        return TAB[7 * 256 + (int) (x & 0xFF)] ^ TAB[6 * 256 + (int) ((x >>> 8) & 0xFF)] ^ TAB[5 * 256 + (int) ((x >>> 16) & 0xFF)]
                ^ TAB[4 * 256 + (int) ((x >>> 24) & 0xFF)] ^ TAB[3 * 256 + (int) ((x >>> 32) & 0xFF)]
                ^ TAB[2 * 256 + (int) ((x >>> 40) & 0xFF)] ^ TAB[256 + (int) ((x >>> 48) & 0xFF)] ^ TAB[(int) (x >>> 56)];
    }

    /** The lane of crc64's two-way interleaving; SHIFT1 advances a CRC over LANE zero bytes (a linear map,
     *  applied a byte of the CRC at a time like the slicing tables; flat as TAB). */
    static final int LANE = 1024;
    static final long[] SHIFT1 = new long[8 * 256];

    static {
        byte[] zeros = new byte[LANE];
        for (int j = 0; j < 8; j++)
            for (int v = 1; v < 256; v++) {
                int low = v & -v; // the lowest bit: the map of the rest is known already
                SHIFT1[256 * j + v] = SHIFT1[256 * j + (v ^ low)] ^ crc64Serial((long) low << (8 * j), zeros, 0, LANE);
            }
    }

    static long shiftBy(long[] t, long c) {
        return t[(int) (c & 0xFF)] ^ t[256 + (int) ((c >>> 8) & 0xFF)] ^ t[2 * 256 + (int) ((c >>> 16) & 0xFF)]
                ^ t[3 * 256 + (int) ((c >>> 24) & 0xFF)] ^ t[4 * 256 + (int) ((c >>> 32) & 0xFF)]
                ^ t[5 * 256 + (int) ((c >>> 40) & 0xFF)] ^ t[6 * 256 + (int) ((c >>> 48) & 0xFF)] ^ t[7 * 256 + (int) (c >>> 56)];
    }

    /** crc64 of p[off..off+n) after crc. Blocks of two lanes are hashed as two independent slicing-by-8 chains
     *  in one loop (one chain waits on its table loads; two keep the loads busy: measured 0.87-0.91x three lanes,
     *  docs/results/2026-11-24-rdb-java-in-place), then joined: the CRC has no init or xorout, so crc(A B) is
     *  crc(A) advanced over len(B) zero bytes, xor crc(B) from 0. */
    static long crc64(long crc, byte[] p, int off, int n) {
        while (n >= 2 * LANE) {
            long a = crc, b = 0;
            for (int i = off, end = off + LANE; i < end; i += 8) {
                a = step8(a ^ (long) LE64.get(p, i));
                b = step8(b ^ (long) LE64.get(p, i + LANE));
            }
            crc = shiftBy(SHIFT1, a) ^ b;
            off += 2 * LANE;
            n -= 2 * LANE;
        }
        return crc64Serial(crc, p, off, n);
    }

    /** Slicing-by-8, one chain. */
    static long crc64Serial(long crc, byte[] p, int off, int n) {
        int i = off, end = off + n;
        for (; end - i >= 8; i += 8) crc = step8(crc ^ (long) LE64.get(p, i));
        for (; i < end; i++) crc = TAB[(int) ((crc ^ p[i]) & 0xFF)] ^ (crc >>> 8);
        return crc;
    }

    /** A CRC-64 fed in many small pieces (the 1-8 byte reads, the digest's 4-byte lengths): staged in a
     *  16 KiB buffer and hashed 8 bytes at a time when it fills, instead of a table step per byte, a chain of
     *  dependent loads that JFR showed as the parser's hottest method. value() equals crc64 over them all. */
    static final class Crc64Stream {
        /** STAGE bytes are hashed at a time; the array has 32 more, so a field's fixed 32-byte copy always fits. */
        static final int STAGE = 16 << 10;
        private final byte[] stage = new byte[STAGE + 32];
        private int n;
        private long crc;

        void update(byte[] b, int off, int len) {
            if (len <= STAGE - n) {
                System.arraycopy(b, off, stage, n, len);
                n += len;
                return;
            }
            crc = crc64(crc, stage, 0, n);
            n = 0;
            if (len >= STAGE) {
                crc = crc64(crc, b, off, len);
            } else {
                System.arraycopy(b, off, stage, 0, len);
                n = len;
            }
        }

        long value() {
            return crc64(crc, stage, 0, n);
        }

        /** One field of the digest: its length (4 bytes, little-endian), then its bytes. A field of up to 32
         *  bytes whose array has 32 from off on enters with one fixed 32-byte copy (four 8-byte moves; the bytes
         *  past the field are overwritten by the next one or never hashed), not a call of the arraycopy stub
         *  for a length that changes every field. */
        void field(byte[] b, int off, int len) {
            int k = n;
            if (len <= STAGE - 4 - k) {
                byte[] st = stage;
                LE32.set(st, k, len);
                if (len <= 32 && off <= b.length - 32) {
                    LE64.set(st, k + 4, (long) LE64.get(b, off));
                    LE64.set(st, k + 12, (long) LE64.get(b, off + 8));
                    LE64.set(st, k + 20, (long) LE64.get(b, off + 16));
                    LE64.set(st, k + 28, (long) LE64.get(b, off + 24));
                } else {
                    System.arraycopy(b, off, st, k + 4, len);
                }
                n = k + 4 + len;
                return;
            }
            update(new byte[] {(byte) len, (byte) (len >>> 8), (byte) (len >>> 16), (byte) (len >>> 24)}, 0, 4);
            update(b, off, len);
        }
    }

    // ---- the summary ----
    static final String[] TYPE_NAMES = {"string", "list", "set", "zset", "hash", "stream", "module"};
    static final int T_STRING = 0, T_LIST = 1, T_SET = 2, T_ZSET = 3, T_HASH = 4, T_STREAM = 5, T_MODULE = 6;

    /** The logical type of a value type code (index into TYPE_NAMES), -1 for opcodes and unknown codes. */
    static int logicalType(int t) {
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

    long keys, expires, fieldExpires, moduleAux;
    final Crc64Stream digest = new Crc64Stream();
    final long[] types = new long[7];
    final Map<Long, Long> dbs = new TreeMap<>(Long::compareUnsigned);
    private final byte[] lenBuf = new byte[4];

    void field(byte[] b, int off, int n) {
        digest.field(b, off, n);
    }

    static final byte[][] TYPE_BYTES = new byte[7][];

    static {
        for (int t = 0; t < 7; t++) TYPE_BYTES[t] = TYPE_NAMES[t].getBytes(StandardCharsets.US_ASCII);
    }

    /** Decimal text of v written in dec, ending at DEC_END, without a String: decimal returns where it starts.
     *  dec has 32 bytes past DEC_END, so the text (at most 20 bytes) enters the digest with the fixed copy. */
    static final int DEC_END = 24;
    private final byte[] dec = new byte[DEC_END + 32];
    /** "00" to "99": two digits per division. */
    static final byte[] PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            PAIRS[2 * i] = (byte) ('0' + i / 10);
            PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    int decimal(long v) {
        byte[] d = dec;
        int i = DEC_END;
        boolean neg = v < 0;
        if (!neg) v = -v; // negative: Long.MIN_VALUE has no positive
        while (v < Integer.MIN_VALUE) { // 64-bit divisions only while 32 bits do not hold it
            long q = v / 100;
            int r = (int) (q * 100 - v);
            v = q;
            d[--i] = PAIRS[2 * r + 1];
            d[--i] = PAIRS[2 * r];
        }
        int w = (int) v;
        while (w <= -100) {
            int q = w / 100, r = q * 100 - w;
            w = q;
            d[--i] = PAIRS[2 * r + 1];
            d[--i] = PAIRS[2 * r];
        }
        if (w <= -10) {
            d[--i] = PAIRS[-2 * w + 1];
            d[--i] = PAIRS[-2 * w];
        } else d[--i] = (byte) ('0' - w);
        if (neg) d[--i] = '-';
        return i;
    }

    void longField(long v) {
        int i = decimal(v);
        field(dec, i, DEC_END - i);
    }

    void ulongField(long v) {
        if (v >= 0) longField(v);
        else textField(Long.toUnsignedString(v));
    }

    void field(byte[] b) {
        field(b, 0, b.length);
    }

    void textField(String s) {
        field(s.getBytes(StandardCharsets.US_ASCII));
    }

    /** A score's 16 hex digits, and 32 bytes of room for the digest's fixed copy. */
    private final byte[] hex = new byte[48];

    /** The 8 lowercase hex digits of x's low 32 bits, as a little-endian long (the most significant digit
     *  first in memory), without a table: each nibble spread into a byte, then '0' added, and 'a' - '0' - 10
     *  more where the nibble is 10 or more (its byte + 6 carries into bit 4). */
    static long hex8(long x) {
        x = ((x & 0xFFFF0000L) << 16) | (x & 0xFFFFL);
        x = ((x & 0x0000FF000000FF00L) << 8) | (x & 0x000000FF000000FFL);
        x = ((x & 0x00F000F000F000F0L) << 4) | (x & 0x000F000F000F000FL);
        long letters = ((x + 0x0606060606060606L) >>> 4) & 0x0101010101010101L;
        return Long.reverseBytes(x + 0x3030303030303030L + letters * ('a' - '0' - 10));
    }

    void scoreField(double x) {
        long bits = Double.isNaN(x) ? 0x7ff8000000000000L : Double.doubleToRawLongBits(x);
        byte[] h = hex;
        LE64.set(h, 0, hex8(bits >>> 32));
        LE64.set(h, 8, hex8(bits & 0xFFFFFFFFL));
        field(h, 0, 16);
    }

    /** A hash field's absolute expiry in ms (0 = none, an empty field), counted. */
    void fieldTtl(long expireAt) {
        if (expireAt == 0) {
            field(lenBuf, 0, 0);
            return;
        }
        fieldExpires++;
        longField(expireAt);
    }

    void begin(long db, int t, byte[] key, int koff, int klen, boolean hasExp, long exp) {
        ulongField(db);
        field(TYPE_BYTES[t]);
        field(key, koff, klen);
        if (hasExp) {
            longField(exp);
            expires++;
        } else {
            field(key, 0, 0);
        }
        keys++;
        types[t]++;
        dbs.merge(db, 1L, Long::sum);
    }

    String json() {
        List<String> d = new ArrayList<>(), t = new ArrayList<>();
        for (Map.Entry<Long, Long> e : dbs.entrySet())
            d.add("\"" + Long.toUnsignedString(e.getKey()) + "\": " + e.getValue());
        for (int i = 0; i < 7; i++) t.add("\"" + TYPE_NAMES[i] + "\": " + types[i]);
        return String.format("{\"keys\": %d, \"expires\": %d, \"dbs\": {%s}, \"types\": {%s}, \"field_expires\": %d, "
                + "\"module_aux\": %d, \"digest\": \"%016x\"}",
                keys, expires, String.join(", ", d), String.join(", ", t), fieldExpires, moduleAux, digest.value());
    }

    /** A score written as text: the whole field must be what C's strtod reads (Redis loads these with
     *  strtod/sscanf): optional sign, then a decimal float, a hex float (0x, optional p exponent), inf, infinity,
     *  nan or nan(chars), any case; no space, nothing after it. parseDouble rounds correctly, inf on overflow. */
    static final Pattern SCORE = Pattern.compile("([+-]?)(?:(inf(?:inity)?)|(nan(?:\\([0-9a-z_]*\\))?)"
            + "|0x([0-9a-f]+\\.?[0-9a-f]*|\\.[0-9a-f]+)(?:p([+-]?[0-9]+))?"
            + "|(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:e[+-]?[0-9]+)?)", Pattern.CASE_INSENSITIVE);

    static final double[] POW10 = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

    static final long[] POW10_LONG = new long[19]; // 10^0 .. 10^18

    static {
        POW10_LONG[0] = 1;
        for (int i = 1; i < 19; i++) POW10_LONG[i] = POW10_LONG[i - 1] * 10;
    }

    /** The double nearest to m / d (ties to even), for 0 <= m, 0 < d < 2^63 and m / d between 2^-64 and 2^64:
     *  q = m * 2^s / d in 128-bit integers, s chosen so that q has 55 or more bits; its top 53 bits are the
     *  mantissa, the bits below them and the remainder decide the rounding (rust/src/lib.rs's nearest_quotient,
     *  the 128-by-64-bit division by Hacker's Delight's divlu). */
    static double nearestQuotient(long m, long d) {
        if (m == 0) return 0;
        int bm = 64 - Long.numberOfLeadingZeros(m), bd = 64 - Long.numberOfLeadingZeros(d);
        int s = Math.max(55 + bd - bm, 0); // m * 2^s / d >= 2^54
        long hi = s >= 64 ? m << (s - 64) : s == 0 ? 0 : m >>> (64 - s), lo = s >= 64 ? 0 : m << s;
        // divlu: (hi, lo) / d with hi < d; q < 2^57
        int z = Long.numberOfLeadingZeros(d);
        long v = d << z, vn1 = v >>> 32, vn0 = v & 0xFFFFFFFFL, b = 1L << 32;
        long un32 = z == 0 ? hi : (hi << z) | (lo >>> (64 - z)), un10 = lo << z;
        long un1 = un10 >>> 32, un0 = un10 & 0xFFFFFFFFL;
        long q1 = Long.divideUnsigned(un32, vn1), rhat = un32 - q1 * vn1;
        while (Long.compareUnsigned(q1, b) >= 0 || Long.compareUnsigned(q1 * vn0, b * rhat + un1) > 0) {
            q1--;
            rhat += vn1;
            if (Long.compareUnsigned(rhat, b) >= 0) break;
        }
        long un21 = un32 * b + un1 - q1 * v;
        long q0 = Long.divideUnsigned(un21, vn1);
        rhat = un21 - q0 * vn1;
        while (Long.compareUnsigned(q0, b) >= 0 || Long.compareUnsigned(q0 * vn0, b * rhat + un0) > 0) {
            q0--;
            rhat += vn1;
            if (Long.compareUnsigned(rhat, b) >= 0) break;
        }
        long r = un21 * b + un0 - q0 * v; // the remainder, shifted by z: only whether it is 0 matters
        long q = q1 * b + q0;
        int drop = 64 - Long.numberOfLeadingZeros(q) - 53; // q's bits below the mantissa: 2 or more
        long mant = q >>> drop, low = q & ((1L << drop) - 1), half = 1L << (drop - 1);
        if (low > half || (low == half && (r != 0 || (mant & 1) == 1))) mant++; // 2^53 at most: exact
        return mant * Double.longBitsToDouble((long) (1023 + drop - s) << 52); // exact: 2^(drop - s) times an integer
    }

    /** Eisel-Lemire's table (fast_float, Rust's core::num::dec2flt): 5^q in 128 bits, q in [POW5_MIN, POW5_MAX]
     *  (the plain scores' exponents: 0 to 18 digits after the point), top bit set. For q >= 0, 5^q shifted left
     *  (or truncated) to 128 bits; for q < 0, floor(2^(z + 127) / 5^-q) + 1, z the bit length of 5^-q, as Rust's
     *  dec2flt_table.py writes them for q >= -27 (every q here). Computed exactly at class init with BigInteger. */
    static final int POW5_MIN = -18, POW5_MAX = 0;
    static final long[] POW5_HI = new long[POW5_MAX - POW5_MIN + 1], POW5_LO = new long[POW5_MAX - POW5_MIN + 1];

    static {
        for (int q = POW5_MIN; q <= POW5_MAX; q++) {
            BigInteger p = BigInteger.valueOf(5).pow(Math.abs(q)), c;
            if (q >= 0) {
                int len = p.bitLength();
                c = len <= 128 ? p.shiftLeft(128 - len) : p.shiftRight(len - 128);
            } else {
                int z = p.bitLength(); // 2^(z-1) < 5^-q < 2^z
                c = BigInteger.ONE.shiftLeft(z + 127).divide(p).add(BigInteger.ONE);
                while (c.bitLength() > 128) c = c.shiftRight(1);
            }
            POW5_HI[q - POW5_MIN] = c.shiftRight(64).longValue();
            POW5_LO[q - POW5_MIN] = c.longValue();
        }
    }

    /** The high 64 bits of the unsigned 128-bit product a * b (JDK 17 has only the signed Math.multiplyHigh:
     *  a negative operand as signed is that value less 2^64, so the unsigned high word adds the other back). */
    static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /** Eisel-Lemire (Lemire, "Number Parsing at a Gigabyte per Second", sections 5-6; Rust's dec2flt
     *  compute_float): the bits of the double nearest to w * 10^q (ties to even), for w != 0 (unsigned) and q in
     *  [POW5_MIN, POW5_MAX], or -1 when the 128-bit product cannot decide (then the caller's exact path). */
    static long eiselLemire(long w, int q) {
        int lz = Long.numberOfLeadingZeros(w);
        w <<= lz;
        long hi5 = POW5_HI[q - POW5_MIN], lo5 = POW5_LO[q - POW5_MIN];
        long lo = w * hi5, hi = unsignedMultiplyHigh(w, hi5);
        if ((hi & 0x1FF) == 0x1FF) { // the bits below the 55 that matter all ones: the second product decides
            long second = unsignedMultiplyHigh(w, lo5);
            lo += second;
            if (Long.compareUnsigned(second, lo) > 0) hi++;
        }
        // (Rust's compute_float gives up here when lo is all ones and q is outside [-27, 55]: q never is)
        int upper = (int) (hi >>> 63);
        long mant = hi >>> (upper + 9); // 54 bits: the 53 and the rounding bit
        int e2 = ((q * (152170 + 65536)) >> 16) + 63 + upper - lz + 1023; // the biased exponent
        if (e2 <= 0) return -1; // subnormal: never for q >= POW5_MIN (w * 10^q >= 10^-18); the exact path
        // exactly halfway (possible only where 5^q is exact in 64 bits: q in [-4, 23], here [-4, 0]): ties to even
        if ((lo == 0 || lo == 1) && q >= -4 && (mant & 3) == 1 && (mant << (upper + 9)) == hi) mant &= ~1L;
        mant += mant & 1;
        mant >>>= 1;
        if (mant >= (2L << 52)) {
            mant = 1L << 52;
            e2++;
        }
        // no infinity: w < 2^64 and q <= 0
        return ((long) e2 << 52) | (mant & ((1L << 52) - 1));
    }

    /** A score text that is not a whole number for strtod (parseScore throws it; one instance, no stack trace:
     *  a score is returned as a double, not a boxed Double that null could mark bad). */
    static final class BadScore extends Exception {
        BadScore() {
            super(null, null, false, false);
        }
    }

    static final BadScore BAD_SCORE = new BadScore();

    /** The score a text holds. Small enough for C2 to inline where it is hot (the rest is otherScore): a
     *  Double it returned was allocated for every score, the method being too big to inline. */
    static double parseScore(byte[] b, int off, int n) throws BadScore {
        // The common text, [-]digits[.digits] with no exponent, skips the regex (JFR: a Matcher per score was
        // a fifth of the parse). Up to 15 digits it is exact (Clinger: an integer below 2^53 over an exact
        // power of ten is one correctly rounded division), 16 to 19 Eisel-Lemire, longer ones parseDouble.
        int i = off, end = off + n, digits = 0, frac = 0;
        boolean minus = n > 0 && b[i] == '-', dot = false, plain = n > 0;
        if (minus) i++;
        long mant = 0;
        for (int k = i; k < end && plain; k++) {
            int c = b[k];
            if (c >= '0' && c <= '9') {
                if (digits < 19) mant = mant * 10 + (c - '0'); // 19 digits < 2^64: unsigned
                digits++;
                if (dot) frac++;
            } else if (c == '.' && !dot && k > i && k + 1 < end) {
                dot = true;
            } else {
                plain = false;
            }
        }
        if (plain && digits > 0 && digits <= 19) {
            if (digits <= 15) {
                double x = mant / POW10[frac];
                return minus ? -x : x;
            }
            // mant holds them all (unsigned): Eisel-Lemire (frac <= 18: a digit precedes the point)
            long bits = mant == 0 ? 0 : eiselLemire(mant, -frac);
            if (bits != -1) return Double.longBitsToDouble(minus ? bits | Long.MIN_VALUE : bits);
            return exactScore(b, off, n, mant, frac, minus);
        }
        return otherScore(b, off, n, plain && digits > 0);
    }

    /** Where Eisel-Lemire cannot decide: the 128-bit quotient below 2^63, else parseDouble. */
    static double exactScore(byte[] b, int off, int n, long mant, int frac, boolean minus) throws BadScore {
        if (mant < 0) return otherScore(b, off, n, true);
        double x = frac == 0 ? (double) mant : nearestQuotient(mant, POW10_LONG[frac]);
        return minus ? -x : x;
    }

    /** parseScore's rare texts: plain with more than 19 digits (validated already), or anything else. */
    static double otherScore(byte[] b, int off, int n, boolean plain) throws BadScore {
        if (plain) return Double.parseDouble(new String(b, off, n, StandardCharsets.ISO_8859_1));
        String s = new String(b, off, n, StandardCharsets.ISO_8859_1);
        Matcher m = SCORE.matcher(s);
        if (!m.matches()) throw BAD_SCORE;
        boolean neg = m.group(1).equals("-");
        if (m.group(2) != null) return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        if (m.group(3) != null) return Double.NaN;
        if (m.group(4) != null) {
            long e = 0;
            if (m.group(5) != null) {
                String d = m.group(5);
                boolean eneg = d.startsWith("-");
                for (char c : d.toCharArray()) if (c >= '0' && c <= '9') e = Math.min(e * 10 + (c - '0'), 1L << 30);
                if (eneg) e = -e;
            }
            double x = Double.parseDouble("0x" + m.group(4) + "p" + e); // Java's hex floats need the p exponent
            return neg ? -x : x;
        }
        return Double.parseDouble(s);
    }

    // ---- reading with bounds, CRC and offset ----
    private final Source src;
    private final long size;
    private long pos;
    private final Crc64Stream crc = new Crc64Stream();
    private final byte[] b8 = new byte[24];

    /** A growable byte buffer: p[0..len). */
    /** A growable byte buffer: p[off..off+len). Read in place, p is the file and off where the bytes are
     *  (borrowed); reserve and grow go back to the buffer's own array, at 0, so nothing writes into the file. */
    static final class Buf {
        byte[] own = new byte[64];
        byte[] p = own;
        int off, len;

        void reserve(int n) {
            if (own.length < n) own = new byte[Math.max(n, 2 * own.length)];
            p = own;
            off = 0;
        }

        /** Make room for n bytes keeping the first len (after reserve). */
        void grow(int n) {
            if (own.length < n) own = java.util.Arrays.copyOf(own, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(n, 2L * own.length)));
            p = own;
        }
    }

    private final Buf s = new Buf(), key = new Buf(), lzf = new Buf();
    /** In place: the file (null otherwise), its CRC-64 so far and how far it has been computed. */
    private byte[] data;
    private long fileCrc;
    private int crcAt;

    /** Read in place from now on (data holds the whole file; size must be its length). */
    void inPlace(byte[] data) {
        this.data = data;
    }

    /** In place: the file's CRC-64 up to here, once 64 KiB behind (the bytes are still in the cache). */
    void catchUp() {
        if (pos - crcAt >= 1 << 16) {
            fileCrc = crc64(fileCrc, data, crcAt, (int) pos - crcAt);
            crcAt = (int) pos;
        }
    }

    public RdbParser(Source src, long size) {
        this.src = src;
        this.size = size;
    }

    long left() {
        return size - pos;
    }

    void read(byte[] b, int off, int n) {
        if (n > left()) throw fail(pos, "need " + n + " bytes but only " + left() + " remain (truncated file or bad length)");
        if (data != null) {
            System.arraycopy(data, (int) pos, b, off, n);
            pos += n;
            return;
        }
        try {
            src.readFully(b, off, n);
        } catch (IOException e) {
            throw fail(pos, "read failed: " + e);
        }
        crc.update(b, off, n);
        pos += n;
    }

    int u8() {
        if (data != null && pos < size) return data[(int) pos++] & 0xFF;
        read(b8, 0, 1);
        return b8[0] & 0xFF;
    }

    long le(int w) {
        if (data != null && w <= left()) {
            int i = (int) pos;
            long v = 0;
            for (int k = 0; k < w; k++) v |= (data[i + k] & 0xFFL) << (8 * k);
            pos += w;
            return v;
        }
        read(b8, 0, w);
        long v = 0;
        for (int k = 0; k < w; k++) v |= (b8[k] & 0xFFL) << (8 * k);
        return v;
    }

    long be(int w) {
        read(b8, 0, w);
        long v = 0;
        for (int k = 0; k < w; k++) v = (v << 8) | (b8[k] & 0xFFL);
        return v;
    }

    static long sext(long v, int bits) {
        return (v << (64 - bits)) >> (64 - bits);
    }

    private boolean lastEnc;

    /** A length (unsigned, may exceed Long.MAX_VALUE); sets lastEnc for special string encodings. */
    long lengthEnc() {
        long at = pos;
        int b = u8();
        lastEnc = false;
        switch (b >> 6) {
            case 0:
                return b & 0x3F;
            case 1:
                return ((long) (b & 0x3F) << 8) | u8();
            case 3:
                lastEnc = true;
                return b & 0x3F;
            default:
                if (b == 0x80) return be(4);
                if (b == 0x81) return be(8);
                throw fail(at, String.format("bad length byte 0x%02x", b));
        }
    }

    long length() {
        long at = pos;
        long v = lengthEnc();
        if (lastEnc) throw fail(at, "encoded string where a length was expected");
        return v;
    }

    long count(String what) {
        long at = pos;
        long n = length();
        if (Long.compareUnsigned(n, left()) > 0)
            throw fail(at, what + " count " + Long.toUnsignedString(n) + " exceeds the " + left() + " bytes left");
        return n;
    }

    void readInto(long n, Buf out) {
        if (Long.compareUnsigned(n, left()) > 0)
            throw fail(pos, "need " + Long.toUnsignedString(n) + " bytes but only " + left() + " remain (truncated file or bad length)");
        if (n > Integer.MAX_VALUE - 16) throw fail(pos, "string of " + n + " bytes is too large");
        if (data != null) { // in place: borrowed
            out.p = data;
            out.off = (int) pos;
            out.len = (int) n;
            pos += n;
            return;
        }
        out.reserve((int) n);
        out.len = (int) n;
        read(out.p, 0, (int) n);
    }

    void setText(Buf out, String t) {
        byte[] b = t.getBytes(StandardCharsets.US_ASCII);
        out.reserve(b.length);
        System.arraycopy(b, 0, out.p, 0, b.length);
        out.len = b.length;
    }

    /** An RDB string (raw, int-encoded as decimal text, or LZF) into out. */
    void stringInto(Buf out) {
        byte[] d = data;
        if (d != null && pos + 2 <= d.length) { // in place, the common string: a 6- or 14-bit length, in the file
            int i = (int) pos, b = d[i] & 0xFF, n, h;
            if (b < 0x40) {
                n = b;
                h = 1;
            } else if (b < 0x80) {
                n = (b & 0x3F) << 8 | (d[i + 1] & 0xFF);
                h = 2;
            } else {
                n = -1;
                h = 0;
            }
            if (n >= 0 && n <= d.length - i - h) {
                out.p = d;
                out.off = i + h;
                out.len = n;
                pos = i + h + n;
                return;
            }
        }
        long at = pos;
        long v = lengthEnc();
        if (!lastEnc) {
            readInto(v, out);
            return;
        }
        long num;
        if (v == RDB_ENC_INT8) num = sext(le(1), 8);
        else if (v == RDB_ENC_INT16) num = sext(le(2), 16);
        else if (v == RDB_ENC_INT32) num = sext(le(4), 32);
        else if (v == RDB_ENC_LZF) {
            long clen = length(), ulen = length();
            if (Long.compareUnsigned(clen, Long.divideUnsigned(-1L - 16, 100)) > 0 || Long.compareUnsigned(ulen, clen * 100 + 16) > 0)
                throw fail(at, "LZF uncompressed length " + Long.toUnsignedString(ulen) + " implausible for "
                        + Long.toUnsignedString(clen) + " compressed bytes");
            readInto(clen, lzf);
            if (ulen > Integer.MAX_VALUE - 16) throw fail(at, "LZF string of " + ulen + " bytes is too large");
            lzfDecompress(lzf.p, lzf.off, lzf.len, (int) ulen, out, at);
            return;
        } else throw fail(at, "unknown string encoding " + v);
        int i = decimal(num), len = DEC_END - i;
        out.reserve(len);
        System.arraycopy(dec, i, out.p, 0, len);
        out.len = len;
    }

    static void lzfDecompress(byte[] src, int soff, int n, int ulen, Buf out, long at) {
        // grow as the data decompresses: a crafted header cannot make us reserve its claimed size up front
        out.reserve((int) Math.min(ulen, 4L * n));
        byte[] o = out.p;
        int ol = 0, i = soff;
        n += soff; // from here the end of the compressed bytes
        while (i < n) {
            int ctrl = src[i++] & 0xFF;
            if (ctrl < 32) {
                int ln = ctrl + 1;
                if (ln > n - i || ln > ulen - ol) throw fail(at, "corrupt LZF data (literal run past the end)");
                out.grow(ol + ln);
                o = out.p;
                System.arraycopy(src, i, o, ol, ln);
                ol += ln;
                i += ln;
            } else {
                int ln = ctrl >> 5;
                if (ln == 7) {
                    if (i >= n) throw fail(at, "corrupt LZF data (truncated)");
                    ln += src[i++] & 0xFF;
                }
                if (i >= n) throw fail(at, "corrupt LZF data (truncated)");
                int back = ((ctrl & 0x1F) << 8) + (src[i++] & 0xFF) + 1;
                ln += 2;
                if (back > ol || ln > ulen - ol) throw fail(at, "corrupt LZF data (back reference out of range)");
                out.grow(ol + ln);
                o = out.p;
                if (back >= ln) { // no overlap: one copy
                    System.arraycopy(o, ol - back, o, ol, ln);
                    ol += ln;
                } else for (int k = 0; k < ln; k++, ol++) o[ol] = o[ol - back]; // overlaps what it writes
            }
        }
        if (ol != ulen) throw fail(at, "LZF data decompressed to " + ol + " bytes, header says " + ulen);
        out.len = ol;
    }

    // ---- compact encodings: walk a blob's entries ----
    private boolean wZset, wTtls; // odd entries are scores; every third entry is a field TTL
    private long wIdx, wAt;
    private String wWhat;
    private int wLen;

    void wStr(byte[] b, int off, int n) {
        if (wTtls && wIdx % 3 == 2) throw fail(wAt, "hash listpack with field TTLs: a TTL is not an integer");
        if (wZset && (wIdx & 1) == 1) {
            double x;
            try {
                x = parseScore(b, off, n);
            } catch (BadScore e) {
                throw fail(wAt, "bad zset score \"" + esc(b, off, n) + "\"");
            }
            scoreField(x);
        } else {
            field(b, off, n);
        }
        wIdx++;
    }

    void wNum(long v) {
        if (wTtls && wIdx % 3 == 2) {
            if (v < 0 || v > EB_EXPIRE_TIME_MAX) throw fail(wAt, "hash field expiry " + v + " out of range");
            fieldTtl(v);
            wIdx++;
            return;
        }
        if (wZset && (wIdx & 1) == 1) scoreField((double) v);
        else longField(v);
        wIdx++;
    }

    void need(long i, long n) {
        if (n < 0 || i + n > wLen) throw fail(wAt, "corrupt " + wWhat + " (entry past its end)");
    }

    static long le32(byte[] b, int i) {
        return (b[i] & 0xFFL) | (b[i + 1] & 0xFFL) << 8 | (b[i + 2] & 0xFFL) << 16 | (b[i + 3] & 0xFFL) << 24;
    }

    static long leInt(byte[] b, int i, int w) {
        long v = 0;
        for (int k = 0; k < w; k++) v |= (b[i + k] & 0xFFL) << (8 * k);
        return sext(v, 8 * w);
    }

    /** A ziplist's entries; its header (zlbytes, zltail, zllen) and every prevlen are checked against the walk. */
    void ziplist(byte[] b, int o, int len) {
        wWhat = "ziplist";
        wLen = len;
        if (len < 11 || le32(b, o + 0) != len) throw fail(wAt, "corrupt ziplist header");
        long zltail = le32(b, o + 4);
        int zllen = (b[o + 8] & 0xFF) | (b[o + 9] & 0xFF) << 8;
        int i = 10, n = 0;
        int last = 10, start = 10;
        long prev = 0; // the last entry's offset, the previous entry's size
        for (;; n++) {
            if (n > 0) {
                last = start;
                prev = i - start;
            }
            need(i, 1);
            int c = b[o + i] & 0xFF;
            if (c == 0xFF) break;
            start = i;
            long plen;
            if (c == 0xFE) {
                need(i, 5);
                plen = le32(b, o + i + 1);
                i += 5;
            } else {
                plen = c;
                i += 1;
            }
            if (plen != prev) throw fail(wAt, "corrupt ziplist (prevlen " + plen + ", previous entry has " + prev + " bytes)");
            need(i, 1);
            int enc = b[o + i] & 0xFF;
            if ((enc >> 6) < 3) {
                long ln;
                if ((enc >> 6) == 0) {
                    ln = enc & 0x3F;
                    i += 1;
                } else if ((enc >> 6) == 1) {
                    need(i, 2);
                    ln = ((enc & 0x3F) << 8) | (b[o + i + 1] & 0xFF);
                    i += 2;
                } else if (enc == 0x80) {
                    need(i, 5);
                    ln = (b[o + i + 1] & 0xFFL) << 24 | (b[o + i + 2] & 0xFF) << 16 | (b[o + i + 3] & 0xFF) << 8 | (b[o + i + 4] & 0xFF);
                    i += 5;
                } else throw fail(wAt, String.format("corrupt ziplist (encoding 0x%02x)", enc));
                need(i, ln);
                wStr(b, o + i, (int) ln);
                i += (int) ln;
                continue;
            }
            i += 1;
            int wd;
            if (enc == 0xC0) wd = 2;
            else if (enc == 0xD0) wd = 4;
            else if (enc == 0xE0) wd = 8;
            else if (enc == 0xF0) wd = 3;
            else if (enc == 0xFE) wd = 1;
            else if (enc >= 0xF1 && enc <= 0xFD) {
                wNum((enc & 0x0F) - 1);
                continue;
            } else throw fail(wAt, String.format("corrupt ziplist (encoding 0x%02x)", enc));
            need(i, wd);
            wNum(leInt(b, o + i, wd));
            i += wd;
        }
        if (i != len - 1) throw fail(wAt, "corrupt ziplist (bytes after its end marker)");
        if (zltail != last) throw fail(wAt, "corrupt ziplist (zltail " + zltail + ", last entry at " + last + ")");
        if (zllen != 0xFFFF && zllen != n) throw fail(wAt, "corrupt ziplist (zllen " + zllen + ", " + n + " entries)");
    }

    static int backlenSize(long n) {
        return n <= 127 ? 1 : n < 16383 ? 2 : n < 2097151 ? 3 : n < 268435455 ? 4 : 5;
    }

    /** The size bytes at i encode elen as a listpack back length (7 bits a byte, most significant first, every
     *  byte but the first with its high bit set). */
    static boolean backlenOk(byte[] b, int i, long elen, int size) {
        for (int k = 0; k < size; k++) {
            int want = (int) ((elen >>> (7 * (size - 1 - k))) & 127) | (k > 0 ? 128 : 0);
            if ((b[i + k] & 0xFF) != want) return false;
        }
        return true;
    }

    /** A listpack's entries; its header (total bytes, element count) and every back length are checked. */
    void listpack(byte[] b, int o, int len) {
        wWhat = "listpack";
        wLen = len;
        if (len < 7 || le32(b, o + 0) != len) throw fail(wAt, "corrupt listpack header");
        int numele = (b[o + 4] & 0xFF) | (b[o + 5] & 0xFF) << 8;
        long i = 6;
        int n = 0;
        for (;; n++) {
            need(i, 1);
            int ii = (int) i;
            int c = b[o + ii] & 0xFF;
            if (c == 0xFF) break;
            long elen;
            if (c < 0x80) {
                wNum(c);
                elen = 1;
            } else if (c < 0xC0) {
                int ln = c & 0x3F;
                need(i, 1 + ln);
                wStr(b, o + ii + 1, ln);
                elen = 1 + ln;
            } else if (c < 0xE0) {
                need(i, 2);
                wNum(sext(((long) (c & 0x1F) << 8) | (b[o + ii + 1] & 0xFF), 13));
                elen = 2;
            } else if (c < 0xF0) {
                need(i, 2);
                int ln = ((c & 0x0F) << 8) | (b[o + ii + 1] & 0xFF);
                need(i, 2 + ln);
                wStr(b, o + ii + 2, ln);
                elen = 2 + ln;
            } else if (c == 0xF0) {
                need(i, 5);
                long ln = le32(b, o + ii + 1);
                need(i, 5 + ln);
                wStr(b, o + ii + 5, (int) ln);
                elen = 5 + ln;
            } else {
                int wd = c == 0xF1 ? 2 : c == 0xF2 ? 3 : c == 0xF3 ? 4 : c == 0xF4 ? 8 : 0;
                if (wd == 0) throw fail(wAt, String.format("corrupt listpack (encoding 0x%02x)", c));
                need(i, 1 + wd);
                wNum(leInt(b, o + ii + 1, wd));
                elen = 1 + wd;
            }
            int bl = backlenSize(elen);
            need(i + elen, bl);
            if (!backlenOk(b, o + (int) (i + elen), elen, bl))
                throw fail(wAt, "corrupt listpack (back length does not match an entry of " + elen + " bytes)");
            i += elen + bl;
        }
        if (i != len - 1) throw fail(wAt, "corrupt listpack (bytes after its end marker)");
        if (numele != 0xFFFF && numele != n) throw fail(wAt, "corrupt listpack (header says " + numele + " entries, " + n + " found)");
    }

    /** A zipmap's keys and values; its count byte (when below 254) is checked against the walk. */
    void zipmap(byte[] b, int o, int len) {
        wWhat = "zipmap";
        wLen = len;
        need(0, 1);
        long i = 1;
        int pairs = 0;
        for (;; pairs++) {
            need(i, 1);
            if ((b[o + (int) i] & 0xFF) == 0xFF) break;
            for (int part = 0; part < 2; part++) {
                need(i, 1);
                int c = b[o + (int) i] & 0xFF;
                long ln;
                if (c < 254) {
                    ln = c;
                    i += 1;
                } else if (c == 254) {
                    need(i, 5);
                    ln = le32(b, o + (int) i + 1);
                    i += 5;
                } else throw fail(wAt, "corrupt zipmap (unexpected end marker)");
                long free = 0;
                if (part == 1) {
                    need(i, 1);
                    free = b[o + (int) i] & 0xFF;
                    i += 1;
                }
                need(i, ln + free);
                wStr(b, o + (int) i, (int) ln);
                i += ln + free;
            }
        }
        if (i != len - 1) throw fail(wAt, "corrupt zipmap (bytes after its end marker)");
        int zmlen = b[o + 0] & 0xFF;
        if (zmlen < 254 && zmlen != pairs) throw fail(wAt, "corrupt zipmap (header says " + zmlen + " pairs, " + pairs + " found)");
    }

    void intset(byte[] b, int o, int len) {
        if (len < 8) throw fail(wAt, "corrupt intset header");
        long enc = le32(b, o + 0), n = le32(b, o + 4);
        if (!(enc == 2 || enc == 4 || enc == 8) || len != 8 + n * enc)
            throw fail(wAt, "corrupt intset (encoding " + enc + ", " + n + " entries, " + len + " bytes)");
        for (int k = 0; k < n; k++) wNum(leInt(b, o + 8 + k * (int) enc, (int) enc));
    }

    // ---- values ----
    void value(int t, long at, long db, boolean hasExp, long exp) {
        int logical = logicalType(t);
        if (logical < 0) throw fail(at, "unknown value type " + t);
        begin(db, logical, key.p, key.off, key.len, hasExp, exp);
        wZset = false;
        wTtls = false;
        wIdx = 0;
        wAt = at;
        long n;
        switch (t) {
            case RDB_TYPE_STRING:
                stringInto(s);
                field(s.p, s.off, s.len);
                n = 1;
                break;
            case RDB_TYPE_LIST: case RDB_TYPE_SET:
                n = count(t == RDB_TYPE_LIST ? "list" : "set");
                for (long k = 0; k < n; k++) {
                    stringInto(s);
                    field(s.p, s.off, s.len);
                }
                break;
            case RDB_TYPE_ZSET: case RDB_TYPE_ZSET_2:
                n = count("zset");
                for (long k = 0; k < n; k++) {
                    stringInto(s);
                    field(s.p, s.off, s.len);
                    long sat = pos;
                    double x;
                    if (t == RDB_TYPE_ZSET_2) x = Double.longBitsToDouble(le(8));
                    else {
                        int ln = u8();
                        if (ln == 253) x = Double.NaN;
                        else if (ln == 254) x = Double.POSITIVE_INFINITY;
                        else if (ln == 255) x = Double.NEGATIVE_INFINITY;
                        else {
                            readInto(ln, s);
                            try {
                                x = parseScore(s.p, s.off, s.len);
                            } catch (BadScore e) {
                                throw fail(sat, "bad zset score \"" + esc(s.p, s.off, s.len) + "\"");
                            }
                        }
                    }
                    scoreField(x);
                }
                break;
            case RDB_TYPE_HASH:
                n = count("hash");
                for (long k = 0; k < 2 * n; k++) {
                    stringInto(s);
                    field(s.p, s.off, s.len);
                }
                break;
            case RDB_TYPE_HASH_ZIPMAP: case RDB_TYPE_LIST_ZIPLIST: case RDB_TYPE_SET_INTSET: case RDB_TYPE_ZSET_ZIPLIST:
            case RDB_TYPE_HASH_ZIPLIST: case RDB_TYPE_HASH_LISTPACK: case RDB_TYPE_ZSET_LISTPACK: case RDB_TYPE_SET_LISTPACK:
                stringInto(s);
                wZset = t == RDB_TYPE_ZSET_ZIPLIST || t == RDB_TYPE_ZSET_LISTPACK;
                if (t == RDB_TYPE_HASH_ZIPMAP) zipmap(s.p, s.off, s.len);
                else if (t == RDB_TYPE_LIST_ZIPLIST || t == RDB_TYPE_ZSET_ZIPLIST || t == RDB_TYPE_HASH_ZIPLIST) ziplist(s.p, s.off, s.len);
                else if (t == RDB_TYPE_SET_INTSET) intset(s.p, s.off, s.len);
                else listpack(s.p, s.off, s.len);
                n = wIdx;
                if (logical == T_HASH || logical == T_ZSET) {
                    if (n % 2 != 0) throw fail(at, TYPE_NAMES[logical] + " with an odd number of entries");
                    n /= 2;
                }
                break;
            case RDB_TYPE_LIST_QUICKLIST: {
                long nodes = count("quicklist node");
                for (long k = 0; k < nodes; k++) {
                    stringInto(s);
                    ziplist(s.p, s.off, s.len);
                }
                n = wIdx;
                break;
            }
            case RDB_TYPE_LIST_QUICKLIST_2: {
                long nodes = count("quicklist node");
                for (long k = 0; k < nodes; k++) {
                    long cat = pos;
                    long container = length();
                    stringInto(s);
                    if (container == QUICKLIST_NODE_CONTAINER_PLAIN) {
                        field(s.p, s.off, s.len);
                        wIdx++;
                    } else if (container == QUICKLIST_NODE_CONTAINER_PACKED) listpack(s.p, s.off, s.len);
                    else throw fail(cat, "bad quicklist container " + Long.toUnsignedString(container));
                }
                n = wIdx;
                break;
            }
            case RDB_TYPE_HASH_METADATA: case RDB_TYPE_HASH_METADATA_PRE_GA:
                n = hashMetadata(t);
                break;
            case RDB_TYPE_HASH_LISTPACK_EX: case RDB_TYPE_HASH_LISTPACK_EX_PRE_GA:
                if (t == RDB_TYPE_HASH_LISTPACK_EX) le(8); // min expire: a hint, unused when loading (as in Redis)
                stringInto(s);
                wTtls = true;
                listpack(s.p, s.off, s.len);
                if (wIdx % 3 != 0) throw fail(at, "hash listpack with field TTLs: entries are not triples");
                n = wIdx / 3;
                break;
            case RDB_TYPE_MODULE_2:
                ulongField(length()); // the module type id (name and encoding version)
                n = moduleValue();
                break;
            default:
                n = stream(t);
        }
        ulongField(n);
    }

    /** Skip a module's annotated value as redis-check-rdb does: [opcode][value] until EOF; return the count. */
    long moduleValue() {
        for (long n = 0;; n++) {
            long oat = pos, op = length();
            if (op == RDB_MODULE_OPCODE_EOF) return n;
            else if (op == RDB_MODULE_OPCODE_SINT || op == RDB_MODULE_OPCODE_UINT) length();
            else if (op == RDB_MODULE_OPCODE_FLOAT) read(b8, 0, 4);
            else if (op == RDB_MODULE_OPCODE_DOUBLE) read(b8, 0, 8);
            else if (op == RDB_MODULE_OPCODE_STRING) stringInto(s);
            else throw fail(oat, "unknown module value opcode " + Long.toUnsignedString(op));
        }
    }

    /** Types 22 and 24: [min expire] count, then [ttl][field][value] each; the TTL enters the digest after the
     *  value as an absolute time in ms (empty when none). */
    long hashMetadata(int t) {
        long minExpire = 0;
        if (t == RDB_TYPE_HASH_METADATA) {
            long mat = pos;
            minExpire = le(8);
            if (Long.compareUnsigned(minExpire, EB_EXPIRE_TIME_MAX + 1) > 0)
                throw fail(mat, "hash min expire " + Long.toUnsignedString(minExpire) + " out of range");
        }
        long n = count("hash");
        for (long k = 0; k < n; k++) {
            long tat = pos, expireAt = length();
            if (t == RDB_TYPE_HASH_METADATA && expireAt != 0) {
                if (Long.compareUnsigned(expireAt, EB_EXPIRE_TIME_MAX + 1) > 0)
                    throw fail(tat, "hash field expiry " + Long.toUnsignedString(expireAt) + " out of range");
                expireAt = expireAt + minExpire - 1; // stored relative to the min expire, + 1
            }
            if (Long.compareUnsigned(expireAt, EB_EXPIRE_TIME_MAX) > 0)
                throw fail(tat, "hash field expiry " + Long.toUnsignedString(expireAt) + " out of range");
            stringInto(s);
            field(s.p, s.off, s.len);
            stringInto(s);
            field(s.p, s.off, s.len);
            fieldTtl(expireAt);
        }
        return n;
    }

    /** Consume a stream's structure (not its entries); return its recorded length. */
    long stream(int t) {
        for (long k = 0, n = count("stream listpack"); k < n; k++) {
            long kat = pos;
            stringInto(s);
            if (s.len != 16) throw fail(kat, "stream node key is not 16 bytes");
            stringInto(s);
        }
        long length = length();
        length();
        length();
        if (t >= RDB_TYPE_STREAM_LISTPACKS_2) for (int k = 0; k < 5; k++) length();
        byte[] raw = new byte[24];
        for (long g = 0, ng = count("stream consumer group"); g < ng; g++) {
            stringInto(s);
            length();
            length();
            if (t >= RDB_TYPE_STREAM_LISTPACKS_2) length();
            for (long k = 0, n = count("stream PEL"); k < n; k++) {
                read(raw, 0, 24);
                length();
            }
            for (long c = 0, nc = count("stream consumer"); c < nc; c++) {
                stringInto(s);
                read(raw, 0, 8);
                if (t >= RDB_TYPE_STREAM_LISTPACKS_3) read(raw, 0, 8);
                for (long k = 0, n = count("consumer PEL"); k < n; k++) read(raw, 0, 16);
            }
        }
        return length;
    }

    public void parse() {
        byte[] magic = new byte[9];
        read(magic, 0, 9);
        String m = new String(magic, StandardCharsets.ISO_8859_1);
        if (!m.startsWith("REDIS")) throw fail(0, "bad magic \"" + esc(magic, 0, 5) + "\" (not an RDB file)");
        int version = m.substring(5).matches("[0-9]{4}") ? Integer.parseInt(m.substring(5)) : -1;
        if (version == 13 || version == 14)
            throw fail(5, "RDB version " + version + " (" + (version == 13 ? "Redis 8.6" : "Redis 8.8") + ") is not supported: "
                    + "its format is newer than the Redis source this parser follows (RDB " + MAX_VERSION + ")");
        if (version < 1 || version > MAX_VERSION) throw fail(5, "unsupported RDB version \"" + esc(magic, 5, 4) + "\"");
        long db = 0, exp = 0;
        boolean hasExp = false;
        for (;;) {
            long at = pos;
            int op = u8();
            if (op == RDB_OPCODE_EOF) break;
            switch (op) {
                case RDB_OPCODE_SELECTDB: db = length(); break;
                case RDB_OPCODE_EXPIRETIME: hasExp = true; exp = (int) le(4) * 1000L; break; // signed 32-bit
                case RDB_OPCODE_EXPIRETIME_MS: hasExp = true; exp = le(8); break;
                case RDB_OPCODE_RESIZEDB: length(); length(); break;
                case RDB_OPCODE_SLOT_INFO: length(); length(); length(); break; // slot id, sizes: a hint, ignored
                case RDB_OPCODE_AUX: stringInto(key); stringInto(key); break;
                case RDB_OPCODE_FREQ: u8(); break;
                case RDB_OPCODE_IDLE: length(); break;
                case RDB_OPCODE_FUNCTION2: stringInto(key); break; // the library source
                case RDB_OPCODE_MODULE_AUX: {
                    length(); // module id
                    long wat = pos;
                    if (length() != RDB_MODULE_OPCODE_UINT) throw fail(wat, "MODULE_AUX: bad when opcode");
                    length(); // when
                    moduleValue();
                    moduleAux++;
                    break;
                }
                case RDB_OPCODE_FUNCTION_PRE_GA: throw fail(at, "pre-release FUNCTION opcode is unsupported");
                case RDB_TYPE_MODULE_PRE_GA: throw fail(at, "pre-release module value type 6 cannot be skipped without its module");
                default:
                    if (logicalType(op) >= 0) {
                        stringInto(key);
                        value(op, at, db, hasExp, exp);
                        hasExp = false;
                        if (data != null) catchUp();
                    } else throw fail(at, "unknown opcode or value type " + op);
            }
        }
        if (data != null) {
            fileCrc = crc64(fileCrc, data, crcAt, (int) pos - crcAt);
            crcAt = (int) pos;
        }
        if (version >= 5) {
            long bodyEnd = pos, c = data != null ? fileCrc : crc.value(), stored = le(8);
            if (stored != 0 && stored != c)
                throw fail(bodyEnd, String.format("checksum mismatch: file says %016x, computed %016x", stored, c));
        }
        // Bytes after the checksum are ignored, as Redis does (an AOF with an RDB preamble continues there).
    }

    /** Source factory of one strategy: opens the file, says its size. */
    public interface Opener {
        Source open(String path, long[] size) throws IOException;
    }

    /** The whole program: `prog FILE`. */
    public static void run(String[] args, Opener opener) {
        if (args.length != 1) {
            System.err.println("usage: java CLASS FILE");
            System.exit(2);
        }
        String path = args[0];
        long t0 = System.nanoTime();
        long[] size = new long[1];
        Source src;
        try {
            src = opener.open(path, size);
        } catch (IOException e) {
            System.err.println("rdb: " + path + ": " + e);
            System.exit(1);
            return;
        }
        RdbParser p = new RdbParser(src, size[0]);
        if (src instanceof WholeFile) p.inPlace(((WholeFile) src).bytes());
        try {
            p.parse();
        } catch (RdbException e) {
            System.err.println("rdb: " + path + ": offset " + e.offset + ": " + e.getMessage());
            System.exit(1);
        } catch (OutOfMemoryError e) {
            System.err.println("rdb: " + path + ": offset " + p.pos + ": out of memory (" + e.getMessage() + ")");
            System.exit(1);
        }
        long ns = System.nanoTime() - t0;
        System.err.println("iorace-result {\"answer\": " + p.json() + ", \"inner_ns\": " + ns + "}");
    }
}
