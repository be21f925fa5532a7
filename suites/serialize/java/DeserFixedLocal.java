// Design: expert: deser-fixed's decoder (DeserFixed.decode, VarHandle loads at fixed offsets) in C++'s and Rust's loop shape: a Record per op, local to the loop body, so that C2's escape analysis can keep its fields in registers (it removes the Record but not its short[4] dims: 24 bytes allocated per op, suites/serialize/README.md); same checks, same fold, same answer.
public final class DeserFixedLocal {
    /**
     * Job.timeDeser with one change: the record is created in the loop body (C++'s `Record r;`, Rust's
     * `let (record, used) = decode(..)`), not once before the loop. Once C2 has compiled the loop, escape
     * analysis replaces the object by its fields; before that (interpreter, C1) each op allocates one,
     * which the alloc_bytes_per_op figure shows.
     */
    static void timeDeser(Job job) {
        byte[] data = job.data;
        long checksum = 0;
        int pos = 0;
        long allocated = Job.allocatedBytes();
        long start = System.nanoTime();
        for (long n = 0; n < job.ops; n++) {
            Job.Record r = new Job.Record();
            try {
                pos = DeserFixed.decode(data, pos, r);
            } catch (Job.CorruptException e) {
                Job.fail("byte " + pos + ": " + e.getMessage(), 1);
            }
            checksum = Job.fold(checksum, r);
            if (pos == data.length) {
                pos = 0;
            }
        }
        long innerNs = System.nanoTime() - start;
        allocated = Job.allocatedBytes() - allocated;
        job.report("{\"ops\": " + job.ops + ", \"checksum\": " + Long.toUnsignedString(checksum) + "}", innerNs,
                allocated);
    }

    public static void main(String[] args) {
        timeDeser(Job.parse("DeserFixedLocal", args));
    }
}
