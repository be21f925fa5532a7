// Design: code against the final class ByteSink, one array reused for every op (length reset, capacity kept).
public final class SerFinalReused {
    public static void main(String[] args) {
        Job job = Job.parse("SerFinalReused", args);
        Job.ByteSink out = new Job.ByteSink();
        job.timeSer((record, n, tally) -> {
            out.length = 0;
            Job.cerealise(out, record);
            tally.consume(n, out.bytes, out.length);
        });
    }
}
