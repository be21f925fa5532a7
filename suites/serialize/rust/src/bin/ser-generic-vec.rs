// Design: Cerealed v0.5.0's structs + templates over a dynamic array: generic code (inlined put), a new Vec per op grown by push.
use serialize::{cerealise, time_ser, Job};

fn main() {
    let job = Job::from_args();
    time_ser(&job, |record, n, tally| {
        let mut out = Vec::new();
        cerealise(&mut out, record);
        tally.consume(n, &out);
    });
}
