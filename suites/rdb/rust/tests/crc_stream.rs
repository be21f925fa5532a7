// The staged CRC (Crc64Stream: small pieces buffered, hashed 8 bytes at a time) equals crc64 over the whole.
use rdbparse::{crc64, crc64_sliced, Crc64Stream};

#[test]
fn pieces_of_every_size_give_the_crc_of_their_concatenation() {
    let data: Vec<u8> = (0..60_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    // piece sizes cycle through 0..6000: below, at and above the 4 KiB stage
    for stride in [1usize, 7, 61, 255, 4095, 4096, 4097, 5999] {
        let mut stream = Crc64Stream::default();
        let (mut at, mut k) = (0, 0);
        while at < data.len() {
            let n = ((k * stride) % 6000).min(data.len() - at);
            stream.update(&data[at..at + n]);
            at += n;
            k += 1;
        }
        assert_eq!(stream.value(), crc64(0, &data), "stride {}", stride);
    }
    // the check value of CRC-64/Jones as Redis uses it (src/crc64.c's test)
    let mut stream = Crc64Stream::default();
    stream.update(b"1234");
    stream.update(b"56789");
    assert_eq!(stream.value(), 0xe9c6_d914_c4b8_d9ca);
}

#[test]
fn fields_give_the_crc_of_their_length_prefixed_concatenation() {
    let data: Vec<u8> = (0..9_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 17) as u8)
        .collect();
    // field sizes 0..40 (the one-step path takes up to 32) at every stage offset, and a few long
    // ones (staged, and hashed in place past the 4 KiB stage)
    let sizes: Vec<usize> = (0..3_000)
        .map(|k| (k * 7 + k / 41) % 41)
        .chain([33, 4_000, 4_096, 5_000, 0, 1])
        .collect();
    let (mut stream, mut whole, mut at) = (Crc64Stream::default(), Vec::new(), 0);
    for n in sizes {
        let piece = &data[at % 4_000..at % 4_000 + n];
        stream.field(piece);
        whole.extend_from_slice(&(n as u32).to_le_bytes());
        whole.extend_from_slice(piece);
        at += n + 3;
    }
    assert!(whole.len() > 3 * 4_096);
    assert_eq!(stream.value(), crc64(0, &whole));
}

#[test]
fn fields_in_a_larger_buffer_equal_fields() {
    // field_in stages 32 bytes from the piece's start when the buffer has them (one fixed copy),
    // else falls back to field: pieces of 0..40 bytes everywhere, up to the buffer's very end
    let whole: Vec<u8> = (0..5_000u32)
        .map(|i| (i.wrapping_mul(40_503) >> 7) as u8)
        .collect();
    let (mut a, mut b) = (Crc64Stream::default(), Crc64Stream::default());
    let mut pieces = 0;
    for start in (0..whole.len())
        .step_by(37)
        .chain(whole.len() - 40..whole.len())
    {
        for len in 0..=40.min(whole.len() - start) {
            a.field_in(&whole, start..start + len);
            b.field(&whole[start..start + len]);
            pieces += 1;
        }
    }
    assert!(pieces > 5_000);
    assert_eq!(a.value(), b.value());
}

#[test]
fn the_simd_crc_equals_the_table_crc_at_every_length_and_start() {
    let data: Vec<u8> = (0..5_000u32)
        .map(|i| (i.wrapping_mul(2_246_822_519) >> 11) as u8)
        .collect();
    for len in (0..300).chain([511, 512, 513, 4096, 5_000]) {
        for start in [0u64, 1, 0xdead_beef_cafe_f00d] {
            assert_eq!(
                crc64(start, &data[..len]),
                crc64_sliced(start, &data[..len]),
                "len {} start {:x}",
                len,
                start
            );
        }
    }
}
