// The whole file read into a Vec with std::fs::read; each chunk is copied out of the slice at a cursor.
use std::io;

struct Cursor {
    data: Vec<u8>,
    pos: usize,
}

fn read_exact(c: &mut Cursor, buf: &mut [u8]) -> io::Result<()> {
    let end = c.pos + buf.len();
    if end > c.data.len() {
        return Err(readexact::premature_eof());
    }
    buf.copy_from_slice(&c.data[c.pos..end]);
    c.pos = end;
    Ok(())
}

fn main() {
    readexact::run(
        |path| std::fs::read(path).map(|data| Cursor { data, pos: 0 }),
        read_exact,
    );
}
