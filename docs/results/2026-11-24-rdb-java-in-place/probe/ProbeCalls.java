// Not a variant: compiled beside a copy of RdbParser.java in its own class directory, so WarmProbe can load several
// parsers (this tree's, another commit's, a copy without the CRC) in one JVM, each through its own class loader.
import java.io.IOException;

public final class ProbeCalls {
    /** One in-place parse of the whole file held in data (java/inplace's path): the summary's JSON. */
    public static String parse(byte[] data) {
        RdbParser p = new RdbParser((b, off, len) -> {
            throw new IOException("an in-place source is read through the array");
        }, data.length);
        p.inPlace(data);
        p.parse();
        return p.json();
    }

    /** The parser's CRC-64 function over p[0..n), from 0. */
    public static long crc(byte[] p, int n) {
        return RdbParser.crc64(0, p, 0, n);
    }
}
