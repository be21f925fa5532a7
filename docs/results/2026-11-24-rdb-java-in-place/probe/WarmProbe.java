// Not a variant: where warm java/inplace's time goes, in interleaved rounds beside other programs (see probe).
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** `WarmProbe DUMP DIGEST ROUNDS WARMUP SPEC...`: DUMP an RDB file (its trailer a CRC-64), DIGEST the digest's
 *  serialization of DUMP (docs/results/2026-11-23-rdb-digest-floor/rdb_digest_floor.py writes it; its CRC-64 must equal the summary's digest).
 *  Each SPEC is one row:
 *  <ul>
 *  <li>{@code java:LABEL:CLASSDIR} a RdbParser + ProbeCalls compiled in CLASSDIR, loaded by a class loader of its
 *      own: each round times one in-place parse of DUMP held in a byte[] (java/inplace's path, the file already
 *      read), the parser's crc64 over DUMP (all but the trailer, checked against it) and over DIGEST (checked
 *      against the parse's digest). WARMUP passes of each first, untimed.</li>
 *  <li>{@code java-nocrc:LABEL:CLASSDIR} as java, but a copy whose crc64 returns at once (a measurement probe,
 *      never a row: the parse with the same work minus the CRC); only the parse is timed.</li>
 *  <li>{@code exec:LABEL:PROGRAM} or {@code exec:LABEL:PROGRAM:digest} a program run as `PROGRAM DUMP` (or
 *      DIGEST), its iorace-result inner_ns taken: rust/inplace, c/inplace, the limit row, the C CRC probe.</li>
 *  </ul>
 *  Every round runs every row once, the order rotated each round; per round it prints each measure in ms (Java:
 *  wall, and the parsing thread's CPU time in brackets; a program: its inner time, and with -Dprobe.perf=true
 *  its task-clock in brackets), then the medians, then the first row's first measure over every other row's first
 *  measure, paired per round. */
public final class WarmProbe {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    /** -Dprobe.perf=true: run each program under `perf stat -e task-clock`, its CPU time shown in brackets (the
     *  whole process, startup included: ~1 ms for these). */
    static final boolean PERF = Boolean.getBoolean("probe.perf");

    interface Row {
        String label();

        /** measures of one round: name -> {wall ms, cpu ms or NaN} */
        List<double[]> round() throws Exception;

        List<String> names();
    }

    public static void main(String[] args) throws Exception {
        byte[] dump = Files.readAllBytes(Paths.get(args[0]));
        byte[] digest = Files.readAllBytes(Paths.get(args[1]));
        int rounds = Integer.parseInt(args[2]), warmup = Integer.parseInt(args[3]);
        long trailer = 0;
        for (int k = 0; k < 8; k++) trailer |= (dump[dump.length - 8 + k] & 0xFFL) << (8 * k);
        final long stored = trailer;
        List<Row> rows = new ArrayList<>();
        for (int a = 4; a < args.length; a++) {
            String[] f = args[a].split(":", 4);
            String kind = f[0], label = f[1];
            if (kind.equals("java") || kind.equals("java-nocrc")) {
                boolean full = kind.equals("java");
                URLClassLoader cl = new URLClassLoader(new URL[] {new File(f[2]).toURI().toURL()}, WarmProbe.class.getClassLoader());
                Class<?> c = Class.forName("ProbeCalls", true, cl);
                Method parse = c.getMethod("parse", byte[].class), crc = c.getMethod("crc", byte[].class, int.class);
                String[] json = {null};
                for (int w = 0; w < warmup; w++) {
                    json[0] = (String) parse.invoke(null, (Object) dump);
                    if (full) {
                        crc.invoke(null, dump, dump.length - 8);
                        crc.invoke(null, digest, digest.length);
                    }
                }
                Matcher m = Pattern.compile("\"digest\": \"([0-9a-f]{16})\"").matcher(json[0]);
                if (!m.find()) throw new IllegalStateException(label + ": no digest in " + json[0]);
                long want = Long.parseUnsignedLong(m.group(1), 16);
                rows.add(new Row() {
                    public String label() {
                        return label;
                    }

                    public List<String> names() {
                        return full ? List.of("parse", "crc(dump)", "crc(digest)") : List.of("parse");
                    }

                    public List<double[]> round() throws Exception {
                        List<double[]> out = new ArrayList<>();
                        long c0 = MX.getCurrentThreadCpuTime(), t0 = System.nanoTime();
                        String j = (String) parse.invoke(null, (Object) dump);
                        out.add(new double[] {(System.nanoTime() - t0) / 1e6, (MX.getCurrentThreadCpuTime() - c0) / 1e6});
                        if (!j.equals(json[0])) throw new IllegalStateException(label + ": the parse answered differently");
                        if (!full) return out;
                        c0 = MX.getCurrentThreadCpuTime();
                        t0 = System.nanoTime();
                        long v = (long) crc.invoke(null, dump, dump.length - 8);
                        out.add(new double[] {(System.nanoTime() - t0) / 1e6, (MX.getCurrentThreadCpuTime() - c0) / 1e6});
                        if (v != stored) throw new IllegalStateException(label + ": crc64 of the dump " + Long.toHexString(v) + ", trailer " + Long.toHexString(stored));
                        c0 = MX.getCurrentThreadCpuTime();
                        t0 = System.nanoTime();
                        v = (long) crc.invoke(null, digest, digest.length);
                        out.add(new double[] {(System.nanoTime() - t0) / 1e6, (MX.getCurrentThreadCpuTime() - c0) / 1e6});
                        if (v != want) throw new IllegalStateException(label + ": crc64 of DIGEST is not the parse's digest");
                        return out;
                    }
                });
            } else if (kind.equals("exec")) {
                String prog = f[2], input = f.length > 3 && f[3].equals("digest") ? args[1] : args[0];
                rows.add(new Row() {
                    public String label() {
                        return label;
                    }

                    public List<String> names() {
                        return List.of(input.equals(args[1]) ? "inner(digest)" : "inner");
                    }

                    public List<double[]> round() throws Exception {
                        List<String> cmd = PERF ? List.of("perf", "stat", "-x,", "-e", "task-clock", prog, input) : List.of(prog, input);
                        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                        String err = new String(p.getErrorStream().readAllBytes());
                        if (p.waitFor() != 0) throw new IllegalStateException(label + ": exit " + p.exitValue() + ": " + err);
                        Matcher m = Pattern.compile("\"inner_ns\": ([0-9]+)").matcher(err);
                        if (!m.find()) throw new IllegalStateException(label + ": no inner_ns in " + err);
                        double cpu = Double.NaN;
                        Matcher t = Pattern.compile("(?m)^([0-9.]+),msec,task-clock").matcher(err);
                        if (PERF && t.find()) cpu = Double.parseDouble(t.group(1));
                        return List.of(new double[] {Long.parseLong(m.group(1)) / 1e6, cpu});
                    }
                });
            } else throw new IllegalArgumentException("unknown spec " + args[a]);
        }
        int n = rows.size();
        List<List<List<double[]>>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) all.add(new ArrayList<>());
        for (int r = 0; r < rounds; r++) {
            StringBuilder line = new StringBuilder("round " + (r + 1) + ":");
            for (int k = 0; k < n; k++) {
                int i = (r + k) % n;
                List<double[]> ms = rows.get(i).round();
                all.get(i).add(ms);
            }
            for (int i = 0; i < n; i++) {
                List<double[]> ms = all.get(i).get(r);
                for (int q = 0; q < ms.size(); q++) {
                    line.append(String.format("  %s %s %.1f", rows.get(i).label(), rows.get(i).names().get(q), ms.get(q)[0]));
                    if (!Double.isNaN(ms.get(q)[1])) line.append(String.format(" [%.1f]", ms.get(q)[1]));
                }
            }
            System.out.println(line);
        }
        System.out.printf("medians over %d rounds (ms; Java: wall [parsing thread's CPU]; programs: inner [task-clock]):%n", rounds);
        for (int i = 0; i < n; i++) {
            Row row = rows.get(i);
            for (int q = 0; q < row.names().size(); q++) {
                double[] w = new double[rounds], c = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    w[r] = all.get(i).get(r).get(q)[0];
                    c[r] = all.get(i).get(r).get(q)[1];
                }
                System.out.printf("  %-22s %-14s %8.1f", row.label(), row.names().get(q), median(w));
                if (!Double.isNaN(c[0])) System.out.printf(" [%.1f]", median(c));
                System.out.println();
            }
        }
        ratios(rows, all, rounds);
    }

    /** Each row's first measure over the first row's, round by round (CPU where both have it, else wall): the
     *  geometric mean and the range over the rounds. */
    static void ratios(List<Row> rows, List<List<List<double[]>>> all, int rounds) {
        System.out.printf("%s %s over each row's first measure, paired per round (CPU where both have it, else wall):%n",
                rows.get(0).label(), rows.get(0).names().get(0));
        for (int i = 1; i < rows.size(); i++) {
            double logSum = 0, lo = Double.MAX_VALUE, hi = 0;
            boolean cpu = true;
            for (int r = 0; r < rounds; r++) cpu &= !Double.isNaN(all.get(0).get(r).get(0)[1]) && !Double.isNaN(all.get(i).get(r).get(0)[1]);
            for (int r = 0; r < rounds; r++) {
                double[] a = all.get(0).get(r).get(0), b = all.get(i).get(r).get(0);
                double x = cpu ? a[1] / b[1] : a[0] / b[0];
                logSum += Math.log(x);
                lo = Math.min(lo, x);
                hi = Math.max(hi, x);
            }
            System.out.printf("  / %-22s %-14s %5.2fx [%.2f-%.2f]%s%n", rows.get(i).label(), rows.get(i).names().get(0),
                    Math.exp(logSum / rounds), lo, hi, cpu ? "" : " (wall)");
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
