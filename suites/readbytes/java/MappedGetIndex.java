// Strategy: an expert's loop over a mapping in Java: FileChannel.map() the whole file, MappedByteBuffer.get(i) (absolute, no position update) per byte in a counted loop.
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public final class MappedGetIndex {
    /** The per-byte loops, in methods of their own so that C2 compiles each whole (not on stack replacement). */
    static int orBytes(MappedByteBuffer buffer, int n, int seen) {
        for (int i = 0; i < n; i++) {
            seen |= buffer.get(i);
        }
        return seen;
    }

    static long sumBytes(MappedByteBuffer buffer, int n, long sum) {
        for (int i = 0; i < n; i++) {
            sum += buffer.get(i) & 0xff;
        }
        return sum;
    }

    public static void main(String[] args) {
        Job job = Job.parse("MappedGetIndex", args);
        long count = 0;
        long sum = 0;
        int seen = 0;   // every byte of the count loop ORed together: the count loop loads each byte
        long start = System.nanoTime();
        try {
            for (int pass = 0; pass < job.passes; pass++) {
                try (FileChannel channel = FileChannel.open(Path.of(job.path), StandardOpenOption.READ)) {
                    // One mapping per pass (at most 2 GiB); unmapped when the buffer is garbage collected.
                    MappedByteBuffer buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
                    int n = buffer.limit();
                    if (job.sum) {
                        sum = sumBytes(buffer, n, sum);
                    } else {
                        seen = orBytes(buffer, n, seen);
                    }
                    count += n;   // the bytes the loop above was handed, one at a time
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            Job.fail("cannot map " + Job.describe(job.path, e));
        }
        long innerNs = System.nanoTime() - start;
        job.report(job.sum ? sum + count : count, seen, innerNs);
    }
}
