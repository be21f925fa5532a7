// Strategy (expert): an own 128 KiB window over FileInputStream, '\n' found 8 bytes at a time (a long read through a byte-array VarHandle, SWAR zero-byte test), lines System.arraycopy'd into an own 128 KiB output array written to an unbuffered FileOutputStream when full: no per-line synchronized BufferedOutputStream.write.
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

public class OwnBuffersSwar {
    static final int READ_SIZE = 128 * 1024;
    static final int OUT_SIZE = 128 * 1024;
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    static final long ONES = 0x0101010101010101L;
    static final long HIGHS = 0x8080808080808080L;

    final OutputStream out;
    final byte[] outBuf = new byte[OUT_SIZE];
    int outLen;

    OwnBuffersSwar(OutputStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: OwnBuffersSwar FILE");
            System.exit(2);
        }
        try (InputStream in = new FileInputStream(args[0]);
             OutputStream out = new FileOutputStream(FileDescriptor.out)) {
            new OwnBuffersSwar(out).copyLines(in);
        } catch (IOException e) {
            System.err.println(args[0] + ": " + e.getMessage());
            System.exit(1);
        }
    }

    // The index of the first '\n' in buf[from, to), or -1. The lowest flagged byte of the
    // zero-byte test is exact (only bytes above a true match can be flagged falsely).
    static int findNewline(byte[] buf, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(buf, i) ^ NEWLINES;
            long t = (x - ONES) & ~x & HIGHS;
            if (t != 0) return i + (Long.numberOfTrailingZeros(t) >>> 3);
        }
        for (; i < to; i++) {
            if (buf[i] == '\n') return i;
        }
        return -1;
    }

    // One line (terminator kept) into the output array; a line longer than it goes out directly.
    void putLine(byte[] src, int from, int n) throws IOException {
        if (outLen + n > OUT_SIZE) {
            flush();
            if (n > OUT_SIZE) {
                out.write(src, from, n);
                return;
            }
        }
        System.arraycopy(src, from, outBuf, outLen, n);
        outLen += n;
    }

    void flush() throws IOException {
        out.write(outBuf, 0, outLen);
        outLen = 0;
    }

    // The window is buf[start, end); buf[start, scanned) holds no '\n'.
    void copyLines(InputStream in) throws IOException {
        byte[] buf = new byte[2 * READ_SIZE];
        int start = 0, end = 0, scanned = 0;
        for (;;) {
            int nl = findNewline(buf, scanned, end);
            if (nl >= 0) {
                putLine(buf, start, nl + 1 - start);
                start = nl + 1;
                scanned = start;
                continue;
            }
            // No '\n' left: move the partial line to the front, grow if a read would not fit.
            System.arraycopy(buf, start, buf, 0, end - start);
            end -= start;
            scanned = end;
            start = 0;
            if (buf.length - end < READ_SIZE) buf = Arrays.copyOf(buf, buf.length * 2);
            int n = in.read(buf, end, READ_SIZE);
            if (n < 0) break;
            end += n;
        }
        putLine(buf, 0, end); // a last line without '\n'
        flush();
    }
}
