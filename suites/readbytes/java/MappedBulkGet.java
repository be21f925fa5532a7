// Strategy: FileChannel.map() the whole file, MappedByteBuffer.get(byte[]) copies 64 KiB chunks into an array, a counted for loop over the array hands the program one byte at a time.
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public final class MappedBulkGet {
    private static final int CHUNK = 64 * 1024;

    /** The per-byte loops, in methods of their own so that C2 compiles each whole (not on stack replacement). */
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
        Job job = Job.parse("MappedBulkGet", args);
        long count = 0;
        long sum = 0;
        int seen = 0;   // every byte of the count loop ORed together: the count loop loads each byte
        byte[] chunk = new byte[CHUNK];
        long start = System.nanoTime();
        try {
            for (int pass = 0; pass < job.passes; pass++) {
                try (FileChannel channel = FileChannel.open(Path.of(job.path), StandardOpenOption.READ)) {
                    // One mapping per pass (at most 2 GiB); unmapped when the buffer is garbage collected.
                    MappedByteBuffer buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
                    int n;
                    while ((n = Math.min(buffer.remaining(), CHUNK)) > 0) {
                        buffer.get(chunk, 0, n);   // one bulk copy out of the mapping
                        if (job.sum) {
                            sum = sumBytes(chunk, n, sum);
                        } else {
                            seen = orBytes(chunk, n, seen);
                        }
                        count += n;   // the bytes the loop above was handed, one at a time
                    }
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            Job.fail("cannot map " + Job.describe(job.path, e));
        }
        long innerNs = System.nanoTime() - start;
        job.report(job.sum ? sum + count : count, seen, innerNs);
    }
}
