// Not a variant: a cargo-fuzz (libFuzzer) target that parses each input in memory with the suite's one Rust parser.
//! `cargo +nightly fuzz run parse` (from suites/rdb/rust). A rejected input is an `Err`; a panic
//! (index out of bounds, integer overflow: cargo fuzz builds with debug assertions), an abort
//! on a huge allocation (libFuzzer's -malloc_limit_mb), a sanitizer report or a timeout is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdbparse::parse_both_ways;

fuzz_target!(|data: &[u8]| {
    // both paths of the parser (fields copied out, and read in place): a disagreement panics
    if let Ok(json) = parse_both_ways(data) {
        std::hint::black_box(json);
    }
});
