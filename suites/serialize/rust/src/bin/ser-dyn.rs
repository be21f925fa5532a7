// Design: Cerealed v0.4.1's classes: a new heap object per op behind a `dyn Sink` trait object, one virtual call per byte, appending to a new Vec.
use serialize::{cerealise, time_ser, Job, Sink};
use std::hint::black_box;

fn main() {
    let job = Job::from_args();
    time_ser(&job, |record, n, tally| {
        // black_box hides the concrete type (a load and a store per op), so every put() stays a
        // virtual call, as in the original's class hierarchy.
        let object: Box<dyn Sink> = Box::new(Vec::<u8>::new());
        let mut cerealiser = black_box(object);
        cerealise(&mut *cerealiser, record);
        tally.consume(n, cerealiser.bytes());
    });
}
