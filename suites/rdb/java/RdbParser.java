// The RDB parser shared by the Java programs: reads through the Source interface each program implements.
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

public final class RdbParser {
    /** How the parser gets bytes: fill b[off..off+len) completely or throw. */
    public interface Source {
        void readFully(byte[] b, int off, int len) throws IOException;
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

    // ---- CRC-64/Jones, reflected, slicing-by-8 ----
    static final long[][] T = new long[8][256];

    static {
        for (int i = 0; i < 256; i++) {
            long c = i;
            for (int k = 0; k < 8; k++) c = (c & 1) != 0 ? (c >>> 1) ^ 0x95AC9329AC4BC9B5L : c >>> 1;
            T[0][i] = c;
        }
        for (int j = 1; j < 8; j++)
            for (int i = 0; i < 256; i++) T[j][i] = (T[j - 1][i] >>> 8) ^ T[0][(int) (T[j - 1][i] & 0xFF)];
    }

    static long crc64(long crc, byte[] p, int off, int n) {
        long[] t0 = T[0], t1 = T[1], t2 = T[2], t3 = T[3], t4 = T[4], t5 = T[5], t6 = T[6], t7 = T[7];
        int i = off, end = off + n;
        while (end - i >= 8) {
            long w = (p[i] & 0xFFL) | (p[i + 1] & 0xFFL) << 8 | (p[i + 2] & 0xFFL) << 16 | (p[i + 3] & 0xFFL) << 24
                    | (p[i + 4] & 0xFFL) << 32 | (p[i + 5] & 0xFFL) << 40 | (p[i + 6] & 0xFFL) << 48 | (p[i + 7] & 0xFFL) << 56;
            crc ^= w;
            crc = t7[(int) (crc & 0xFF)] ^ t6[(int) ((crc >>> 8) & 0xFF)] ^ t5[(int) ((crc >>> 16) & 0xFF)]
                    ^ t4[(int) ((crc >>> 24) & 0xFF)] ^ t3[(int) ((crc >>> 32) & 0xFF)] ^ t2[(int) ((crc >>> 40) & 0xFF)]
                    ^ t1[(int) ((crc >>> 48) & 0xFF)] ^ t0[(int) (crc >>> 56)];
            i += 8;
        }
        for (; i < end; i++) crc = t0[(int) ((crc ^ p[i]) & 0xFF)] ^ (crc >>> 8);
        return crc;
    }

    // ---- the summary ----
    static final String[] TYPE_NAMES = {"string", "list", "set", "zset", "hash", "stream"};
    static final int T_STRING = 0, T_LIST = 1, T_SET = 2, T_ZSET = 3, T_HASH = 4, T_STREAM = 5;

    long keys, expires, digest;
    final long[] types = new long[6];
    final Map<Long, Long> dbs = new TreeMap<>(Long::compareUnsigned);
    private final byte[] lenBuf = new byte[4];

    void field(byte[] b, int off, int n) {
        lenBuf[0] = (byte) n;
        lenBuf[1] = (byte) (n >>> 8);
        lenBuf[2] = (byte) (n >>> 16);
        lenBuf[3] = (byte) (n >>> 24);
        digest = crc64(digest, lenBuf, 0, 4);
        digest = crc64(digest, b, off, n);
    }

    void field(byte[] b) {
        field(b, 0, b.length);
    }

    void textField(String s) {
        field(s.getBytes(StandardCharsets.US_ASCII));
    }

    void scoreField(double x) {
        long bits = Double.isNaN(x) ? 0x7ff8000000000000L : Double.doubleToRawLongBits(x);
        byte[] h = new byte[16];
        for (int i = 0; i < 16; i++) h[i] = (byte) "0123456789abcdef".charAt((int) ((bits >>> (60 - 4 * i)) & 0xF));
        field(h);
    }

