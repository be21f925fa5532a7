// The whole file read into a Vec with std::fs::read; each chunk is copied out of the slice at a cursor.
use std::hint::black_box;
use std::io;
use std::time::Instant;

struct Cursor {
    data: Vec<u8>,
    pos: usize,
}

fn read_exact(c: &mut Cursor, buf: &mut [u8]) -> io::Result<()> {
    let end = c.pos + buf.len();
    if end > c.data.len() {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "premature EOF"));
    }
    buf.copy_from_slice(&c.data[c.pos..end]);
    c.pos = end;
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
    let mut src = match std::fs::read(&args[1]).map(|data| Cursor { data, pos: 0 }) {
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
