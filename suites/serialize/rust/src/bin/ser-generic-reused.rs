// Design: generic code over one Vec reused for every op (cleared, its capacity kept): no allocation after the first op.
use serialize::{cerealise, time_ser, Job};

fn main() {
    let job = Job::from_args();
    let mut out = Vec::new();
    time_ser(&job, |record, n, tally| {
        out.clear();
        cerealise(&mut out, record);
        tally.consume(n, &out);
    });
}
