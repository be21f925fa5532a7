//! Shared by every readexact binary: the seed's `FILE LEN` command line, the chunk loop and the result line.
//! A binary supplies only how it opens the file and how it reads one LEN-byte chunk (its strategy).
use std::hint::black_box;
use std::io;
use std::process::exit;
use std::time::Instant;

/// Reads LEN-byte chunks until end of file (a short last chunk is not counted, as in the seed) and reports
/// the total. End of file is `UnexpectedEof`; any other error is reported and ends the program with exit 1.
pub fn run<S>(
    open: impl FnOnce(&str) -> io::Result<S>,
    mut read_chunk: impl FnMut(&mut S, &mut [u8]) -> io::Result<()>,
) {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: {} FILE LEN", args[0]);
        exit(2);
    }
    let path = &args[1];
    let len: usize = match args[2].parse() {
        Ok(n) if n > 0 => n,
        _ => {
            eprintln!("LEN must be a positive integer, not {:?}", args[2]);
            exit(2);
        }
    };
    let t0 = Instant::now();
    let mut src = open(path).unwrap_or_else(|e| {
        eprintln!("{}: {}", path, e);
        exit(1);
    });
    let mut buf = vec![0u8; len];
    let mut total: u64 = 0;
    loop {
        match read_chunk(&mut src, &mut buf) {
            Ok(()) => {
                black_box(&buf); // the chunk is used: the optimiser may not drop the copy
                total += len as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => {
                eprintln!("{}: read error after {} bytes: {}", path, total, e);
                exit(1);
            }
        }
    }
    println!("File EOF after {} bytes", total);
    eprintln!(
        "iorace-result {{\"answer\": {}, \"inner_ns\": {}}}",
        total,
        t0.elapsed().as_nanos()
    );
}

/// End of file in the middle of a chunk, as the strategies that copy from memory report it.
pub fn premature_eof() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "premature EOF")
}
