// Not a variant: a microbenchmark of CRC-64/Jones table layouts in pure Java (`java CrcBench FILE [ROUNDS]`): the old
// long[8][256] rows, one flat static final table with 2, 3 or 4 lanes of slicing-by-8, slicing-by-16 in 3 lanes
// and in one chain. Each round prints every variant's ms over FILE (all but its last 8 bytes) and its CRC.
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.*;

public final class CrcBench {
    static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final long[] F = new long[16 * 256];
    static final long[][] T = new long[8][256];
    static {
        for (int i = 0; i < 256; i++) {
            long c = i;
            for (int k = 0; k < 8; k++) c = (c & 1) != 0 ? (c >>> 1) ^ 0x95AC9329AC4BC9B5L : c >>> 1;
            F[i] = c;
        }
        for (int j = 1; j < 16; j++) for (int i = 0; i < 256; i++) F[j * 256 + i] = (F[(j - 1) * 256 + i] >>> 8) ^ F[(int) (F[(j - 1) * 256 + i] & 0xFF)];
        for (int j = 0; j < 8; j++) for (int i = 0; i < 256; i++) T[j][i] = F[j * 256 + i];
    }
    static long serial(long crc, byte[] p, int off, int n) {
        for (int i = off; i < off + n; i++) crc = F[(int) ((crc ^ p[i]) & 0xFF)] ^ (crc >>> 8);
        return crc;
    }
    // zero shift matrices for lane L
    static long[] shiftTab(int len) {
        long[] s = new long[8 * 256];
        byte[] zeros = new byte[len];
        for (int j = 0; j < 8; j++) for (int v = 1; v < 256; v++) { int low = v & -v; s[j*256+v] = s[j*256+(v^low)] ^ serial((long) low << (8*j), zeros, 0, len); }
        return s;
    }
    static final int LANE = 1024;
    static final long[] S1 = shiftTab(LANE), S2 = shiftTab(2 * LANE);
    static long sh(long[] t, long c) {
        return t[(int) (c & 0xFF)] ^ t[256 + (int) ((c >>> 8) & 0xFF)] ^ t[512 + (int) ((c >>> 16) & 0xFF)] ^ t[768 + (int) ((c >>> 24) & 0xFF)]
             ^ t[1024 + (int) ((c >>> 32) & 0xFF)] ^ t[1280 + (int) ((c >>> 40) & 0xFF)] ^ t[1536 + (int) ((c >>> 48) & 0xFF)] ^ t[1792 + (int) (c >>> 56)];
    }
    static long s8(long a) {
        return F[7*256 + (int) (a & 0xFF)] ^ F[6*256 + (int) ((a >>> 8) & 0xFF)] ^ F[5*256 + (int) ((a >>> 16) & 0xFF)] ^ F[4*256 + (int) ((a >>> 24) & 0xFF)]
             ^ F[3*256 + (int) ((a >>> 32) & 0xFF)] ^ F[2*256 + (int) ((a >>> 40) & 0xFF)] ^ F[256 + (int) ((a >>> 48) & 0xFF)] ^ F[(int) (a >>> 56)];
    }
    static long s16(long a, long b) {
        return F[15*256 + (int) (a & 0xFF)] ^ F[14*256 + (int) ((a >>> 8) & 0xFF)] ^ F[13*256 + (int) ((a >>> 16) & 0xFF)] ^ F[12*256 + (int) ((a >>> 24) & 0xFF)]
             ^ F[11*256 + (int) ((a >>> 32) & 0xFF)] ^ F[10*256 + (int) ((a >>> 40) & 0xFF)] ^ F[9*256 + (int) ((a >>> 48) & 0xFF)] ^ F[8*256 + (int) (a >>> 56)]
             ^ F[7*256 + (int) (b & 0xFF)] ^ F[6*256 + (int) ((b >>> 8) & 0xFF)] ^ F[5*256 + (int) ((b >>> 16) & 0xFF)] ^ F[4*256 + (int) ((b >>> 24) & 0xFF)]
             ^ F[3*256 + (int) ((b >>> 32) & 0xFF)] ^ F[2*256 + (int) ((b >>> 40) & 0xFF)] ^ F[256 + (int) ((b >>> 48) & 0xFF)] ^ F[(int) (b >>> 56)];
    }
    // old: 2D table, 3 lanes, slicing-by-8
    static long old(long crc, byte[] p, int off, int n) {
        long[] t0 = T[0], t1 = T[1], t2 = T[2], t3 = T[3], t4 = T[4], t5 = T[5], t6 = T[6], t7 = T[7];
        while (n >= 3 * LANE) {
            long a = crc, b = 0, c = 0;
            for (int i = off, end = off + LANE; i < end; i += 8) {
                a ^= (long) LE64.get(p, i); b ^= (long) LE64.get(p, i + LANE); c ^= (long) LE64.get(p, i + 2 * LANE);
                a = t7[(int) (a & 0xFF)] ^ t6[(int) ((a >>> 8) & 0xFF)] ^ t5[(int) ((a >>> 16) & 0xFF)] ^ t4[(int) ((a >>> 24) & 0xFF)] ^ t3[(int) ((a >>> 32) & 0xFF)] ^ t2[(int) ((a >>> 40) & 0xFF)] ^ t1[(int) ((a >>> 48) & 0xFF)] ^ t0[(int) (a >>> 56)];
                b = t7[(int) (b & 0xFF)] ^ t6[(int) ((b >>> 8) & 0xFF)] ^ t5[(int) ((b >>> 16) & 0xFF)] ^ t4[(int) ((b >>> 24) & 0xFF)] ^ t3[(int) ((b >>> 32) & 0xFF)] ^ t2[(int) ((b >>> 40) & 0xFF)] ^ t1[(int) ((b >>> 48) & 0xFF)] ^ t0[(int) (b >>> 56)];
                c = t7[(int) (c & 0xFF)] ^ t6[(int) ((c >>> 8) & 0xFF)] ^ t5[(int) ((c >>> 16) & 0xFF)] ^ t4[(int) ((c >>> 24) & 0xFF)] ^ t3[(int) ((c >>> 32) & 0xFF)] ^ t2[(int) ((c >>> 40) & 0xFF)] ^ t1[(int) ((c >>> 48) & 0xFF)] ^ t0[(int) (c >>> 56)];
            }
            crc = sh(S2, a) ^ sh(S1, b) ^ c;
            off += 3 * LANE; n -= 3 * LANE;
        }
        return serial(crc, p, off, n);
    }
    // flat static final table, 3 lanes, slicing-by-8
    static long flat8(long crc, byte[] p, int off, int n) {
        while (n >= 3 * LANE) {
            long a = crc, b = 0, c = 0;
            for (int i = off, end = off + LANE; i < end; i += 8) {
                a = s8(a ^ (long) LE64.get(p, i)); b = s8(b ^ (long) LE64.get(p, i + LANE)); c = s8(c ^ (long) LE64.get(p, i + 2 * LANE));
            }
            crc = sh(S2, a) ^ sh(S1, b) ^ c;
            off += 3 * LANE; n -= 3 * LANE;
        }
        return serial(crc, p, off, n);
    }
    // flat, 3 lanes, slicing-by-16
    static long flat16(long crc, byte[] p, int off, int n) {
        while (n >= 3 * LANE) {
            long a = crc, b = 0, c = 0;
            for (int i = off, end = off + LANE; i < end; i += 16) {
                a = s16(a ^ (long) LE64.get(p, i), (long) LE64.get(p, i + 8));
                b = s16(b ^ (long) LE64.get(p, i + LANE), (long) LE64.get(p, i + LANE + 8));
                c = s16(c ^ (long) LE64.get(p, i + 2 * LANE), (long) LE64.get(p, i + 2 * LANE + 8));
            }
            crc = sh(S2, a) ^ sh(S1, b) ^ c;
            off += 3 * LANE; n -= 3 * LANE;
        }
        return serial(crc, p, off, n);
    }
    // flat, 1 lane, slicing-by-16
    static long one16(long crc, byte[] p, int off, int n) {
        int i = off, end = off + n;
        for (; end - i >= 16; i += 16) crc = s16(crc ^ (long) LE64.get(p, i), (long) LE64.get(p, i + 8));
        return serial(crc, p, i, end - i);
    }

