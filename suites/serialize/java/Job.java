// Shared by every Java serialize variant: the record, Cerealed's wire format (through interfaces and on final classes: each program picks one, that is its design), the timed loops, allocated bytes and the result line.
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

final class Job {
    /** The suite's record (field order = wire order); the name is a slice (offset, length) of the bytes it came from. */
    static final class Record {
        int id;            // u32
        int kind;          // u8
        short delta;
        long stamp;
        boolean active;
        float ratio;
        double value;
        final short[] dims = new short[4];  // u16[4]
        byte[] nameBytes;
        int nameOffset;
        int nameLength;
    }

    /** A truncated or corrupt record; no stack trace (thrown only for bad input). */
    static final class CorruptException extends Exception {
        private static final long serialVersionUID = 1L;

        CorruptException(String message) {
            super(message, null, false, false);
        }
    }

    // ---- writing through an interface: one interface call per byte (Cerealed v0.4.1) ----------

    interface Sink {
        void putByte(int b);
    }

    static void putBE(Sink s, long v, int size) {
        for (int shift = 8 * (size - 1); shift >= 0; shift -= 8) {
            s.putByte((int) (v >>> shift));
        }
    }

    static void cerealise(Sink s, Record r) {
        putBE(s, r.id, 4);
        s.putByte(r.kind);
        putBE(s, r.delta, 2);
        putBE(s, r.stamp, 8);
        s.putByte(r.active ? 1 : 0);
        putBE(s, Float.floatToRawIntBits(r.ratio), 4);
        putBE(s, Double.doubleToRawLongBits(r.value), 8);
        for (short d : r.dims) {
            putBE(s, d, 2);
        }
        putBE(s, r.nameLength, 2);
        for (int i = 0; i < r.nameLength; i++) {
            s.putByte(r.nameBytes[r.nameOffset + i]);
        }
    }

    // ---- writing on a final class: the same code against the concrete type (Cerealed v0.5.0) ---

    /** A growing byte array (capacity doubles from 8, as a dynamic array's append does). */
    static final class ByteSink implements Sink {
        byte[] bytes = new byte[8];
        int length;

