// std BufReader<File>::read_exact (8 KiB buffer; one memcpy when the buffer already holds the bytes).
use rdbparse::{run, Source};
use std::fs::File;
use std::io::{self, BufReader, Read};

struct Buffered {
    r: BufReader<File>,
}

impl Source for Buffered {
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        self.r.read_exact(buf)
    }
}

fn main() {
    run(|path| {
        let f = File::open(path)?;
        let size = f.metadata()?.len();
        Ok((
            Buffered {
                r: BufReader::new(f),
            },
            size,
        ))
    })
}
