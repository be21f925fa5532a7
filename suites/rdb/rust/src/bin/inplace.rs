// The file mapped with memmap2 and parsed in place: strings and compact blobs are borrowed from the mapping, never copied; the CRC-64 from the file, caught up after a key once 64 KiB behind.
use memmap2::Mmap;
use rdbparse::{run, Source};
use std::fs::File;
use std::io;

struct InPlace {
    map: Mmap,
}

impl Source for InPlace {
    /// Never called: an in-place source's parser reads `whole_file()` itself.
    fn read_exact(&mut self, _buf: &mut [u8]) -> io::Result<()> {
        Err(io::Error::other(
            "an in-place source is read through whole_file()",
        ))
    }

    fn whole_file(&self) -> Option<&[u8]> {
        Some(&self.map)
    }

    const IN_PLACE: bool = true;
}

fn main() {
    run(|path| {
        let f = File::open(path)?;
        // SAFETY: the file is only read, and not expected to change while it is parsed.
        let map = unsafe { Mmap::map(&f)? };
        let size = map.len() as u64;
        Ok((InPlace { map }, size))
    })
}
