// Peer: bincode 2 through serde (derive), its standard config (varint integers): encode to a new Vec, decode back to an owned struct.
use serialize::{fail, fold, time_roundtrip, Job, OwnedRecord};

fn main() {
    let job = Job::from_args();
    let config = bincode::config::standard();
    time_roundtrip(&job, |record, checksum| {
        let bytes = bincode::serde::encode_to_vec(record, config)
            .unwrap_or_else(|e| fail(&format!("bincode: {e}"), 1));
        let (back, _): (OwnedRecord, usize) = bincode::serde::decode_from_slice(&bytes, config)
            .unwrap_or_else(|e| fail(&format!("bincode: {e}"), 1));
        *checksum = fold(*checksum, &back.view());
        bytes.len()
    });
}
