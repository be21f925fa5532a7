// read_exact as a loop of read() into the destination slice until it is full, over BufReader<File> (the seed's fix).
use std::fs::File;
use std::io::{self, BufReader, Read};

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

fn main() {
    readexact::run(|path| File::open(path).map(BufReader::new), read_exact);
}
