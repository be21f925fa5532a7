// Strategy (original Java #3): NIO FileChannel.map() the whole file, MappedByteBuffer.get() per byte, the end of the file found by BufferUnderflowException.
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public final class MappedByteBufferGet {
    /** One pass: one mapping of the whole file (a MappedByteBuffer holds at most 2 GiB). */
    static final class Source implements Job.ByteSource {
        private final MappedByteBuffer buffer;

        Source(String path) throws IOException {
            try (FileChannel channel = FileChannel.open(Path.of(path), StandardOpenOption.READ)) {
                // unmapped when the buffer is garbage collected; the mapping outlives the channel
                buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            } catch (IllegalArgumentException e) {
                throw new IOException("cannot map " + path + ": " + e.getMessage(), e);
            }
        }

        /** get() with no bounds check of our own: the end of the file is the exception, as in the original. */
        @Override
        public int read() {
            try {
                return buffer.get() & 0xff;
            } catch (BufferUnderflowException endOfFile) {
                return -1;
            }
        }

        @Override
        public void close() {
        }
    }

    public static void main(String[] args) {
        Job.run("MappedByteBufferGet", args, Source::new);
    }
}
