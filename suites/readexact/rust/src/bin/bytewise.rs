// read_exact pushing one byte at a time (1-byte read() each) into a new Vec per chunk, over BufReader<File> (the seed's new-io version).
use std::fs::File;
use std::io::{self, BufReader, Read};

fn read_exact<R: Read>(r: &mut R, len: usize) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(len);
    let mut byte = [0u8; 1];
    while out.len() < len {
        match r.read(&mut byte)? {
            0 => return Err(readexact::premature_eof()),
            _ => out.push(byte[0]),
        }
    }
    Ok(out)
}

fn main() {
    readexact::run(
        |path| File::open(path).map(BufReader::new),
        |r, buf| {
            let chunk = read_exact(r, buf.len())?; // a new Vec per chunk, as the seed's version did
            std::hint::black_box(chunk);
            Ok(())
        },
    );
}
