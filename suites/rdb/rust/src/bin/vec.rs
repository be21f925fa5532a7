// The whole file read into a Vec<u8> with std::fs::read, a cursor copies each field out; the CRC-64 from the file, caught up after a key once 64 KiB behind.
use rdbparse::{run, Source};
use std::io;

struct SliceCursor {
    data: Vec<u8>,
    pos: usize,
}

impl Source for SliceCursor {
    #[inline(always)]
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let end = self.pos + buf.len();
        if end > self.data.len() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "premature EOF",
            ));
        }
        buf.copy_from_slice(&self.data[self.pos..end]);
        self.pos = end;
        Ok(())
    }

    fn whole_file(&self) -> Option<&[u8]> {
        Some(&self.data)
    }
}

fn main() {
    run(|path| {
        let data = std::fs::read(path)?;
        let size = data.len() as u64;
        Ok((SliceCursor { data, pos: 0 }, size))
    })
}
