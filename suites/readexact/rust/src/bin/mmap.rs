// The file mapped with memmap2 (mmap(2)); each chunk is copied out of the mapping at a cursor.
use memmap2::Mmap;
use std::fs::File;
use std::hint::black_box;
use std::io;
use std::time::Instant;

struct MapCursor {
    map: Mmap,
    pos: usize,
}

fn read_exact(c: &mut MapCursor, buf: &mut [u8]) -> io::Result<()> {
    let end = c.pos + buf.len();
    if end > c.map.len() {
        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "premature EOF"));
    }
    buf.copy_from_slice(&c.map[c.pos..end]);
    c.pos = end;
    Ok(())
}

fn open(path: &str) -> io::Result<MapCursor> {
    let f = File::open(path)?;
    // SAFETY: the file is only read, and not expected to change while it is read.
    let map = unsafe { Mmap::map(&f)? };
    Ok(MapCursor { map, pos: 0 })
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
    let mut src = match open(&args[1]) {
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
