// Strategy: NIO FileChannel.read() fills an own 64 KiB direct ByteBuffer; the own reader's int read() takes ByteBuffer.get() per byte, -1 at EOF.
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public final class FileChannelByteBuffer {
    static final class ChannelReader implements AutoCloseable {
        private static final int BUFFER_SIZE = 64 * 1024;
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);

        ChannelReader(String path) throws IOException {
            channel = FileChannel.open(Path.of(path), StandardOpenOption.READ);
            buffer.limit(0);   // empty: the first read() fills it
        }

        /** The next byte (0..255), or -1 at EOF. */
        int read() throws IOException {
            if (!buffer.hasRemaining() && !fill()) {
                return -1;
            }
            return buffer.get() & 0xff;
        }

        private boolean fill() throws IOException {
            buffer.clear();
            int n;
            do {
                n = channel.read(buffer);   // 0 only for a non-blocking channel; loop to be safe
            } while (n == 0);
            buffer.flip();
            return n > 0;
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    public static void main(String[] args) {
        Job job = Job.parse("FileChannelByteBuffer", args);
        long count = 0;
        long sum = 0;
        int seen = 0;   // every byte of the count loop ORed together: the count loop loads each byte
        long start = System.nanoTime();
        try {
            for (int pass = 0; pass < job.passes; pass++) {
                try (ChannelReader reader = new ChannelReader(job.path)) {
                    int b;
                    if (job.sum) {
                        while ((b = reader.read()) != -1) {
                            sum += b;
                            count++;
                        }
                    } else {
                        while ((b = reader.read()) != -1) {
                            seen |= b;
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
