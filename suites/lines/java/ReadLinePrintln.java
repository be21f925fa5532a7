// Strategy: BufferedReader.readLine (UTF-8 decoded to a String, "\n"/"\r\n"/"\r" dropped) + System.out.println, which flushes its 128-byte buffer at every line; CRLF, a missing final newline and bytes that are not UTF-8 are not kept.
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public class ReadLinePrintln {
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ReadLinePrintln FILE");
            System.exit(2);
        }
        // System.out as the JDK builds it (128-byte buffer, flush at every println), but with
        // UTF-8 fixed: the JDK 17 default follows the locale and may be ASCII.
        PrintStream out = new PrintStream(
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 128), true, StandardCharsets.UTF_8);
        System.setOut(out);
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(new FileInputStream(args[0]), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                System.out.println(line);
            }
        } catch (IOException e) {
            System.err.println(args[0] + ": " + e.getMessage());
            System.exit(1);
        }
        if (System.out.checkError()) {
            System.err.println("write error");
            System.exit(1);
        }
    }
}
