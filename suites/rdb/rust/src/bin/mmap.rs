// The file mapped with memmap2 (mmap(2)), a cursor copies each field out; the CRC-64 from the file, caught up after a key once 64 KiB behind.
use memmap2::Mmap;
use rdbparse::{run, Source};
use std::fs::File;
use std::io;

struct MapCursor {
    map: Mmap,
    pos: usize,
}

impl Source for MapCursor {
    #[inline(always)]
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let end = self.pos + buf.len();
        if end > self.map.len() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "premature EOF",
            ));
        }
        buf.copy_from_slice(&self.map[self.pos..end]);
        self.pos = end;
        Ok(())
    }

    fn whole_file(&self) -> Option<&[u8]> {
        Some(&self.map)
    }
}

fn main() {
    run(|path| {
        let f = File::open(path)?;
        // SAFETY: the file is only read, and not expected to change while it is parsed.
        let map = unsafe { Mmap::map(&f)? };
        let size = map.len() as u64;
        Ok((MapCursor { map, pos: 0 }, size))
    })
}
