// Not a variant: a cargo-fuzz (libFuzzer) target that parses each input in memory with the suite's one Rust parser.
//! `cargo +nightly fuzz run parse` (from suites/rdb/rust). A rejected input is an `Err`; a panic
//! (index out of bounds, integer overflow: cargo fuzz builds with debug assertions), an abort
//! on a huge allocation (libFuzzer's -malloc_limit_mb), a sanitizer report or a timeout is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdbparse::{Parser, Source};
use std::io;

struct Mem<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Source for Mem<'_> {
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
}

fuzz_target!(|data: &[u8]| {
    if let Ok(sum) = Parser::new(Mem { data, pos: 0 }, data.len() as u64).parse() {
        // the summary is what a user sees: render it, as the program does
        std::hint::black_box(sum.to_json());
    }
});
