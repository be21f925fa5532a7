// Strategy: FileInputStream.read(byte[]) fills an own 8 KiB buffer, int read(byte[] target) per byte: the seed's program as written (original Java #2: its count loop never looks at the bytes).
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The seed's ReadBytes2, re-typed (issue 32): the same reader (an InputStream field, an 8 KiB buffer,
 * fillBuffer() returning what read(byte[]) returned, read(byte[] target) putting the byte in target[0]
 * and returning 1, or 0 once fillBuffer() saw -1), the same count loop (the first read() before it, the
 * next at its end, {@code while (c == 1)}, an int count), in a static readBytes() called once from
 * main, as the seed's. The count is what read() says it delivered; the loop never uses the byte, so a
 * JIT may drop its load (our java/own-buffer ORs every byte into a printed value instead).
 * Departures, none inside the per-byte loop: the path and the passes come from the command line (the
 * seed: /tmp/shop_with_ids.pb, 10); each pass's int count is added to a long total (the seed kept one
 * int for all passes: it overflows after 166 passes of the seed file); each pass closes its file (the
 * seed left its ten FileInputStreams to the garbage collector); errors are one line on stderr.
 */
public final class OwnBufferReadAsWritten {
    /** The seed's FileReader. */
    static class FileReader {
        private InputStream input;
        private byte[] buffer = new byte[8192];
        private int pos = 0;
        private int available = 0;

        FileReader(InputStream input) {
            this.input = input;
        }

        int read(byte[] target) throws IOException {
            if (pos == available) {
                available = fillBuffer();
                if (-1 == available) {
                    return 0;
                }
            }
            target[0] = buffer[pos++];
            return 1;
        }

        private int fillBuffer() throws IOException {
            pos = 0;
            return input.read(buffer);
        }
    }

    /** The seed's readBytes(): every pass a new reader over the file, counting the read() calls that returned 1. */
    static long readBytes(String path, int passes) throws IOException {
        long total = 0;
        for (int i = 0; i < passes; i++) {
            try (FileInputStream file = new FileInputStream(path)) {
                FileReader in = new FileReader(file);
                byte[] buffer = new byte[1];
                int count = 0;
                int c = in.read(buffer);
                while (c == 1) {
                    ++count;
                    c = in.read(buffer);
                }
                total += count;
            }
        }
        return total;
    }

    public static void main(String[] args) {
        Job job = Job.parse("OwnBufferReadAsWritten", args);
        if (job.sum) {
            Job.fail("the seed's program only counts: mode must be count", 2);
        }
        long count = 0;
        long start = System.nanoTime();
        try {
            count = readBytes(job.path, job.passes);
        } catch (IOException e) {
            Job.fail(Job.describe(job.path, e));
        }
        long innerNs = System.nanoTime() - start;
        job.reportAsWritten(count, innerNs);
    }
}
