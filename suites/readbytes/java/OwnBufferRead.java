// Strategy (original Java #2): FileInputStream.read(byte[]) fills an own 8 KiB buffer; the own reader's int read(byte[] target) puts one byte in target[0] and returns 1, or 0 at EOF.
import java.io.FileInputStream;
import java.io.IOException;

public final class OwnBufferRead {
    /** The original's reader: "a read into a buffer[1] with buffering". Not synchronized, not an InputStream. */
    static final class ByteReader implements AutoCloseable {
        private static final int BUFFER_SIZE = 8192;
        private final FileInputStream in;
        private final byte[] buffer = new byte[BUFFER_SIZE];
        private int next = 0;
        private int end = 0;

        ByteReader(String path) throws IOException {
            in = new FileInputStream(path);
        }

        /** Copies the next byte into target[0] and returns 1, or returns 0 at EOF (the original's shape). */
        int read(byte[] target) throws IOException {
            if (next == end && !fill()) {
                return 0;
            }
            target[0] = buffer[next++];
            return 1;
        }

        private boolean fill() throws IOException {
            int n = in.read(buffer, 0, BUFFER_SIZE);
            next = 0;
            end = Math.max(n, 0);
            return n > 0;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    public static void main(String[] args) {
        Job job = Job.parse("OwnBufferRead", args);
        long count = 0;
        long sum = 0;
        int seen = 0;   // every byte of the count loop ORed together: the count loop loads each byte
        long start = System.nanoTime();
        try {
            for (int pass = 0; pass < job.passes; pass++) {
                try (ByteReader reader = new ByteReader(job.path)) {
                    byte[] target = new byte[1];   // the application's one-byte buffer
                    if (job.sum) {
                        while (reader.read(target) == 1) {
                            sum += target[0] & 0xff;
                            count++;
                        }
                    } else {
                        while (reader.read(target) == 1) {
                            seen |= target[0];
                            count++;
                        }
                    }
                }
            }
        } catch (IOException e) {
            Job.fail(Job.describe(job.path, e));
        }
        long innerNs = System.nanoTime() - start;
        job.report(job.sum ? sum + count : count, seen, innerNs);
    }
}
