// Strategy: FileChannel.map() the whole file, int read() = MappedByteBuffer.get() per byte, ending on BufferUnderflowException: the seed's program as written (original Java #3: its count loop never looks at the bytes).
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.BufferUnderflowException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The seed's ReadBytes3, re-typed: the same reader (a RandomAccessFile's channel mapped
 * read-only whole, int read() returning MappedByteBuffer.get()), the same count loop (one read() before
 * it, then {@code while (true) { ++count; read(); }} until get() throws BufferUnderflowException, an int
 * count), in a static readBytes() called once from main, as the seed's. The count is how many get()
 * calls the loop made before the buffer ran out; the loop never uses the byte, so a JIT may drop its
 * load (our java/mapped-byte-buffer ORs every byte into a printed value instead).
 * Departures, none inside readBytes' loops: the path and the passes come from the command line (the seed:
 * /tmp/shop_with_ids.pb, 10); an empty file counts 0 without a mapping (the seed's first read() threw);
 * each pass closes its channel after its loop (the seed left them to the garbage collector); main refuses,
 * in one line, passes whose bytes would overflow the seed's int count; errors are one line on stderr. With
 * the first read() inside the try and a per-pass count added to a long (this cell until the seed-fidelity
 * layout study), HotSpot ran the same bytecode loop 1.42-1.46x the seed's program by their own times; as the
 * seed's method, 1.02-1.09x in five sessions, its compiled loop the seed's instruction for instruction
 * (docs/results/2026-11-27-seed-fidelity-layouts/java-compiled-loops.txt).
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

    /** The seed's readBytes(): every pass a new mapping of the file, one int count of the get() calls until it is exhausted. */
    static int readBytes(String path, int passes) throws IOException {
        int count = 0;
        for (int i = 0; i < passes; i++) {
            MappedReader in = new MappedReader(path);
            in.read();
            try {
                while (true) {
                    ++count;
                    in.read();
                }
            } catch (BufferUnderflowException e) {
                // the end of the mapping: this pass is done
            }
            in.close();
        }
        return count;
    }

    public static void main(String[] args) {
        Job job = Job.parse("MappedByteBufferGetAsWritten", args);
        if (job.sum) {
            Job.fail("the seed's program only counts: mode must be count", 2);
        }
        long size = job.fitsSeedsIntCount();
        long count = 0;
        long start = System.nanoTime();
        try {
            count = size == 0 ? 0 : readBytes(job.path, job.passes);
        } catch (IOException | IllegalArgumentException e) {
            Job.fail("cannot map " + Job.describe(job.path, e));
        }
        long innerNs = System.nanoTime() - start;
        job.reportAsWritten(count, innerNs);
    }
}
