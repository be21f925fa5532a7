// Design: expert: big-endian loads at fixed offsets of the caller's array through VarHandle byteArrayViewVarHandle (one range check for the 38-byte header, not a cursor per byte), the bool checked, the name an (offset, length) slice; no object per op.
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

public final class DeserFixed {
    static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    static final int HEADER = 38;

    /** Decodes the record at data[pos..] into r; returns the position after it. */
    static int decode(byte[] d, int pos, Job.Record r) throws Job.CorruptException {
        if (d.length - pos < HEADER) {
            throw new Job.CorruptException("truncated");
        }
        r.id = (int) INT.get(d, pos);
        r.kind = d[pos + 4] & 0xff;
        r.delta = (short) SHORT.get(d, pos + 5);
        r.stamp = (long) LONG.get(d, pos + 7);
        r.active = Job.bool(d[pos + 15] & 0xff);
        r.ratio = Float.intBitsToFloat((int) INT.get(d, pos + 16));
        r.value = Double.longBitsToDouble((long) LONG.get(d, pos + 20));
        r.dims[0] = (short) SHORT.get(d, pos + 28);
        r.dims[1] = (short) SHORT.get(d, pos + 30);
        r.dims[2] = (short) SHORT.get(d, pos + 32);
        r.dims[3] = (short) SHORT.get(d, pos + 34);
        int n = (short) SHORT.get(d, pos + 36) & 0xffff;
        if (n > d.length - pos - HEADER) {
            throw new Job.CorruptException("truncated");
        }
        r.nameLength = n;
        r.nameOffset = pos + HEADER;
        r.nameBytes = d;
        return pos + HEADER + n;
    }

    public static void main(String[] args) {
        Job job = Job.parse("DeserFixed", args);
        job.timeDeser(DeserFixed::decode);
    }
}
