// Design: ScopeBuffer's: generic code over a SmallVec<[u8; 32]> on the stack that moves to the heap when it overflows (every record is 46-50 bytes).
use serialize::{cerealise, time_ser, Job};
use smallvec::SmallVec;

fn main() {
    let job = Job::from_args();
    time_ser(&job, |record, n, tally| {
        let mut out: SmallVec<[u8; 32]> = SmallVec::new();
        cerealise(&mut out, record);
        tally.consume(n, &out);
    });
}
