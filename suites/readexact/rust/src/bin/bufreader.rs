// std BufReader<File>::read_exact (8 KiB buffer, one memcpy when the buffer already holds the bytes).
use std::fs::File;
use std::io::{BufReader, Read};

fn main() {
    readexact::run(
        |path| File::open(path).map(BufReader::new),
        |r, buf| r.read_exact(buf),
    );
}
