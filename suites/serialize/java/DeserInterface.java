// Design: Cerealed v0.4.1's classes: a new object per op used through the Source interface, one interface call per byte.
public final class DeserInterface {
    public static void main(String[] args) {
        Job job = Job.parse("DeserInterface", args);
        job.timeDeser((data, pos, record) -> {
            Job.ArraySource concrete = new Job.ArraySource(data, pos);
            Job.Source decerealiser = concrete;
            Job.decerealise(decerealiser, data, record);  // the Source overload: calls through the interface
            return concrete.pos;
        });
    }
}
