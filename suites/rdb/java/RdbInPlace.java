// The whole file read into one byte[] and parsed in place: strings and compact blobs are borrowed from the array, never copied; the CRC-64 from the array, caught up after a key once 64 KiB behind.
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

public final class RdbInPlace {
    /** A Java array holds at most this many bytes: a larger file is read through RdbByteBuffer's windows. */
    static final long MAX_ARRAY = Integer.MAX_VALUE - 16;

    public static void main(String[] args) {
        RdbParser.run(args, RdbInPlace::open);
    }

    /** The strategy's source: this program's, and the differential fuzz driver's (../fuzz/RdbFuzzBatch.java). */
    static RdbParser.Source open(String path, long[] size) throws IOException {
        try (FileChannel ch = FileChannel.open(Paths.get(path), StandardOpenOption.READ)) {
            size[0] = ch.size();
            if (size[0] > MAX_ARRAY) return RdbByteBuffer.open(path, size);
            byte[] data = new byte[(int) size[0]];
            ByteBuffer bb = ByteBuffer.wrap(data);
            while (bb.hasRemaining()) if (ch.read(bb) < 0) throw new EOFException("file shrank while read");
            return new RdbParser.WholeFile() {
                public byte[] bytes() {
                    return data;
                }

                public void readFully(byte[] b, int off, int len) throws IOException {
                    throw new IOException("an in-place source is read through bytes()");
                }
            };
        }
    }
}
