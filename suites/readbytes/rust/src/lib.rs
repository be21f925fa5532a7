//! Shared by every Rust readbytes binary: argument parsing, errors and the result line.

use std::io::Write;
use std::process;
use std::time::Duration;

/// The job as given on the command line: `prog FILE MODE PASSES`.
pub struct Job {
    pub path: String,
    /// "sum": every byte value plus the count; "count": the count only.
    pub sum: bool,
    /// The file is reopened for every pass.
    pub passes: u32,
}

/// The application observes every byte it is handed. An empty `asm!` that takes the byte in a
/// register makes the value "used" without costing an instruction, so the optimiser may neither
/// drop the per-byte work nor vectorise it: without it, release builds turn the memmap2 count
/// loop into the mapping's length (0.2 ms for 128 MB, the file never read) and vectorise the sum
/// loops. Same as the C++ variants' `asm volatile("" : : "r"(byte))`. Not `std::hint::black_box`:
/// that passes the value through memory and clobbers all of it, so the reader's cursor is stored
/// and reloaded for every byte (measured 5 to 10 times slower here).
#[inline(always)]
pub fn observe(byte: u8) {
    #[cfg(any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "arm"
    ))]
    // SAFETY: an empty template (a comment naming the operand): no instruction, no memory, no flags.
    unsafe {
        std::arch::asm!("/* {0} */", in(reg) usize::from(byte), options(nomem, nostack, preserves_flags));
    }
    #[cfg(not(any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "arm"
    )))]
    std::hint::black_box(byte);
}

/// One line on stderr, then exit (status 2 for a usage error, 1 otherwise). No panic, no backtrace.
pub fn fail(message: &str, status: i32) -> ! {
    eprintln!("readbytes: {message}");
    process::exit(status);
}

impl Job {
    pub fn from_args() -> Job {
        let args: Vec<String> = std::env::args().collect();
        if args.len() != 4 {
            let program = args.first().map(String::as_str).unwrap_or("readbytes");
            fail(&format!("usage: {program} FILE count|sum PASSES"), 2);
        }
        let sum = match args[2].as_str() {
            "count" => false,
            "sum" => true,
            other => fail(&format!("mode must be count or sum, not '{other}'"), 2),
        };
        let passes = match args[3].parse::<u32>() {
            Ok(n) if n > 0 => n,
            _ => fail(
                &format!("passes must be a positive integer, not '{}'", args[3]),
                2,
            ),
        };
        Job {
            path: args[1].clone(),
            sum,
            passes,
        }
    }

    /// Exits with one line naming the file for an I/O error.
    pub fn io_fail(&self, err: std::io::Error) -> ! {
        fail(&format!("{}: {err}", self.path), 1)
    }

    /// The human line on stdout, then the machine line, last, on stderr.
    pub fn report(&self, answer: u64, inner: Duration) {
        let mode = if self.sum { "sum" } else { "count" };
        let ms = inner.as_secs_f64() * 1e3;
        println!("{mode} {answer} ({} passes) in {ms:.1} ms", self.passes);
        let _ = std::io::stdout().flush();
        eprintln!(
            "iorace-result {{\"answer\": {answer}, \"inner_ns\": {}}}",
            inner.as_nanos()
        );
    }
}