    void begin(long db, int t, byte[] key, int klen, boolean hasExp, long exp) {
        textField(Long.toUnsignedString(db));
        textField(TYPE_NAMES[t]);
        field(key, 0, klen);
        if (hasExp) {
            textField(Long.toString(exp));
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
        for (int i = 0; i < 6; i++) t.add("\"" + TYPE_NAMES[i] + "\": " + types[i]);
        return String.format("{\"keys\": %d, \"expires\": %d, \"dbs\": {%s}, \"types\": {%s}, \"digest\": \"%016x\"}",
                keys, expires, String.join(", ", d), String.join(", ", t), digest);
    }

    static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    /** A score written as text: a decimal float, or inf/infinity/nan (as strtod reads them). */
    static Double parseScore(byte[] b, int off, int n) {
        String s = new String(b, off, n, StandardCharsets.ISO_8859_1);
        String l = s.toLowerCase();
        String body = l.startsWith("+") || l.startsWith("-") ? l.substring(1) : l;
        if (body.equals("inf") || body.equals("infinity")) return l.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        if (body.equals("nan")) return Double.NaN;
        if (!DECIMAL.matcher(s).matches()) return null;
        return Double.parseDouble(s);
    }

    // ---- reading with bounds, CRC and offset ----
    private final Source src;
    private final long size;
    private long pos, crc;
    private final byte[] b8 = new byte[24];

    /** A growable byte buffer: p[0..len). */
    static final class Buf {
        byte[] p = new byte[64];
        int len;

        void reserve(int n) {
            if (p.length < n) p = new byte[Math.max(n, 2 * p.length)];
        }
    }

    private final Buf s = new Buf(), key = new Buf(), lzf = new Buf();

    public RdbParser(Source src, long size) {
        this.src = src;
        this.size = size;
    }

    long left() {
        return size - pos;
    }

    void read(byte[] b, int off, int n) {
        if (n > left()) throw fail(pos, "need " + n + " bytes but only " + left() + " remain (truncated file or bad length)");
        try {
            src.readFully(b, off, n);
        } catch (IOException e) {
            throw fail(pos, "read failed: " + e);
        }
        crc = crc64(crc, b, off, n);
        pos += n;
    }

    int u8() {
        read(b8, 0, 1);
        return b8[0] & 0xFF;
    }

    long le(int w) {
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
        long at = pos;
        long v = lengthEnc();
        if (!lastEnc) {
            readInto(v, out);
            return;
        }
        long num;
        if (v == 0) num = sext(le(1), 8);
        else if (v == 1) num = sext(le(2), 16);
        else if (v == 2) num = sext(le(4), 32);
        else if (v == 3) {
            long clen = length(), ulen = length();
            if (Long.compareUnsigned(clen, Long.divideUnsigned(-1L - 16, 100)) > 0 || Long.compareUnsigned(ulen, clen * 100 + 16) > 0)
                throw fail(at, "LZF uncompressed length " + Long.toUnsignedString(ulen) + " implausible for "
                        + Long.toUnsignedString(clen) + " compressed bytes");
            readInto(clen, lzf);
            if (ulen > Integer.MAX_VALUE - 16) throw fail(at, "LZF string of " + ulen + " bytes is too large");
            lzfDecompress(lzf.p, lzf.len, (int) ulen, out, at);
            return;
        } else throw fail(at, "unknown string encoding " + v);
        setText(out, Long.toString(num));
    }

    static void lzfDecompress(byte[] src, int n, int ulen, Buf out, long at) {
        out.reserve(ulen);
        byte[] o = out.p;
        int ol = 0, i = 0;
        while (i < n) {
            int ctrl = src[i++] & 0xFF;
            if (ctrl < 32) {
                int ln = ctrl + 1;
                if (ln > n - i || ln > ulen - ol) throw fail(at, "corrupt LZF data (literal run past the end)");
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
                for (int k = 0; k < ln; k++, ol++) o[ol] = o[ol - back]; // may overlap
            }
        }
        if (ol != ulen) throw fail(at, "LZF data decompressed to " + ol + " bytes, header says " + ulen);
        out.len = ol;
    }

    // ---- compact encodings: walk a blob's entries ----
    private boolean wZset;
    private long wIdx, wAt;
    private String wWhat;
    private int wLen;

    void wStr(byte[] b, int off, int n) {
        if (wZset && (wIdx & 1) == 1) {
            Double x = parseScore(b, off, n);
            if (x == null)
                throw fail(wAt, "bad zset score \"" + new String(b, off, Math.min(n, 32), StandardCharsets.ISO_8859_1) + "\"");
            scoreField(x);
        } else {
            field(b, off, n);
        }
        wIdx++;
    }

    void wNum(long v) {
        if (wZset && (wIdx & 1) == 1) scoreField((double) v);
        else textField(Long.toString(v));
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

    void ziplist(byte[] b, int len) {
        wWhat = "ziplist";
        wLen = len;
        if (len < 11 || le32(b, 0) != len) throw fail(wAt, "corrupt ziplist header");
        int i = 10;
        for (;;) {
            need(i, 1);
            int c = b[i] & 0xFF;
            if (c == 0xFF) break;
            i += c == 0xFE ? 5 : 1;
            need(i, 1);
            int enc = b[i] & 0xFF;
            if ((enc >> 6) < 3) {
                long ln;
                if ((enc >> 6) == 0) {
                    ln = enc & 0x3F;
                    i += 1;
                } else if ((enc >> 6) == 1) {
                    need(i, 2);
                    ln = ((enc & 0x3F) << 8) | (b[i + 1] & 0xFF);
                    i += 2;
                } else if (enc == 0x80) {
                    need(i, 5);
                    ln = (b[i + 1] & 0xFFL) << 24 | (b[i + 2] & 0xFF) << 16 | (b[i + 3] & 0xFF) << 8 | (b[i + 4] & 0xFF);
                    i += 5;
                } else throw fail(wAt, String.format("corrupt ziplist (encoding 0x%02x)", enc));
                need(i, ln);
                wStr(b, i, (int) ln);
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
            wNum(leInt(b, i, wd));
            i += wd;
        }
        if (i != len - 1) throw fail(wAt, "corrupt ziplist (bytes after its end marker)");
    }

    static int backlenSize(long n) {
        return n <= 127 ? 1 : n < 16383 ? 2 : n < 2097151 ? 3 : n < 268435455 ? 4 : 5;
    }

    void listpack(byte[] b, int len) {
        wWhat = "listpack";
        wLen = len;
        if (len < 7 || le32(b, 0) != len) throw fail(wAt, "corrupt listpack header");
        long i = 6;
        for (;;) {
            need(i, 1);
            int ii = (int) i;
            int c = b[ii] & 0xFF;
            if (c == 0xFF) break;
            long elen;
            if (c < 0x80) {
                wNum(c);
                elen = 1;
            } else if (c < 0xC0) {
                int ln = c & 0x3F;
                need(i, 1 + ln);
                wStr(b, ii + 1, ln);
                elen = 1 + ln;
            } else if (c < 0xE0) {
                need(i, 2);
                wNum(sext(((long) (c & 0x1F) << 8) | (b[ii + 1] & 0xFF), 13));
                elen = 2;
            } else if (c < 0xF0) {
                need(i, 2);
                int ln = ((c & 0x0F) << 8) | (b[ii + 1] & 0xFF);
                need(i, 2 + ln);
                wStr(b, ii + 2, ln);
                elen = 2 + ln;
            } else if (c == 0xF0) {
                need(i, 5);
                long ln = le32(b, ii + 1);
                need(i, 5 + ln);
                wStr(b, ii + 5, (int) ln);
                elen = 5 + ln;
            } else {
                int wd = c == 0xF1 ? 2 : c == 0xF2 ? 3 : c == 0xF3 ? 4 : c == 0xF4 ? 8 : 0;
                if (wd == 0) throw fail(wAt, String.format("corrupt listpack (encoding 0x%02x)", c));
                need(i, 1 + wd);
                wNum(leInt(b, ii + 1, wd));
                elen = 1 + wd;
            }
            i += elen + backlenSize(elen);
        }
        if (i != len - 1) throw fail(wAt, "corrupt listpack (bytes after its end marker)");
    }

    void zipmap(byte[] b, int len) {
        wWhat = "zipmap";
        wLen = len;
        long i = 1;
        for (;;) {
            need(i, 1);
            if ((b[(int) i] & 0xFF) == 0xFF) break;
            for (int part = 0; part < 2; part++) {
                need(i, 1);
                int c = b[(int) i] & 0xFF;
                long ln;
                if (c < 254) {
                    ln = c;
                    i += 1;
                } else if (c == 254) {
                    need(i, 5);
                    ln = le32(b, (int) i + 1);
                    i += 5;
                } else throw fail(wAt, "corrupt zipmap (unexpected end marker)");
                long free = 0;
                if (part == 1) {
                    need(i, 1);
                    free = b[(int) i] & 0xFF;
                    i += 1;
                }
                need(i, ln + free);
                wStr(b, (int) i, (int) ln);
                i += ln + free;
            }
        }
        if (i != len - 1) throw fail(wAt, "corrupt zipmap (bytes after its end marker)");
    }

    void intset(byte[] b, int len) {
        if (len < 8) throw fail(wAt, "corrupt intset header");
        long enc = le32(b, 0), n = le32(b, 4);
        if (!(enc == 2 || enc == 4 || enc == 8) || len != 8 + n * enc)
            throw fail(wAt, "corrupt intset (encoding " + enc + ", " + n + " entries, " + len + " bytes)");
        for (int k = 0; k < n; k++) wNum(leInt(b, 8 + k * (int) enc, (int) enc));
    }

    // ---- values ----
    void value(int t, long at, long db, boolean hasExp, long exp) {
        int logical;
        switch (t) {
            case 0: logical = T_STRING; break;
            case 1: case 10: case 14: case 18: logical = T_LIST; break;
            case 2: case 11: case 20: logical = T_SET; break;
            case 3: case 5: case 12: case 17: logical = T_ZSET; break;
            case 4: case 9: case 13: case 16: logical = T_HASH; break;
            case 15: case 19: case 21: logical = T_STREAM; break;
            default: throw fail(at, "unknown value type " + t);
        }
        begin(db, logical, key.p, key.len, hasExp, exp);
        wZset = false;
        wIdx = 0;
        wAt = at;
        long n;
        switch (t) {
            case 0:
                stringInto(s);
                field(s.p, 0, s.len);
                n = 1;
                break;
            case 1: case 2:
                n = count(t == 1 ? "list" : "set");
                for (long k = 0; k < n; k++) {
                    stringInto(s);
                    field(s.p, 0, s.len);
                }
                break;
            case 3: case 5:
                n = count("zset");
                for (long k = 0; k < n; k++) {
                    stringInto(s);
                    field(s.p, 0, s.len);
                    long sat = pos;
                    double x;
                    if (t == 5) x = Double.longBitsToDouble(le(8));
                    else {
                        int ln = u8();
                        if (ln == 253) x = Double.NaN;
                        else if (ln == 254) x = Double.POSITIVE_INFINITY;
                        else if (ln == 255) x = Double.NEGATIVE_INFINITY;
                        else {
                            readInto(ln, s);
                            Double d = parseScore(s.p, 0, s.len);
                            if (d == null)
                                throw fail(sat, "bad zset score \"" + new String(s.p, 0, s.len, StandardCharsets.ISO_8859_1) + "\"");
                            x = d;
                        }
                    }
                    scoreField(x);
                }
                break;
            case 4:
                n = count("hash");
                for (long k = 0; k < 2 * n; k++) {
                    stringInto(s);
                    field(s.p, 0, s.len);
                }
                break;
            case 9: case 10: case 11: case 12: case 13: case 16: case 17: case 20:
                stringInto(s);
                wZset = t == 12 || t == 17;
                if (t == 9) zipmap(s.p, s.len);
                else if (t == 10 || t == 12 || t == 13) ziplist(s.p, s.len);
                else if (t == 11) intset(s.p, s.len);
                else listpack(s.p, s.len);
                n = wIdx;
                if (t == 9 || t == 12 || t == 13 || t == 16 || t == 17) {
                    if (n % 2 != 0) throw fail(at, TYPE_NAMES[logical] + " with an odd number of entries");
                    n /= 2;
                }
                break;
            case 14: {
                long nodes = count("quicklist node");
                for (long k = 0; k < nodes; k++) {
                    stringInto(s);
                    ziplist(s.p, s.len);
                }
                n = wIdx;
                break;
            }
            case 18: {
                long nodes = count("quicklist node");
                for (long k = 0; k < nodes; k++) {
                    long cat = pos;
                    long container = length();
                    stringInto(s);
                    if (container == 1) {
                        field(s.p, 0, s.len);
                        wIdx++;
                    } else if (container == 2) listpack(s.p, s.len);
                    else throw fail(cat, "bad quicklist container " + Long.toUnsignedString(container));
                }
                n = wIdx;
                break;
            }
            default:
                n = stream(t);
        }
        textField(Long.toUnsignedString(n));
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
        if (t >= 19) for (int k = 0; k < 5; k++) length();
        byte[] raw = new byte[24];
        for (long g = 0, ng = count("stream consumer group"); g < ng; g++) {
            stringInto(s);
            length();
            length();
            if (t >= 19) length();
            for (long k = 0, n = count("stream PEL"); k < n; k++) {
                read(raw, 0, 24);
                length();
            }
            for (long c = 0, nc = count("stream consumer"); c < nc; c++) {
                stringInto(s);
                read(raw, 0, 8);
                if (t >= 21) read(raw, 0, 8);
                for (long k = 0, n = count("consumer PEL"); k < n; k++) read(raw, 0, 16);
            }
        }
        return length;
    }

    public void parse() {
        byte[] magic = new byte[9];
        read(magic, 0, 9);
        String m = new String(magic, StandardCharsets.ISO_8859_1);
        if (!m.startsWith("REDIS")) throw fail(0, "bad magic \"" + m.substring(0, 5) + "\" (not an RDB file)");
        int version = m.substring(5).matches("[0-9]{4}") ? Integer.parseInt(m.substring(5)) : -1;
        if (version < 1 || version > 12) throw fail(5, "unsupported RDB version \"" + m.substring(5) + "\"");
        long db = 0, exp = 0;
        boolean hasExp = false;
        for (;;) {
            long at = pos;
            int op = u8();
            if (op == 0xFF) break;
            switch (op) {
                case 0xFE: db = length(); break;
                case 0xFD: hasExp = true; exp = le(4) * 1000; break;
                case 0xFC: hasExp = true; exp = le(8); break;
                case 0xFB: length(); length(); break;
                case 0xFA: stringInto(key); stringInto(key); break;
                case 0xF9: u8(); break;
                case 0xF8: length(); break;
                case 0xF5: stringInto(key); break; // FUNCTION2: the library source
                case 0xF7: throw fail(at, "MODULE_AUX data is unsupported (needs the module)");
                case 0xF6: throw fail(at, "pre-release FUNCTION opcode is unsupported");
                case 6: case 7: throw fail(at, "module value type " + op + " is unsupported (needs the module)");
                default:
                    if (op <= 21 && op != 8) {
                        stringInto(key);
                        value(op, at, db, hasExp, exp);
                        hasExp = false;
                    } else throw fail(at, "unknown opcode or value type " + op);
            }
        }
        if (version >= 5) {
            long bodyEnd = pos, c = crc, stored = le(8);
            if (stored != 0 && stored != c)
                throw fail(bodyEnd, String.format("checksum mismatch: file says %016x, computed %016x", stored, c));
        }
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
        try {
            p.parse();
        } catch (RdbException e) {
            System.err.println("rdb: " + path + ": offset " + e.offset + ": " + e.getMessage());
            System.exit(1);
        }
        long ns = System.nanoTime() - t0;
        System.err.println("iorace-result {\"answer\": " + p.json() + ", \"inner_ns\": " + ns + "}");
    }
}
