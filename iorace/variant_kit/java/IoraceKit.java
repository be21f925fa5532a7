// iorace's variant kit for Java: the argument checks, the passes loop, the monotonic timer and the result line
// of the variant protocol (docs/ARCHITECTURE.md), so that a variant is its loop:
//
//   public static void main(String[] args) { IoraceKit.run(args, job -> { ...; return count; }); }
//
// The program takes `FILE PASSES [PARAM...]`; the pass runs PASSES times, timed as one block, and every pass
// must give the same answer. A variant lists this file after its own in `sources` (what `iorace new` writes).
import java.io.IOException;
import java.util.Arrays;

public final class IoraceKit {
  private IoraceKit() {}

  /** What one run was asked to do. */
  public static final class Job {
    public final String input; // the input file
    public final long passes; // how many times the pass runs (the suite's work parameter)
    public final String[] params; // the arguments after PASSES, as given

    Job(String input, long passes, String[] params) {
      this.input = input;
      this.passes = passes;
      this.params = params;
    }
  }

  /** One pass of the job over the input: its answer (a number). */
  @FunctionalInterface
  public interface Pass {
    long run(Job job) throws IOException;
  }

  /** One line on stderr, then exit with code: for bad input and failed I/O. */
  public static void fail(int code, String message) {
    System.err.println("error: " + message);
    System.exit(code);
  }

  /** Parse FILE PASSES [PARAM...], run the pass PASSES times, print the result line and exit. */
  public static void run(String[] args, Pass pass) {
    if (args.length < 2) {
      fail(2, "usage: java CLASS FILE PASSES [PARAM...]");
    }
    long passes = 0;
    try {
      passes = Long.parseLong(args[1]);
    } catch (NumberFormatException e) {
      passes = 0;
    }
    if (passes < 1) {
      fail(2, "PASSES must be a positive integer, not '" + args[1] + "'");
    }
    Job job = new Job(args[0], passes, Arrays.copyOfRange(args, 2, args.length));
    long start = System.nanoTime(); // monotonic
    long answer = 0;
    try {
      answer = pass.run(job);
      for (long p = 2; p <= passes; p++) {
        long again = pass.run(job);
        if (again != answer) {
          fail(1, "pass " + p + " answered " + again + ", the first pass " + answer);
        }
      }
    } catch (IOException e) {
      fail(1, job.input + ": " + e.getMessage());
    }
    long innerNs = System.nanoTime() - start;
    System.err.println("iorace-result {\"answer\": " + answer + ", \"inner_ns\": " + innerNs + "}");
    System.exit(0);
  }
}
