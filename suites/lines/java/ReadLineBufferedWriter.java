// Strategy: BufferedReader.readLine (UTF-8 decoded to a String, "\n"/"\r\n"/"\r" dropped) + BufferedWriter.write(line) and '\n' over stdout; CRLF, a missing final newline and bytes that are not UTF-8 are not kept.
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;

public class ReadLineBufferedWriter {
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ReadLineBufferedWriter FILE");
            System.exit(2);
        }
        try (BufferedReader in = new BufferedReader(
                     new InputStreamReader(new FileInputStream(args[0]), StandardCharsets.UTF_8));
             BufferedWriter out = new BufferedWriter(
                     new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.write('\n');
            }
        } catch (IOException e) {
            System.err.println(args[0] + ": " + e.getMessage());
            System.exit(1);
        }
    }
}
