// The file mapped with memmap2 (mmap(2)); each chunk is copied out of the mapping at a cursor.
use memmap2::Mmap;
use std::fs::File;
use std::io;

struct MapCursor {
    map: Mmap,
    pos: usize,
}

fn read_exact(c: &mut MapCursor, buf: &mut [u8]) -> io::Result<()> {
    let end = c.pos + buf.len();
    if end > c.map.len() {
        return Err(readexact::premature_eof());
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
    readexact::run(open, read_exact);
}
