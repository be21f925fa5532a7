// Design: Cerealed v0.4.1's classes: a new object per op used through the Sink interface, one interface call per byte, appending to a new growing array.
public final class SerInterface {
    public static void main(String[] args) {
        Job job = Job.parse("SerInterface", args);
        job.timeSer((record, n, tally) -> {
            Job.ByteSink concrete = new Job.ByteSink();
            Job.Sink cerealiser = concrete;
            Job.cerealise(cerealiser, record);  // the Sink overload: calls through the interface
            tally.consume(n, concrete.bytes, concrete.length);
        });
    }
}
