// Strategy (original Java #3): NIO FileChannel.map() the whole file, MappedByteBuffer.get() per byte, the loop ends on BufferUnderflowException.
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

public final class MappedByteBufferGet {
    public static void main(String[] args) {
        Job job = Job.parse("MappedByteBufferGet", args);
        long count = 0;
        long sum = 0;
        int seen = 0;   // every byte of the count loop ORed together: the count loop loads each byte
        long start = System.nanoTime();
        try {
            for (int pass = 0; pass < job.passes; pass++) {
                try (FileChannel channel = FileChannel.open(Path.of(job.path), StandardOpenOption.READ)) {
                    // One mapping per pass (a MappedByteBuffer holds at most 2 GiB);
                    // it is unmapped when the buffer is garbage collected.
                    MappedByteBuffer buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
                    try {
                        if (job.sum) {
                            while (true) {
                                sum += buffer.get() & 0xff;
                                count++;
                            }
                        } else {
                            while (true) {
                                seen |= buffer.get();
                                count++;
                            }
                        }
                    } catch (BufferUnderflowException endOfFile) {
                        // the end of the mapping: this pass is done
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
