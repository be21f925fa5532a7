// Peer: bitcode with its own derive (not serde), a reused bitcode::Buffer to encode and another to decode back to an owned struct.
use serialize::{fail, fold, time_roundtrip, Job, OwnedRecord};

fn main() {
    let job = Job::from_args();
    let (mut encoder, mut decoder) = (bitcode::Buffer::new(), bitcode::Buffer::new());
    time_roundtrip(&job, |record, checksum| {
        let bytes = encoder.encode(record);
        let back: OwnedRecord = decoder
            .decode(bytes)
            .unwrap_or_else(|e| fail(&format!("bitcode: {e}"), 1));
        *checksum = fold(*checksum, &back.view());
        bytes.len()
    });
}
