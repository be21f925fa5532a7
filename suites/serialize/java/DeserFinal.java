// Design: Cerealed v0.5.0's struct decoder: code against the final class ArraySource, one cursor into the caller's array moved from record to record (no object per op).
public final class DeserFinal {
    public static void main(String[] args) {
        Job job = Job.parse("DeserFinal", args);
        Job.ArraySource decerealiser = new Job.ArraySource(job.data, 0);  // Java's stand-in for a struct on the stack
        job.timeDeser((data, pos, record) -> {
            decerealiser.pos = pos;
            Job.decerealise(decerealiser, record);  // the ArraySource overload: direct calls on a final class
            return decerealiser.pos;
        });
    }
}
