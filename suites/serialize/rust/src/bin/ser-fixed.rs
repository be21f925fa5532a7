// Design: expert: the 38-byte header built in a [u8; 38] on the stack (to_be_bytes copied to fixed offsets), then one Vec reused for every op takes it and the name by two extend_from_slice: no allocation, no unsafe.
use serialize::{fail, time_ser, Job, Record};

/// Every fixed field and the name's length.
const HEADER: usize = 38;

#[inline]
fn header(r: &Record) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[0..4].copy_from_slice(&r.id.to_be_bytes());
    h[4] = r.kind;
    h[5..7].copy_from_slice(&r.delta.to_be_bytes());
    h[7..15].copy_from_slice(&r.stamp.to_be_bytes());
    h[15] = u8::from(r.active);
    h[16..20].copy_from_slice(&r.ratio.to_bits().to_be_bytes());
    h[20..28].copy_from_slice(&r.value.to_bits().to_be_bytes());
    for (i, d) in r.dims.iter().enumerate() {
        h[28 + 2 * i..30 + 2 * i].copy_from_slice(&d.to_be_bytes());
    }
    let len =
        u16::try_from(r.name.len()).unwrap_or_else(|_| fail("a name longer than 65535 bytes", 1));
    h[36..38].copy_from_slice(&len.to_be_bytes());
    h
}

fn main() {
    let job = Job::from_args();
    let mut out = Vec::new();
    time_ser(&job, |record, n, tally| {
        out.clear();
        out.extend_from_slice(&header(record));
        out.extend_from_slice(record.name);
        tally.consume(n, &out);
    });
}
