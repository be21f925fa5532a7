// LIMIT, not a parser: map the file (memmap2) and compute its CRC-64, the work no RDB parser can avoid, done the fastest way we know.
//! `limit_crc64 FILE`: every parser reads each byte of the dump once and runs it through the
//! CRC-64 of the trailer check (Jones polynomial, reflected, crc-fast: `rdbparse::crc64`,
//! the same function the parser uses). This row does only that, over every byte but the last 8
//! (the trailer: over the whole file, a valid dump's CRC is always 0), and answers
//! `{"crc64": "<16 hex digits>", "bytes": N}`, which suite.py's `expected()` computes for a cell
//! whose `job` param is "crc64". A file it cannot read: the one error line. It maps the file, as
//! the fastest parser does: `std::fs::read` copies it out of the page cache, and that copy alone
//! (rust/vec's system time, 55 ms in session 6) is six times this row's whole 8.8 ms there.
use rdbparse::crc64;
use std::process::exit;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 2 {
        eprintln!(
            "usage: {} FILE",
            args.first().map(String::as_str).unwrap_or("limit_crc64")
        );
        exit(2);
    }
    let t0 = Instant::now();
    // SAFETY: the file is only read, and not expected to change while it is hashed.
    let data = match std::fs::File::open(&args[1]).and_then(|f| unsafe { memmap2::Mmap::map(&f) }) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("rdb: {}: {}", args[1], e);
            exit(1);
        }
    };
    let crc = crc64(0, &data[..data.len().saturating_sub(8)]);
    let ns = t0.elapsed().as_nanos();
    eprintln!(
        "iorace-result {{\"answer\": {{\"crc64\": \"{:016x}\", \"bytes\": {}}}, \"inner_ns\": {}}}",
        crc,
        data.len(),
        ns
    );
}
