// Strategy: memmap2::Mmap maps the whole file read-only; an #[inline] next_byte() returns the byte at a cursor in the mapped slice, None at the end.
use std::fs::File;
use std::io;
use std::time::Instant;

use memmap2::Mmap;
use readbytes::{observe, Job};

struct MappedReader {
    map: Mmap,
    pos: usize,
}

impl MappedReader {
    fn open(path: &str) -> io::Result<MappedReader> {
        let file = File::open(path)?;
        // Safety: the mapping is only read, and the benchmark's input is not changed while it runs.
        let map = unsafe { Mmap::map(&file)? };
        Ok(MappedReader { map, pos: 0 })
    }

    /// The next byte, or None at the end of the mapping.
    #[inline]
    fn next_byte(&mut self) -> Option<u8> {
        let b = *self.map.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }
}

fn main() {
    let job = Job::from_args();
    let (mut count, mut sum) = (0u64, 0u64);
    let start = Instant::now();
    for _ in 0..job.passes {
        let mut reader = MappedReader::open(&job.path).unwrap_or_else(|e| job.io_fail(e));
        if job.sum {
            while let Some(b) = reader.next_byte() {
                sum += u64::from(b);
                count = observe(count + 1, b);
            }
        } else {
            while let Some(b) = reader.next_byte() {
                count = observe(count + 1, b);
            }
        }
    }
    let inner = start.elapsed();
    job.report(if job.sum { sum + count } else { count }, inner);
}
