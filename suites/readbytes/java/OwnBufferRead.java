// Strategy (original Java #2): FileInputStream.read(byte[]) fills an own 8 KiB buffer; the own reader's int read() hands it out byte by byte, -1 at EOF.
import java.io.FileInputStream;
import java.io.IOException;

public final class OwnBufferRead {
    /** A reader with InputStream's read() contract, not synchronized, not an InputStream. */
    static final class ByteReader implements AutoCloseable {
        private static final int BUFFER_SIZE = 8192;
        private final FileInputStream in;
        private final byte[] buffer = new byte[BUFFER_SIZE];
        private int next = 0;
        private int end = 0;

        ByteReader(String path) throws IOException {
            in = new FileInputStream(path);
        }

        /** The next byte (0..255), or -1 at EOF. */
        int read() throws IOException {
            if (next == end && !fill()) {
                return -1;
            }
            return buffer[next++] & 0xff;
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
        long start = System.nanoTime();
        try {
            for (int pass = 0; pass < job.passes; pass++) {
                try (ByteReader reader = new ByteReader(job.path)) {
                    int b;
                    if (job.sum) {
                        while ((b = reader.read()) != -1) {
                            sum += b;
                            count++;
                        }
                    } else {
                        while (reader.read() != -1) {
                            count++;
                        }
                    }
                }
            }
        } catch (IOException e) {
            Job.fail(Job.describe(job.path, e));
        }
        long innerNs = System.nanoTime() - start;
        job.report(job.sum ? sum + count : count, innerNs);
    }
}
