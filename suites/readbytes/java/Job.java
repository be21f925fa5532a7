// Shared by every Java readbytes variant: argument parsing, errors and the result line.
/**
 * The job as given on the command line: {@code prog FILE MODE PASSES}.
 * The Java programs need no per-byte optimisation barrier: HotSpot does not vectorise or fold
 * these read()-until-EOF loops (their times scale with the bytes read). It can drop a load whose
 * value is unused, so every count loop ORs each byte into {@code seen}, printed by report(). The seed's
 * programs as written (*AsWritten, count only) do not: their rows show what the seed measured.
 */
final class Job {
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
        String check = sum ? "" : String.format(", every byte ORed: 0x%02x", seen & 0xff);
        System.out.printf("%s %d (%d passes%s) in %.1f ms%n", sum ? "sum" : "count", answer, passes, check, innerNs / 1e6);
        System.out.flush();
        System.err.println("iorace-result {\"answer\": " + answer + ", \"inner_ns\": " + innerNs + "}");
        System.err.flush();
    }

    /**
     * The file's size, after refusing in one line a job whose bytes over all passes would overflow the int
     * count the seed's programs keep (the as-written cells keep it too: HotSpot compiles their loops as the
     * seed's only with the seed's method as it was).
     */
    long fitsSeedsIntCount() {
        long size = 0;
        try {
            size = java.nio.file.Files.size(java.nio.file.Path.of(path));
        } catch (java.io.IOException e) {
            fail(describe(path, e));
        }
        if (size * (long) passes > Integer.MAX_VALUE) {
            fail(passes + " passes of " + size + " bytes overflow the seed's int count: at most " + Integer.MAX_VALUE + " bytes", 2);
        }
        return size;
    }

    /** The same lines for the seed's programs as written (count only): their count loops use no byte, so nothing is ORed. */
    void reportAsWritten(long count, long innerNs) {
        System.out.printf("count %d (%d passes, as the seed wrote it: no byte used) in %.1f ms%n", count, passes, innerNs / 1e6);
        System.out.flush();
        System.err.println("iorace-result {\"answer\": " + count + ", \"inner_ns\": " + innerNs + "}");
        System.err.flush();
    }
}
