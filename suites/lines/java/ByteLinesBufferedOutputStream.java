// Strategy: bytes, not Strings: an own 128 KiB window filled by FileInputStream.read, scanned for '\n' byte by byte; each line (terminator kept) goes to a 128 KiB BufferedOutputStream.
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

public class ByteLinesBufferedOutputStream {
    static final int READ_SIZE = 128 * 1024;

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ByteLinesBufferedOutputStream FILE");
            System.exit(2);
        }
        try (InputStream in = new FileInputStream(args[0]);
             OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 128 * 1024)) {
            copyLines(in, out);
        } catch (IOException e) {
            System.err.println(args[0] + ": " + e.getMessage());
            System.exit(1);
        }
    }

    // The window is buf[start, end); buf[start, scanned) holds no '\n'.
    static void copyLines(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[2 * READ_SIZE];
        int start = 0, end = 0, scanned = 0;
        for (;;) {
            while (scanned < end) {
                if (buf[scanned++] == '\n') {
                    out.write(buf, start, scanned - start);
                    start = scanned;
                }
            }
            // No '\n' left: move the partial line to the front, grow if a read would not fit.
            System.arraycopy(buf, start, buf, 0, end - start);
            end -= start;
            scanned = end;
            start = 0;
            if (buf.length - end < READ_SIZE) buf = Arrays.copyOf(buf, buf.length * 2);
            int n = in.read(buf, end, READ_SIZE);
            if (n < 0) break;
            end += n;
        }
        out.write(buf, 0, end); // a last line without '\n'
    }
}
