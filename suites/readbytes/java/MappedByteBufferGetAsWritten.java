// Strategy: FileChannel.map() the whole file, int read() = MappedByteBuffer.get() per byte, ending on BufferUnderflowException: the seed's program as written (original Java #3: its count loop never looks at the bytes).
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.BufferUnderflowException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The seed's ReadBytes3, re-typed (issue 32): the same reader (a RandomAccessFile's channel mapped
 * read-only whole, int read() returning MappedByteBuffer.get()), the same count loop (one read() before
 * it, then {@code while (true) { ++count; read(); }} until get() throws BufferUnderflowException, an int
 * count), in a static readBytes() called once from main, as the seed's. The count is how many get()
 * calls the loop made before the buffer ran out; the loop never uses the byte, so a JIT may drop its
 * load (our java/mapped-byte-buffer ORs every byte into a printed value instead).
 * Departures, none inside the per-byte loop: the path and the passes come from the command line (the
 * seed: /tmp/shop_with_ids.pb, 10); the first read() is inside the try, so an empty file counts 0 (the
 * seed's threw); each pass's int count is added to a long total (the seed kept one int for all passes);
 * each pass closes its channel (the seed left them to the garbage collector); errors are one line on stderr.
 */
public final class MappedByteBufferGetAsWritten {
    /** The seed's MemoryMappedFileReader. */
    static class MappedReader {
        private FileChannel channel;
        private MappedByteBuffer buffer;

        MappedReader(String path) throws IOException {
            channel = new RandomAccessFile(path, "r").getChannel();
            buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        }

        int read() {
            return buffer.get();
        }

        void close() throws IOException {
            channel.close();   // closes the RandomAccessFile too; the mapping lives until the buffer is collected
        }
    }

    /** The seed's readBytes(): every pass a new mapping of the file, counting the get() calls until it is exhausted. */
    static long readBytes(String path, int passes) throws IOException {
        long total = 0;
        for (int i = 0; i < passes; i++) {
            MappedReader in = new MappedReader(path);
            int count = 0;
            try {
                in.read();
                while (true) {
                    ++count;
                    in.read();
                }
            } catch (BufferUnderflowException e) {
                // the end of the mapping: this pass is done
            }
            in.close();
            total += count;
        }
        return total;
    }

    public static void main(String[] args) {
        Job job = Job.parse("MappedByteBufferGetAsWritten", args);
        if (job.sum) {
            Job.fail("the seed's program only counts: mode must be count", 2);
        }
        long count = 0;
        long start = System.nanoTime();
        try {
            count = readBytes(job.path, job.passes);
        } catch (IOException | IllegalArgumentException e) {
            Job.fail("cannot map " + Job.describe(job.path, e));
        }
        long innerNs = System.nanoTime() - start;
        job.reportAsWritten(count, innerNs);
    }
}
