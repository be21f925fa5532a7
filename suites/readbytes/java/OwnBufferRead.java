// Strategy (original Java #2): FileInputStream.read(byte[]) fills an own 8 KiB buffer; the own reader's int read(byte[] target) puts one byte in target[0] and returns 1, or 0 at EOF.
import java.io.FileInputStream;
import java.io.IOException;

public final class OwnBufferRead {
    /** The original's reader: "a read into a buffer[1] with buffering". Not synchronized, not an InputStream. */
    static final class ByteReader implements Job.ByteSource {
        private static final int BUFFER_SIZE = 8192;
        private final FileInputStream in;
        private final byte[] buffer = new byte[BUFFER_SIZE];
        private final byte[] target = new byte[1];   // the application's one-byte buffer
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

        /** The application's side of the job's contract: one byte through read(byte[]), -1 at EOF. */
        @Override
        public int read() throws IOException {
            return read(target) == 1 ? target[0] & 0xff : -1;
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
        Job.run("OwnBufferRead", args, ByteReader::new);
    }
}
