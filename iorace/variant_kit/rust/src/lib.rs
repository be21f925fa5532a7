//! iorace's variant kit for Rust: the argument checks, the passes loop, the monotonic timer and the result
//! line of the variant protocol (docs/ARCHITECTURE.md), so that a variant is its loop:
//!
//! ```text
//! fn main() {
//!     iorace_kit::run(|job| Ok(std::fs::read(&job.input)?.len() as u64));
//! }
//! ```
//!
//! The program takes `FILE PASSES [PARAM...]`; the closure runs PASSES times, timed as one block, and every
//! pass must give the same answer (a pass the compiler dropped or cut short would not).

use std::fmt::Display;
use std::io;
use std::process::exit;
use std::time::Instant;

/// What one run was asked to do.
pub struct Job {
    /// the input file
    pub input: String,
    /// how many times the closure runs (the suite's work parameter)
    pub passes: u64,
    /// the arguments after PASSES, as given
    pub params: Vec<String>,
}

/// An answer the result line can carry: a JSON value.
pub trait Answer: PartialEq + Display {
    fn to_json(&self) -> String {
        self.to_string()
    }
}

impl Answer for u64 {}
impl Answer for i64 {}
impl Answer for usize {}
impl Answer for String {
    fn to_json(&self) -> String {
        let escaped: String = self
            .chars()
            .map(|c| match c {
                '"' => "\\\"".to_string(),
                '\\' => "\\\\".to_string(),
                c if (c as u32) < 0x20 => format!("\\u{:04x}", c as u32),
                c => c.to_string(),
            })
            .collect();
        format!("\"{escaped}\"")
    }
}

/// One line on stderr, then exit `code`: for bad input and failed I/O.
pub fn fail(code: i32, message: impl Display) -> ! {
    eprintln!("error: {message}");
    exit(code)
}

/// Parse `FILE PASSES [PARAM...]`, run `pass` PASSES times, print the result line; never returns.
pub fn run<A: Answer>(mut pass: impl FnMut(&Job) -> io::Result<A>) -> ! {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: {} FILE PASSES [PARAM...]", args[0]);
        exit(2);
    }
    let passes = match args[2].parse::<u64>() {
        Ok(n) if n >= 1 => n,
        _ => fail(
            2,
            format!("PASSES must be a positive integer, not '{}'", args[2]),
        ),
    };
    let job = Job {
        input: args[1].clone(),
        passes,
        params: args[3..].to_vec(),
    };
    let start = Instant::now();
    let answer = pass(&job).unwrap_or_else(|e| fail(1, format!("{}: {e}", job.input)));
    for p in 2..=passes {
        let again = pass(&job).unwrap_or_else(|e| fail(1, format!("{}: {e}", job.input)));
        if again != answer {
            fail(
                1,
                format!("pass {p} answered {again}, the first pass {answer}"),
            );
        }
    }
    let inner_ns = start.elapsed().as_nanos();
    eprintln!(
        "iorace-result {{\"answer\": {}, \"inner_ns\": {inner_ns}}}",
        answer.to_json()
    );
    exit(0)
}
