// Strategy: NIO FileChannel.read() fills an own 64 KiB direct ByteBuffer; the own reader's int read() takes ByteBuffer.get() per byte, -1 at EOF.
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public final class FileChannelByteBuffer {
    static final class ChannelReader implements Job.ByteSource {
        private static final int BUFFER_SIZE = 64 * 1024;
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);

        ChannelReader(String path) throws IOException {
            channel = FileChannel.open(Path.of(path), StandardOpenOption.READ);
            buffer.limit(0);   // empty: the first read() fills it
        }

        /** The next byte (0..255), or -1 at EOF. */
        @Override
        public int read() throws IOException {
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
        Job.run("FileChannelByteBuffer", args, ChannelReader::new);
    }
}
