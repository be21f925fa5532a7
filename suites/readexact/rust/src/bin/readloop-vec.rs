// The seed's fixed new-io program as written: read_exact_vec allocates a new Vec of LEN bytes per chunk and loops read() into it until full, over BufReader<File>.
use std::fs::File;
use std::io::{self, BufReader, Read};

/// The seed's fix: read() into the destination until it is full ("premature EOF" on a short read).
fn read_exact<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<()> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..])? {
            0 => return Err(readexact::premature_eof()),
            n => filled += n,
        }
    }
    Ok(())
}

/// The seed's read_exact_vec: a fresh Vec per call, filled by read_exact.
fn read_exact_vec<R: Read>(r: &mut R, len: usize) -> io::Result<Vec<u8>> {
    let mut out = vec![0u8; len];
    read_exact(r, &mut out)?;
    Ok(out)
}

fn main() {
    readexact::run(
        |path| File::open(path).map(BufReader::new),
        |r, buf| {
            let chunk = read_exact_vec(r, buf.len())?; // a new Vec per chunk, as the seed's program did
            std::hint::black_box(chunk);
            Ok(())
        },
    );
}
