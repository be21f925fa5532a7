// read_exact as a loop of read() into the destination slice until it is full, over BufReader<File> (the seed's fix).
use std::fs::File;
use std::hint::black_box;
use std::io::{self, BufReader, Read};
use std::time::Instant;

fn read_exact<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<()> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..])? {
            0 => return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "premature EOF")),
            n => filled += n,
        }
    }
    Ok(())
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
    let mut buf = vec![0u8; len];
    while read_exact(&mut src, &mut buf).is_ok() {
        black_box(&buf);
        total += len as u64;
    }
    println!("File EOF after {} bytes", total);
    eprintln!("iorace-result {{\"answer\": {}, \"inner_ns\": {}}}", total, t0.elapsed().as_nanos());
}
