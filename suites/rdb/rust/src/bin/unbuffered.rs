// std File::read_exact with no buffer: one read(2) system call per field.
use rdbparse::{run, Source};
use std::fs::File;
use std::io::{self, Read};

struct Unbuffered {
    f: File,
}

impl Source for Unbuffered {
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        self.f.read_exact(buf)
    }
}

fn main() {
    run(|path| {
        let f = File::open(path)?;
        let size = f.metadata()?.len();
        Ok((Unbuffered { f }, size))
    })
}
