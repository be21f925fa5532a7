// std File::read_exact with no buffer: one read(2) system call per chunk.
use std::fs::File;
use std::io::Read;

fn main() {
    readexact::run(|path| File::open(path), |f, buf| f.read_exact(buf));
}
