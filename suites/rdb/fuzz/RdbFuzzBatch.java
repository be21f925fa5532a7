// Not a variant: the Java parser (../java/RdbParser.java) as a long-lived process for the differential fuzz driver.
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * {@code java RdbFuzzBatch STRATEGY}: reads file paths, one a line, on stdin; for each prints one line on stdout:
 * {@code ok <summary json>}, {@code err offset N: message} (what the program prints after "rdb: FILE: "),
 * {@code badline ...} when that message holds a line break (the program's one error line would split),
 * or {@code crash <throwable>} for anything else the parser throws (an uncaught exception or error,
 * OutOfMemoryError included). STRATEGY is the class of the variant a file is parsed through, with that
 * variant's own source: {@code RdbInPlace} (java/inplace: the file in one byte[], parsed in place, as
 * RdbParser.run does for a WholeFile source) or {@code RdbReadFully} (java/readfully: readFully per field over a
 * 64 KiB BufferedInputStream); the driver passes Java's fastest parser in the suite's stored results
 * (rdbfuzz.py's FASTEST and JAVA_BATCH). The JVM stays warm between files, which is what makes the
 * differential driver fast.
 */
public final class RdbFuzzBatch {
    public static void main(String[] args) throws Exception {
        if (args.length != 1 || !(args[0].equals("RdbInPlace") || args[0].equals("RdbReadFully"))) {
            System.err.println("usage: java RdbFuzzBatch RdbInPlace|RdbReadFully");
            System.exit(2);
        }
        String strategy = args[0];
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String path;
        while ((path = in.readLine()) != null) {
            String out;
            try {
                out = "ok " + parse(strategy, path);
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

    /** One file through the strategy's own source, the way its program (RdbParser.run) parses it. */
    static String parse(String strategy, String path) throws IOException {
        if (strategy.equals("RdbReadFully")) {
            try (DataInputStream stream = RdbReadFully.open(path)) { // closed: the batch reads thousands of files
                RdbParser p = new RdbParser(stream::readFully, new File(path).length());
                p.parse();
                return p.json();
            }
        }
        long[] size = new long[1];
        RdbParser.Source src = RdbInPlace.open(path, size); // reads the file into its array, channel closed
        RdbParser p = new RdbParser(src, size[0]);
        if (src instanceof RdbParser.WholeFile) p.inPlace(((RdbParser.WholeFile) src).bytes());
        p.parse();
        return p.json();
    }
}
