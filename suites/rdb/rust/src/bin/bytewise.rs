// read_exact one byte at a time: read() into a 1-byte buffer, pushed into a Vec, then copied out (the seed's first "new io" version), over a BufReader<File>.
use rdbparse::{run, Source};
use std::fs::File;
use std::io::{self, BufReader, Read};

struct ByteAtATime {
    r: BufReader<File>,
}

impl Source for ByteAtATime {
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let mut out = Vec::with_capacity(buf.len());
        let mut byte = [0u8; 1];
        while out.len() < buf.len() {
            match self.r.read(&mut byte)? {
                0 => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "premature EOF",
                    ))
                }
                _ => out.push(byte[0]),
            }
        }
        buf.copy_from_slice(&out);
        Ok(())
    }
}

fn main() {
    run(|path| {
        let f = File::open(path)?;
        let size = f.metadata()?.len();
        Ok((
            ByteAtATime {
                r: BufReader::new(f),
            },
            size,
        ))
    })
}
