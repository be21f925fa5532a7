// Strategy: own reader: File::read fills a 64 KiB buffer, an #[inline] next_byte() hands out one byte per call (refill kept out of line).
use std::fs::File;
use std::io::{self, Read};
use std::time::Instant;

use readbytes::{observe, Job};

const BUFFER_SIZE: usize = 64 * 1024;

struct ByteReader {
    file: File,
    buffer: Box<[u8]>,
    pos: usize,
    end: usize,
}

impl ByteReader {
    fn open(path: &str) -> io::Result<ByteReader> {
        Ok(ByteReader {
            file: File::open(path)?,
            buffer: vec![0; BUFFER_SIZE].into_boxed_slice(),
            pos: 0,
            end: 0,
        })
    }

    /// The next byte, or None at EOF.
    #[inline]
    fn next_byte(&mut self) -> io::Result<Option<u8>> {
        if self.pos == self.end && !self.fill()? {
            return Ok(None);
        }
        let b = self.buffer[self.pos];
        self.pos += 1;
        Ok(Some(b))
    }

    /// Refills the buffer; false at EOF.
    #[cold]
    #[inline(never)]
    fn fill(&mut self) -> io::Result<bool> {
        let n = loop {
            match self.file.read(&mut self.buffer) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                result => break result?,
            }
        };
        self.pos = 0;
        self.end = n;
        Ok(n > 0)
    }
}

fn main() {
    let job = Job::from_args();
    let (mut count, mut sum) = (0u64, 0u64);
    let start = Instant::now();
    for _ in 0..job.passes {
        let mut reader = ByteReader::open(&job.path).unwrap_or_else(|e| job.io_fail(e));
        if job.sum {
            while let Some(b) = reader.next_byte().unwrap_or_else(|e| job.io_fail(e)) {
                sum += u64::from(b);
                count = observe(count + 1, b);
            }
        } else {
            while let Some(b) = reader.next_byte().unwrap_or_else(|e| job.io_fail(e)) {
                count = observe(count + 1, b);
            }
        }
    }
    let inner = start.elapsed();
    job.report(if job.sum { sum + count } else { count }, inner);
}
