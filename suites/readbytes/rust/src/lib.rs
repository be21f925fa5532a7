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

/// The application observes every byte it is handed: `count = observe(count, byte)` returns `acc`
/// unchanged, but an empty `asm!` tells the compiler that the result depends on the byte, so the
/// byte must be loaded into a register and the loop can be neither folded nor vectorised: without
/// it, release builds turn the memmap2 count loop into the mapping's length (0.2 ms for 128 MB, the
/// file never read) and vectorise the sum loops. The asm is `pure, nomem`: no instruction, no memory
/// access, and the reader's cursor stays in a register. (A former `asm!` with only an input operand
/// had to be volatile, and LLVM then spilled and reloaded the cursor every byte: 7 instructions per
/// byte for the memmap2 loop against 4 for g++'s mmap. `std::hint::black_box` goes through memory
/// and is slower still.) Same rule as `observe()` in the C, C++ and D variants.
#[cfg(any(
    target_arch = "x86",
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "arm"
))]
#[inline(always)]
#[must_use]
pub fn observe(mut acc: u64, byte: u8) -> u64 {
    // SAFETY: an empty template (a comment naming the operands): no instruction, no memory, no flags.
    unsafe {
        std::arch::asm!(
            "/* {0} {1} */",
            inout(reg) acc,
            in(reg) usize::from(byte),
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    acc
}

/// Elsewhere: `black_box` (through memory, slower, but still honest).
#[cfg(not(any(
    target_arch = "x86",
    target_arch = "x86_64",
    target_arch = "aarch64",
    target_arch = "arm"
)))]
#[inline(always)]
#[must_use]
pub fn observe(acc: u64, byte: u8) -> u64 {
    std::hint::black_box((acc, byte)).0
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
