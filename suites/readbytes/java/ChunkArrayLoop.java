// Strategy: an expert's Java loop: FileInputStream.read(byte[]) fills a 64 KiB chunk, a counted for loop over the array hands the program one byte at a time (compiled whole by C2, unrolled, no bounds check per byte).
import java.io.FileInputStream;
import java.io.IOException;

public final class ChunkArrayLoop {
    private static final int CHUNK = 64 * 1024;

    /** The per-byte loops: a plain counted loop over the array, in a method of its own so that C2
     *  compiles it as a whole (not on stack replacement inside main) and removes the range checks. */
    static int orBytes(byte[] chunk, int n, int seen) {
        for (int i = 0; i < n; i++) {
            seen |= chunk[i];
        }
        return seen;
    }

    static long sumBytes(byte[] chunk, int n, long sum) {
        for (int i = 0; i < n; i++) {
            sum += chunk[i] & 0xff;
        }
        return sum;
    }

    public static void main(String[] args) {
        Job job = Job.parse("ChunkArrayLoop", args);
        long count = 0;
        long sum = 0;
        int seen = 0;   // every byte of the count loop ORed together: the count loop loads each byte
        byte[] chunk = new byte[CHUNK];
        long start = System.nanoTime();
        try {
            for (int pass = 0; pass < job.passes; pass++) {
                try (FileInputStream in = new FileInputStream(job.path)) {
                    int n;
                    while ((n = in.read(chunk, 0, CHUNK)) > 0) {
                        if (job.sum) {
                            sum = sumBytes(chunk, n, sum);
                        } else {
                            seen = orBytes(chunk, n, seen);
                        }
                        count += n;   // the bytes the loop above was handed, one at a time
                    }
                }
            }
        } catch (IOException e) {
            Job.fail(Job.describe(job.path, e));
        }
        long innerNs = System.nanoTime() - start;
        job.report(job.sum ? sum + count : count, seen, innerNs);
    }
}