        @Override
        public void putByte(int b) {
            if (length == bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, 2 * length);
            }
            bytes[length++] = (byte) b;
        }
    }

    static void putBE(ByteSink s, long v, int size) {
        for (int shift = 8 * (size - 1); shift >= 0; shift -= 8) {
            s.putByte((int) (v >>> shift));
        }
    }

    static void cerealise(ByteSink s, Record r) {
        putBE(s, r.id, 4);
        s.putByte(r.kind);
        putBE(s, r.delta, 2);
        putBE(s, r.stamp, 8);
        s.putByte(r.active ? 1 : 0);
        putBE(s, Float.floatToRawIntBits(r.ratio), 4);
        putBE(s, Double.doubleToRawLongBits(r.value), 8);
        for (short d : r.dims) {
            putBE(s, d, 2);
        }
        putBE(s, r.nameLength, 2);
        for (int i = 0; i < r.nameLength; i++) {
            s.putByte(r.nameBytes[r.nameOffset + i]);
        }
    }

    // ---- reading --------------------------------------------------------------------------------

    interface Source {
        int takeByte() throws CorruptException;
        int skip(int n) throws CorruptException;  // the offset of the next n bytes, then past them
    }

    /** A cursor into the caller's array; allocates nothing. */
    static final class ArraySource implements Source {
        final byte[] data;
        int pos;

        ArraySource(byte[] data, int pos) {
            this.data = data;
            this.pos = pos;
        }

        @Override
        public int takeByte() throws CorruptException {
            if (pos >= data.length) {
                throw new CorruptException("truncated");
            }
            return data[pos++] & 0xff;
        }

        @Override
        public int skip(int n) throws CorruptException {
            if (n > data.length - pos) {
                throw new CorruptException("truncated");
            }
            pos += n;
            return pos - n;
        }
    }

    static long takeBE(Source s, int size) throws CorruptException {
        long v = 0;
        for (int i = 0; i < size; i++) {
            v = v << 8 | s.takeByte();
        }
        return v;
    }

    /** Reads one record into r through the interface: one interface call per byte. */
    static void decerealise(Source s, byte[] data, Record r) throws CorruptException {
        r.id = (int) takeBE(s, 4);
        r.kind = s.takeByte();
        r.delta = (short) takeBE(s, 2);
        r.stamp = takeBE(s, 8);
        r.active = bool(s.takeByte());
        r.ratio = Float.intBitsToFloat((int) takeBE(s, 4));
        r.value = Double.longBitsToDouble(takeBE(s, 8));
        for (int i = 0; i < 4; i++) {
            r.dims[i] = (short) takeBE(s, 2);
        }
        r.nameLength = (int) takeBE(s, 2);
        r.nameOffset = s.skip(r.nameLength);
        r.nameBytes = data;
    }

    static long takeBE(ArraySource s, int size) throws CorruptException {
        long v = 0;
        for (int i = 0; i < size; i++) {
            v = v << 8 | s.takeByte();
        }
        return v;
    }

    /** Reads one record into r on the final class (the same code against the concrete type). */
    static void decerealise(ArraySource s, Record r) throws CorruptException {
        r.id = (int) takeBE(s, 4);
        r.kind = s.takeByte();
        r.delta = (short) takeBE(s, 2);
        r.stamp = takeBE(s, 8);
        r.active = bool(s.takeByte());
        r.ratio = Float.intBitsToFloat((int) takeBE(s, 4));
        r.value = Double.longBitsToDouble(takeBE(s, 8));
        for (int i = 0; i < 4; i++) {
            r.dims[i] = (short) takeBE(s, 2);
        }
        r.nameLength = (int) takeBE(s, 2);
        r.nameOffset = s.skip(r.nameLength);
        r.nameBytes = s.data;
    }

    static boolean bool(int b) throws CorruptException {
        if (b > 1) {
            throw new CorruptException("corrupt: bool byte " + b + " (not 0 or 1)");
        }
        return b == 1;
    }

    /** The deser/roundtrip checksum of the spec: every field, the name's length and bytes included. */
    static long fold(long checksum, Record r) {
        long s = (r.id & 0xffffffffL) + r.kind + r.delta + r.stamp + (r.active ? 1 : 0)
                + (Float.floatToRawIntBits(r.ratio) & 0xffffffffL) + Double.doubleToRawLongBits(r.value)
                + (r.dims[0] & 0xffff) + (r.dims[1] & 0xffff) + (r.dims[2] & 0xffff) + (r.dims[3] & 0xffff)
                + r.nameLength;
        for (int i = 0; i < r.nameLength; i++) {
            s += r.nameBytes[r.nameOffset + i] & 0xff;
        }
        return checksum * 1000003 + s;
    }

    // ---- the job: `prog FILE OPS` -----------------------------------------------------------------

    final byte[] data;
    final Record[] records;   // decoded once, untimed: this validates the file
    final long ops;

    private Job(byte[] data, Record[] records, long ops) {
        this.data = data;
        this.records = records;
        this.ops = ops;
    }

    static Job parse(String program, String[] args) {
        if (args.length != 2) {
            fail("usage: java " + program + " FILE OPS", 2);
        }
        long ops = 0;
        try {
            ops = Long.parseLong(args[1]);
        } catch (NumberFormatException e) {
            ops = 0;
        }
        if (ops <= 0) {
            fail("OPS must be a positive integer, not '" + args[1] + "'", 2);
        }
        byte[] data = null;
        try {
            data = Files.readAllBytes(Paths.get(args[0]));
        } catch (NoSuchFileException e) {
            fail(args[0] + ": no such file or directory", 1);
        } catch (IOException | RuntimeException e) {
            fail(args[0] + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), 1);
        }
        if (data.length == 0) {
            fail("empty file: no records", 1);
        }
        List<Record> records = new ArrayList<>();
        ArraySource src = new ArraySource(data, 0);
        while (src.pos < data.length) {
            int start = src.pos;
            Record r = new Record();
            try {
                decerealise(src, r);
            } catch (CorruptException e) {
                fail("record " + records.size() + " at byte " + start + ": " + e.getMessage(), 1);
            }
            records.add(r);
        }
        return new Job(data, records.toArray(new Record[0]), ops);
    }

    /** One line on stderr, then exit (status 2 for a usage error, 1 otherwise). No stack trace. */
    static void fail(String message, int status) {
        System.err.println("serialize: " + message);
        System.exit(status);
    }

    /** What a ser loop does with each output: its length, one byte at a varying position, an FNV-1a hash of every 64th. */
    static final class Tally {
        long bytes;
        int xor;
        long hash = 0xcbf29ce484222325L;

        void consume(long n, byte[] out, int length) {
            bytes += length;
            xor ^= out[(int) (n & 31)] & 0xff;
            if (n % 64 == 0) {
                for (int i = 0; i < length; i++) {
                    hash = (hash ^ (out[i] & 0xff)) * 0x100000001b3L;
                }
            }
        }
    }

    interface Serializer {
        void serialize(Record r, long n, Tally tally) throws java.io.IOException;
    }

    interface Deserializer {
        /** Decodes the record at data[pos..] into r; returns the position after it. */
        int deserialize(byte[] data, int pos, Record r) throws CorruptException;
    }

    /** Times OPS serializations: op n serializes record n mod K and hands its output to the tally. */
    void timeSer(Serializer serializer) {
        Tally tally = new Tally();
        int i = 0;
        long allocated = allocatedBytes();
        long start = System.nanoTime();
        try {
            for (long n = 0; n < ops; n++) {
                serializer.serialize(records[i], n, tally);
                if (++i == records.length) {
                    i = 0;
                }
            }
        } catch (java.io.IOException e) {
            fail("serializing: " + e.getMessage(), 1);
        }
        long innerNs = System.nanoTime() - start;
        allocated = allocatedBytes() - allocated;
        report(String.format("{\"ops\": %d, \"bytes\": %d, \"xor\": %d, \"digest\": \"%016x\"}", ops, tally.bytes,
                tally.xor, tally.hash), innerNs, allocated);
    }

    /** Times OPS deserializations walking the file record by record (back to the start after the last). */
    void timeDeser(Deserializer deserializer) {
        Record r = new Record();
        long checksum = 0;
        int pos = 0;
        long allocated = allocatedBytes();
        long start = System.nanoTime();
        for (long n = 0; n < ops; n++) {
            try {
                pos = deserializer.deserialize(data, pos, r);
            } catch (CorruptException e) {
                fail("byte " + pos + ": " + e.getMessage(), 1);
            }
            checksum = fold(checksum, r);
            if (pos == data.length) {
                pos = 0;
            }
        }
        long innerNs = System.nanoTime() - start;
        allocated = allocatedBytes() - allocated;
        report("{\"ops\": " + ops + ", \"checksum\": " + Long.toUnsignedString(checksum) + "}", innerNs, allocated);
    }

    /** Bytes this thread has allocated so far (HotSpot's per-thread counter). */
    static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** The human line on stdout, then the machine line, last, on stderr. */
    void report(String answer, long innerNs, long allocated) {
        double perOp = (double) allocated / ops;
        System.out.printf("%d ops in %.1f ms (%.1f ns/op, %.1f bytes allocated/op): %s%n", ops, innerNs / 1e6,
                (double) innerNs / ops, perOp, answer);
        System.out.flush();
        System.err.println("iorace-result {\"answer\": " + answer + ", \"inner_ns\": " + innerNs
                + ", \"extra\": {\"alloc_bytes_per_op\": " + perOp + "}}");
        System.err.flush();
    }
}
