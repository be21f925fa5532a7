// Strategy (original Java #1): BufferedInputStream.read() per byte over a FileInputStream (8 KiB buffer; read() is synchronized in JDK 17).
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.IOException;

public final class BufferedInputStreamRead {
    public static void main(String[] args) {
        Job job = Job.parse("BufferedInputStreamRead", args);
        long count = 0;
        long sum = 0;
        int seen = 0;   // every byte of the count loop ORed together: the count loop loads each byte
        long start = System.nanoTime();
        try {
            for (int pass = 0; pass < job.passes; pass++) {
                try (BufferedInputStream in = new BufferedInputStream(new FileInputStream(job.path))) {
                    int b;
                    if (job.sum) {
                        while ((b = in.read()) != -1) {
                            sum += b;
                            count++;
                        }
                    } else {
                        while ((b = in.read()) != -1) {
                            seen |= b;
                            count++;
                        }
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
