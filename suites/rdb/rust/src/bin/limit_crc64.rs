// LIMIT, not a parser: read the whole file (std::fs::read) and compute its CRC-64, the work no RDB parser can avoid.
//! `limit_crc64 FILE`: every parser reads each byte of the dump once and runs it through the
//! CRC-64 of the trailer check (Jones polynomial, reflected, slicing-by-8: `rdbparse::crc64`,
//! the same function the parser uses). This row does only that, over every byte but the last 8
//! (the trailer: over the whole file, a valid dump's CRC is always 0), and answers
//! `{"crc64": "<16 hex digits>", "bytes": N}`, which suite.py's `expected()` computes for a cell
//! whose `job` param is "crc64". A file it cannot read: the one error line.
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
    let data = match std::fs::read(&args[1]) {
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
