// read_exact pushing one byte at a time (1-byte read() each) into a new Vec per chunk, over BufReader<File> (the seed's new-io version).
use std::fs::File;
use std::hint::black_box;
use std::io::{self, BufReader, Read};
use std::time::Instant;

fn read_exact<R: Read>(r: &mut R, len: usize) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(len);
    let mut byte = [0u8; 1];
    while out.len() < len {
        match r.read(&mut byte)? {
            0 => return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "premature EOF")),
            _ => out.push(byte[0]),
        }
    }
    Ok(out)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: {} FILE LEN", args[0]);
        std::process::exit(2);
    }
    let len: usize = match args[2].parse() {
        Ok(n) if n > 0 => n,
        _ => {
            eprintln!("LEN must be a positive integer, not {:?}", args[2]);
            std::process::exit(2);
        }
    };
    let t0 = Instant::now();
    let mut src = match File::open(&args[1]).map(BufReader::new) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {}", args[1], e);
            std::process::exit(1);
        }
    };
    let mut total: u64 = 0;
    while let Ok(chunk) = read_exact(&mut src, len) {
        black_box(&chunk);
        total += len as u64;
    }
    println!("File EOF after {} bytes", total);
    eprintln!("iorace-result {{\"answer\": {}, \"inner_ns\": {}}}", total, t0.elapsed().as_nanos());
}
