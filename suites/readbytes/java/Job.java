// Shared by every Java readbytes variant: argument parsing, the timed passes loop, errors and the result line.
import java.io.IOException;

/**
 * The job as given on the command line: {@code prog FILE MODE PASSES}, and the loop that runs it
 * (as cpp/common.hpp does for C++): a variant only supplies a {@link ByteSource} whose
 * {@code read()} returns the next byte (0..255) or -1 at the end; every byte of every pass goes
 * through that call.
 *
 * <p>Every byte is consumed: the sum loop adds it, and the count loop ORs it into a value printed
 * on stdout, so HotSpot cannot drop the load (a count loop that called {@code get()} and ignored
 * the result let the JIT skip reading the byte). HotSpot does not vectorise or fold these
 * read()-until-EOF loops, so no other barrier is needed.
 */
final class Job {
    /** One pass's reader: the strategy a variant shows. */
    interface ByteSource extends AutoCloseable {
        /** The next byte (0..255), or -1 at the end of the file. */
        int read() throws IOException;

        @Override
        void close() throws IOException;
    }

    /** Opens a fresh reader on the file for each pass. */
    interface Opener {
        ByteSource open(String path) throws IOException;
    }

    /** Parses the arguments, runs the passes through {@code opener}'s readers, times them and reports. */
    static void run(String program, String[] args, Opener opener) {
        Job job = parse(program, args);
        long count = 0;
        long sum = 0;
        int seen = 0;   // every byte of the count loop ORed together: the count loop consumes each byte
        long start = System.nanoTime();
        try {
            for (int pass = 0; pass < job.passes; pass++) {
                try (ByteSource source = opener.open(job.path)) {
                    int b;
                    if (job.sum) {
                        while ((b = source.read()) != -1) {
                            sum += b;
                            count++;
                        }
                    } else {
                        while ((b = source.read()) != -1) {
                            seen |= b;
                            count++;
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            fail(describe(job.path, e));
        }
        long innerNs = System.nanoTime() - start;
        job.report(job.sum ? sum + count : count, seen, innerNs);
    }

    final String path;
    final boolean sum;   // "sum": every byte value plus the count; "count": the count only
    final int passes;    // the file is reopened for every pass

    private Job(String path, boolean sum, int passes) {
        this.path = path;
        this.sum = sum;
        this.passes = passes;
    }

    static Job parse(String program, String[] args) {
        if (args.length != 3) {
            fail("usage: java " + program + " FILE count|sum PASSES", 2);
        }
        boolean sum = false;
        switch (args[1]) {
            case "count": sum = false; break;
            case "sum": sum = true; break;
            default: fail("mode must be count or sum, not '" + args[1] + "'", 2);
        }
        int passes = 0;
        try {
            passes = Integer.parseInt(args[2]);
        } catch (NumberFormatException e) {
            passes = 0;
        }
        if (passes <= 0) {
            fail("passes must be a positive integer, not '" + args[2] + "'", 2);
        }
        return new Job(args[0], sum, passes);
    }

    /** One line on stderr, then exit (status 2 for a usage error, 1 otherwise). No stack trace. */
    static void fail(String message, int status) {
        System.err.println("readbytes: " + message);
        System.exit(status);
    }

    static void fail(String message) {
        fail(message, 1);
    }

    /** A one-line reason for an I/O failure on {@code path}, without the exception's class name. */
    static String describe(String path, Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return path + ": no such file or directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return path + ": permission denied";
        }
        String message = e.getMessage();
        if (message == null) {
            message = e.getClass().getSimpleName();
        }
        return message.contains(path) ? message : path + ": " + message;
    }

    /** The human line on stdout (with the count loop's OR of every byte), then the machine line, last, on stderr. */
    void report(long answer, int seen, long innerNs) {
        String check = sum ? "" : String.format(", every byte ORed: 0x%02x", seen);
        System.out.printf("%s %d (%d passes%s) in %.1f ms%n", sum ? "sum" : "count", answer, passes, check, innerNs / 1e6);
        System.out.flush();
        System.err.println("iorace-result {\"answer\": " + answer + ", \"inner_ns\": " + innerNs + "}");
        System.err.flush();
    }
}
