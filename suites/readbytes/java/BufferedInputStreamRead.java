// Strategy (original Java #1): BufferedInputStream.read() per byte over a FileInputStream (8 KiB buffer; read() is synchronized in JDK 17).
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;

public final class BufferedInputStreamRead {
    /** One pass: the JDK's BufferedInputStream, whose read() already has the -1-at-EOF contract. */
    static final class Source implements Job.ByteSource {
        private final BufferedInputStream in;

        Source(String path) throws IOException {
            in = new BufferedInputStream(new FileInputStream(path));
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    public static void main(String[] args) {
        Job.run("BufferedInputStreamRead", args, Source::new);
    }
}
