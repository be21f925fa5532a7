// read_exact pushing one byte at a time (1-byte read() each) into a new Vec per chunk, over BufReader<File> (the seed's new-io version).
use std::fs::File;
use std::io::{self, BufReader, Read};

// The seed's read_exact line for line (its match on Ok(1)/Ok(0)/Ok(_)/Err and its own count of bytes read):
// unoptimised (the seed's `make FLAGS=`), a `?` and `out.len()` in its place are two more calls a byte.
// Only its end-of-file error differs: UnexpectedEof, which the harness takes as the end (the seed's: NotFound).
fn read_exact<R: Read>(reader: &mut R, len: usize) -> io::Result<Vec<u8>> {
    let mut buf = [0; 1];
    let mut out = Vec::with_capacity(len);

    let mut read = 0;
    while read < len {
        match reader.read(&mut buf) {
            Ok(1) => {
                out.push(buf[0]);
                read += 1;
            }
            Ok(0) => return Err(readexact::premature_eof()),
            Ok(_) => return Err(io::Error::other("Could not read enough bytes from Reader")),
            Err(e) => return Err(e),
        };
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
