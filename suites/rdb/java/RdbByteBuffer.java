// The file mapped into a MappedByteBuffer (FileChannel.map); ByteBuffer.get(byte[], off, len) per field.
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

public final class RdbByteBuffer {
    public static void main(String[] args) {
        RdbParser.run(args, (path, size) -> {
            ByteBuffer buf;
            try (FileChannel ch = FileChannel.open(Paths.get(path), StandardOpenOption.READ)) {
                size[0] = ch.size();
                buf = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
            }
            return (b, off, len) -> {
                if (len > buf.remaining()) throw new EOFException("premature EOF");
                buf.get(b, off, len);
            };
        });
    }
}
