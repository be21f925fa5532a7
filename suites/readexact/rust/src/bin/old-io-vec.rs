// The seed's old-io program as written: old io's read_exact(len) returned a new Vec per chunk, filled by push_at_least (read() into the Vec's spare capacity until LEN bytes arrived), over a buffered File.
use std::fs::File;
use std::io::{self, BufReader, Read};

/// Rust 1.0-era `std::old_io::Reader::read_exact(len) -> IoResult<Vec<u8>>`: a Vec with capacity
/// len, then `push_at_least(len, len, &mut buf)`: read() into the unused capacity until len bytes
/// are in (old io grew the length over uninitialised memory; zero-filling the few bytes is the
/// safe equivalent today).
fn read_exact<R: Read>(r: &mut R, len: usize) -> io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(len);
    while buf.len() < len {
        let start = buf.len();
        buf.resize(len, 0);
        match r.read(&mut buf[start..])? {
            0 => return Err(readexact::premature_eof()),
            n => buf.truncate(start + n),
        }
    }
    Ok(buf)
}

fn main() {
    readexact::run(
        |path| File::open(path).map(BufReader::new),
        |r, buf| {
            let chunk = read_exact(r, buf.len())?; // a new Vec per chunk, as old io's read_exact returned
            std::hint::black_box(chunk);
            Ok(())
        },
    );
}
