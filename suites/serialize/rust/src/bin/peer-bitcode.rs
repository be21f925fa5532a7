// Peer: bitcode through serde (derive), its bit-packed format: serialize to a new Vec, deserialize back to an owned struct.
use serialize::{fail, fold, time_roundtrip, Job, OwnedRecord};

fn main() {
    let job = Job::from_args();
    time_roundtrip(&job, |record, checksum| {
        let bytes =
            bitcode::serialize(record).unwrap_or_else(|e| fail(&format!("bitcode: {e}"), 1));
        let back: OwnedRecord =
            bitcode::deserialize(&bytes).unwrap_or_else(|e| fail(&format!("bitcode: {e}"), 1));
        *checksum = fold(*checksum, &back.view());
        bytes.len()
    });
}
