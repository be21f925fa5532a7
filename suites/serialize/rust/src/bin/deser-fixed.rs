// Design: expert: one length check for the 38-byte header (a &[u8; 38]), from_be_bytes at fixed offsets (no per-byte cursor or Result), the bool checked, the name a borrowed slice; no allocation, no unsafe.
use serialize::{time_deser, DecodeError, Job, Record};

/// Every fixed field and the name's length.
const HEADER: usize = 38;

/// The record at the start of `bytes` and its size: one check covers the header, one the name.
#[inline]
fn decode(bytes: &[u8]) -> Result<(Record<'_>, usize), DecodeError> {
    let (h, rest) = bytes
        .split_first_chunk::<HEADER>()
        .ok_or(DecodeError::Truncated)?;
    // constant offsets into a &[u8; 38]: once inlined, their bounds checks fold away
    let be2 = |i: usize| u16::from_be_bytes([h[i], h[i + 1]]);
    let be4 = |i: usize| u32::from_be_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    let be8 = |i: usize| u64::from_be_bytes(*h[i..].first_chunk::<8>().unwrap());
    let active = match h[15] {
        0 => false,
        1 => true,
        b => return Err(DecodeError::BadBool(b)),
    };
    let len = usize::from(be2(36));
    let name = rest.get(..len).ok_or(DecodeError::Truncated)?;
    let record = Record {
        id: be4(0),
        kind: h[4],
        delta: be2(5) as i16,
        stamp: be8(7) as i64,
        active,
        ratio: f32::from_bits(be4(16)),
        value: f64::from_bits(be8(20)),
        dims: [be2(28), be2(30), be2(32), be2(34)],
        name,
    };
    Ok((record, HEADER + len))
}

fn main() {
    let job = Job::from_args();
    time_deser(&job, decode);
}
