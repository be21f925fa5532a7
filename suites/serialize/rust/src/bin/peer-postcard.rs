// Peer: postcard through serde (derive), varint integers: encode to a new Vec (to_allocvec), decode back to an owned struct.
use serialize::{fail, fold, time_roundtrip, Job, OwnedRecord};

fn main() {
    let job = Job::from_args();
    time_roundtrip(&job, |record, checksum| {
        let bytes =
            postcard::to_allocvec(record).unwrap_or_else(|e| fail(&format!("postcard: {e}"), 1));
        let back: OwnedRecord =
            postcard::from_bytes(&bytes).unwrap_or_else(|e| fail(&format!("postcard: {e}"), 1));
        *checksum = fold(*checksum, &back.view());
        bytes.len()
    });
}
