// Design: expert: one byte[] reused for every op, big-endian stores at fixed offsets through VarHandle byteArrayViewVarHandle (a field at a time, not a byte), the name copied by System.arraycopy; no allocation.
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

public final class SerFixed {
    static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** Writes r in Cerealed's format at out[0..]; returns its size (out holds 38 + 65535 bytes). */
    static int encode(byte[] out, Job.Record r) {
        INT.set(out, 0, r.id);
        out[4] = (byte) r.kind;
        SHORT.set(out, 5, r.delta);
        LONG.set(out, 7, r.stamp);
        out[15] = (byte) (r.active ? 1 : 0);
        INT.set(out, 16, Float.floatToRawIntBits(r.ratio));
        LONG.set(out, 20, Double.doubleToRawLongBits(r.value));
        SHORT.set(out, 28, r.dims[0]);
        SHORT.set(out, 30, r.dims[1]);
        SHORT.set(out, 32, r.dims[2]);
        SHORT.set(out, 34, r.dims[3]);
        SHORT.set(out, 36, (short) r.nameLength);
        System.arraycopy(r.nameBytes, r.nameOffset, out, 38, r.nameLength);
        return 38 + r.nameLength;
    }

    public static void main(String[] args) {
        Job job = Job.parse("SerFixed", args);
        byte[] out = new byte[38 + 65535];
        job.timeSer((r, n, tally) -> tally.consume(n, out, encode(out, r)));
    }
}
