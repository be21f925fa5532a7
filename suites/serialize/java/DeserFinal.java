// Design: Cerealed v0.5.0's struct decoder: code against the final class ArraySource, a cursor into the caller's array.
public final class DeserFinal {
    public static void main(String[] args) {
        Job job = Job.parse("DeserFinal", args);
        job.timeDeser((data, pos, record) -> {
            Job.ArraySource decerealiser = new Job.ArraySource(data, pos);
            Job.decerealise(decerealiser, record);  // the ArraySource overload: direct calls on a final class
            return decerealiser.pos;
        });
    }
}
