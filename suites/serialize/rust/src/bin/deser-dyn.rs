// Design: Cerealed v0.4.1's classes: a new heap object per op behind a `dyn Source` trait object, one virtual call per byte.
use serialize::{decerealise, time_deser, Job, SliceSource, Source};
use std::hint::black_box;

fn main() {
    let job = Job::from_args();
    time_deser(&job, |bytes| {
        // black_box hides the concrete type (a load and a store per op): every take() stays virtual.
        let object: Box<dyn Source> = Box::new(SliceSource::new(bytes));
        let mut decerealiser = black_box(object);
        let record = decerealise(&mut *decerealiser)?;
        Ok((record, decerealiser.consumed()))
    });
}
