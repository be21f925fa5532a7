// The file mapped into MappedByteBuffers (FileChannel.map, 1 GiB windows); ByteBuffer.get(byte[], off, len) per field.
import java.io.EOFException;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

public final class RdbByteBuffer {
    /** One mapping can hold at most 2 GiB - 1 bytes, so a larger dump is mapped a window at a time
     *  (-Drdb.window=N sets another size, so the tests can cross windows on a small file). */
    static final long WINDOW = Long.getLong("rdb.window", 1L << 30);

    public static void main(String[] args) {
        RdbParser.run(args, RdbByteBuffer::open);
    }

    /** The strategy's source: this program's, and RdbInPlace's for a file too large for one array. */
    static RdbParser.Source open(String path, long[] size) throws IOException {
        FileChannel ch = FileChannel.open(Paths.get(path), StandardOpenOption.READ);
        size[0] = ch.size();
        return new RdbParser.Source() {
            long base; // file offset of the current window
            MappedByteBuffer buf = map(ch, 0, size[0]);

            public void readFully(byte[] b, int off, int len) throws IOException {
                while (len > buf.remaining()) { // the rest of this window, then the next one
                    int k = buf.remaining();
                    buf.get(b, off, k);
                    off += k;
                    len -= k;
                    base += buf.capacity();
                    if (base >= size[0]) throw new EOFException("premature EOF");
                    buf = map(ch, base, size[0]);
                }
                buf.get(b, off, len);
            }
        };
    }

    static MappedByteBuffer map(FileChannel ch, long base, long size) throws IOException {
        return ch.map(FileChannel.MapMode.READ_ONLY, base, Math.min(WINDOW, size - base));
    }
}
