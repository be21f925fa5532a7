// Not a variant: the rdb Java parser run N times in one JVM over a dump held in memory, to show JIT warm-up.
import java.io.EOFException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Paths;

/** `WarmPasses FILE [N [inplace]]`: parse FILE N times (default 5) from one byte array in one JVM, and print
 *  each pass's CPU time on this thread (ThreadMXBean: the JIT's own threads are not counted) and wall time.
 *  The first pass pays for interpretation and compilation; the later ones are the warm parser. With
 *  `inplace` the parser reads the array in place (java/inplace's path), else copies each field out of it. */
public final class WarmPasses {
    public static void main(String[] args) throws Exception {
        byte[] data = Files.readAllBytes(Paths.get(args[0]));
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        boolean inPlace = args.length > 2 && args[2].equals("inplace");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        String first = null;
        for (int k = 1; k <= passes; k++) {
            int[] at = {0};
            RdbParser.Source src = (b, off, len) -> {
                if (len > data.length - at[0]) throw new EOFException("premature EOF");
                System.arraycopy(data, at[0], b, off, len);
                at[0] += len;
            };
            long cpu0 = mx.getCurrentThreadCpuTime(), t0 = System.nanoTime();
            RdbParser p = new RdbParser(src, data.length);
            if (inPlace) p.inPlace(data);
            p.parse();
            long cpu = mx.getCurrentThreadCpuTime() - cpu0, wall = System.nanoTime() - t0;
            String json = p.json();
            if (first == null) first = json;
            else if (!first.equals(json)) throw new IllegalStateException("pass " + k + " answered differently");
            System.out.printf("pass %d: cpu %d ms, wall %d ms%n", k, cpu / 1_000_000, wall / 1_000_000);
        }
    }
}
