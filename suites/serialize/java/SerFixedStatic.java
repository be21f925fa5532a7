// Design: expert: ser-fixed's stores (VarHandle big-endian at fixed offsets) into one static final buffer, whose length C2 then knows, so the range checks of the fixed offsets fold away; the name copied by overlapping wide loads and stores as memcpy does for short lengths (System.arraycopy past 16 bytes); no allocation.
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

public final class SerFixedStatic {
    static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle NATIVE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    static final VarHandle NATIVE_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    /** The one output buffer (38 + 65535 bytes), reused for every op; static final, so its length is a constant to C2. */
    static final byte[] OUT = new byte[38 + 65535];

    /** Copies n bytes from src[from..] to dst[to..]: two overlapping 8- or 4-byte moves up to 16 bytes (memcpy's way), else arraycopy. */
    static void copy(byte[] src, int from, byte[] dst, int to, int n) {
        if (n >= 8 && n <= 16) {
            long head = (long) NATIVE_LONG.get(src, from);
            long tail = (long) NATIVE_LONG.get(src, from + n - 8);
            NATIVE_LONG.set(dst, to, head);
            NATIVE_LONG.set(dst, to + n - 8, tail);
        } else if (n >= 4 && n < 8) {
            int head = (int) NATIVE_INT.get(src, from);
            int tail = (int) NATIVE_INT.get(src, from + n - 4);
            NATIVE_INT.set(dst, to, head);
            NATIVE_INT.set(dst, to + n - 4, tail);
        } else if (n < 4) {
            for (int i = 0; i < n; i++) {
                dst[to + i] = src[from + i];
            }
        } else {
            System.arraycopy(src, from, dst, to, n);
        }
    }

    /** Writes r in Cerealed's format at OUT[0..]; returns its size. */
    static int encode(Job.Record r) {
        byte[] out = OUT;
        INT.set(out, 0, r.id);
        out[4] = (byte) r.kind;
        SHORT.set(out, 5, r.delta);
        LONG.set(out, 7, r.stamp);
        out[15] = (byte) (r.active ? 1 : 0);
        INT.set(out, 16, Float.floatToRawIntBits(r.ratio));
        LONG.set(out, 20, Double.doubleToRawLongBits(r.value));
        short[] dims = r.dims;
        SHORT.set(out, 28, dims[0]);
        SHORT.set(out, 30, dims[1]);
        SHORT.set(out, 32, dims[2]);
        SHORT.set(out, 34, dims[3]);
        SHORT.set(out, 36, (short) r.nameLength);
        copy(r.nameBytes, r.nameOffset, out, 38, r.nameLength);
        return 38 + r.nameLength;
    }

    public static void main(String[] args) {
        Job job = Job.parse("SerFixedStatic", args);
        job.timeSer((r, n, tally) -> tally.consume(n, OUT, encode(r)));
    }
}
