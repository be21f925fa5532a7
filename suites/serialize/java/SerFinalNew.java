// Design: Cerealed v0.5.0's structs over a dynamic array: code against the final class ByteSink, a new growing array per op.
public final class SerFinalNew {
    public static void main(String[] args) {
        Job job = Job.parse("SerFinalNew", args);
        job.timeSer((record, n, tally) -> {
            Job.ByteSink out = new Job.ByteSink();
            Job.cerealise(out, record);  // the ByteSink overload: direct calls on a final class
            tally.consume(n, out.bytes, out.length);
        });
    }
}