    static final long[] S3 = shiftTab(3 * LANE);
    static long flat8x4(long crc, byte[] p, int off, int n) {
        while (n >= 4 * LANE) {
            long a = crc, b = 0, c = 0, e = 0;
            for (int i = off, end = off + LANE; i < end; i += 8) {
                a = s8(a ^ (long) LE64.get(p, i)); b = s8(b ^ (long) LE64.get(p, i + LANE)); c = s8(c ^ (long) LE64.get(p, i + 2 * LANE)); e = s8(e ^ (long) LE64.get(p, i + 3 * LANE));
            }
            crc = sh(S3, a) ^ sh(S2, b) ^ sh(S1, c) ^ e;
            off += 4 * LANE; n -= 4 * LANE;
        }
        return serial(crc, p, off, n);
    }
    static long flat8x2(long crc, byte[] p, int off, int n) {
        while (n >= 2 * LANE) {
            long a = crc, b = 0;
            for (int i = off, end = off + LANE; i < end; i += 8) {
                a = s8(a ^ (long) LE64.get(p, i)); b = s8(b ^ (long) LE64.get(p, i + LANE));
            }
            crc = sh(S1, a) ^ b;
            off += 2 * LANE; n -= 2 * LANE;
        }
        return serial(crc, p, off, n);
    }
    public static void main(String[] a) throws Exception {
        byte[] d = Files.readAllBytes(Paths.get(a[0]));
        int n = d.length - 8;
        String[] names = {"old", "flat8", "flat8x4", "flat8x2", "flat16", "one16"};
        int rounds = a.length > 1 ? Integer.parseInt(a[1]) : 12;
        for (int r = 0; r < rounds; r++) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < names.length; k++) {
                long t0 = System.nanoTime();
                long v = k == 0 ? old(0, d, 0, n) : k == 1 ? flat8(0, d, 0, n) : k == 2 ? flat8x4(0, d, 0, n) : k == 3 ? flat8x2(0, d, 0, n) : k == 4 ? flat16(0, d, 0, n) : one16(0, d, 0, n);
                sb.append(String.format("%s %.1f (%x)  ", names[k], (System.nanoTime() - t0) / 1e6, v));
            }
            System.out.println(sb);
        }
    }
}
