// Strategy: the known trap: Read::bytes() straight on a File, no BufReader, so every byte costs one read(2) system call.
use std::fs::File;
use std::io::Read;
use std::time::Instant;

use readbytes::{observe, Job};

fn main() {
    let job = Job::from_args();
    let (mut count, mut sum) = (0u64, 0u64);
    let start = Instant::now();
    for _ in 0..job.passes {
        let file = File::open(&job.path).unwrap_or_else(|e| job.io_fail(e));
        // The trap on purpose (clippy knows it too): no BufReader, so one read(2) per byte.
        #[allow(clippy::unbuffered_bytes)]
        let bytes = file.bytes();
        if job.sum {
            for b in bytes {
                let b = b.unwrap_or_else(|e| job.io_fail(e));
                sum += u64::from(b);
                count = observe(count + 1, b);
            }
        } else {
            for b in bytes {
                let b = b.unwrap_or_else(|e| job.io_fail(e));
                count = observe(count + 1, b);
            }
        }
    }
    let inner = start.elapsed();
    job.report(if job.sum { sum + count } else { count }, inner);
}
