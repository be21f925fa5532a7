// read_exact as a loop of read() into the destination slice until it is full (the seed's fix), over a BufReader<File>.
use rdbparse::{run, Source};
use std::fs::File;
use std::io::{self, BufReader, Read};

struct ReadLoop {
    r: BufReader<File>,
}

impl Source for ReadLoop {
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.r.read(&mut buf[filled..])? {
                0 => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "premature EOF",
                    ))
                }
                n => filled += n,
            }
        }
        Ok(())
    }
}

fn main() {
    run(|path| {
        let f = File::open(path)?;
        let size = f.metadata()?.len();
        Ok((
            ReadLoop {
                r: BufReader::new(f),
            },
            size,
        ))
    })
}
