// Design: Cerealed v0.5.0's struct decoder: generic code over a cursor into the caller's slice, on the stack, inlined; no allocation.
use serialize::{decerealise, time_deser, Job, SliceSource, Source};

fn main() {
    let job = Job::from_args();
    time_deser(&job, |bytes| {
        let mut decerealiser = SliceSource::new(bytes);
        let record = decerealise(&mut decerealiser)?;
        Ok((record, decerealiser.consumed()))
    });
}
