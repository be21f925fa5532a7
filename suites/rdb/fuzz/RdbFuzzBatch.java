// Not a variant: the Java parser (../java/RdbParser.java) as a long-lived process for the differential fuzz driver.
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads file paths, one a line, on stdin; for each prints one line on stdout:
 * {@code ok <summary json>}, {@code err offset N: message} (what the program prints after "rdb: FILE: "),
 * {@code badline ...} when that message holds a line break (the program's one error line would split),
 * or {@code crash <throwable>} for anything else the parser throws (an uncaught exception or error,
 * OutOfMemoryError included). A file is parsed through java/readfully's own stream (RdbReadFully.open:
 * readFully per field over a 64 KiB BufferedInputStream), Java's fastest parser in the suite's stored
 * results; the JVM stays warm between files, which is what makes the differential driver fast.
 */
public final class RdbFuzzBatch {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String path;
        while ((path = in.readLine()) != null) {
            String out;
            try {
                try (DataInputStream stream = RdbReadFully.open(path)) {
                    RdbParser p = new RdbParser(stream::readFully, new File(path).length());
                    p.parse();
                    out = "ok " + p.json();
                }
            } catch (RdbParser.RdbException e) {
                String line = "offset " + e.offset + ": " + e.getMessage();
                // the program prints this after "rdb: FILE: " as its one stderr line: a line break would split it
                out = (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0 ? "badline " : "err ") + line;
            } catch (Throwable e) {
                out = "crash " + e;
            }
            System.out.println(out.replace("\n", "\\n").replace("\r", "\\r"));
            System.out.flush();
        }
    }
}
