// Strategy: own buffer window over File::read (128 KiB reads, grows for long lines); memchr (the crate, SIMD) finds each line, handed out as a slice and written into a 128 KiB BufWriter over the locked stdout.
use std::env;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

const READ_SIZE: usize = 128 * 1024;

/// The buffered data is `buf[start..end]`; lines are released from the front.
struct LineWindow {
    file: File,
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl LineWindow {
    fn new(file: File) -> Self {
        LineWindow {
            file,
            buf: vec![0; 2 * READ_SIZE],
            start: 0,
            end: 0,
        }
    }

    /// The next line with its '\n' (a last line may lack it); None at the end of the input.
    fn next_line(&mut self) -> io::Result<Option<&[u8]>> {
        let mut scanned = 0; // bytes after `start` known to hold no '\n'
        loop {
            let avail = self.end - self.start;
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.start + scanned..self.end]) {
                return Ok(Some(self.take(scanned + i + 1)));
            }
            scanned = avail;
            if self.extend()? == 0 {
                return Ok(if avail > 0 {
                    Some(self.take(avail))
                } else {
                    None
                });
            }
        }
    }

    fn take(&mut self, len: usize) -> &[u8] {
        let from = self.start;
        self.start += len;
        &self.buf[from..from + len]
    }

    /// Move the unread tail to the front, grow when a full read would not fit, read once.
    fn extend(&mut self) -> io::Result<usize> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.buf.len() - self.end < READ_SIZE {
            let bigger = self.buf.len() * 2;
            self.buf.resize(bigger, 0);
        }
        let n = self
            .file
            .read(&mut self.buf[self.end..self.end + READ_SIZE])?;
        self.end += n;
        Ok(n)
    }
}

fn run(path: &str) -> io::Result<()> {
    let mut lines = LineWindow::new(File::open(path)?);
    let mut out = BufWriter::with_capacity(128 * 1024, io::stdout().lock());
    while let Some(line) = lines.next_line()? {
        out.write_all(line)?;
    }
    out.flush()
}

fn main() -> ExitCode {
    let args: Vec<String> = env::args().collect();
    if args.len() != 2 {
        eprintln!("usage: {} FILE", args[0]);
        return ExitCode::from(2);
    }
    match run(&args[1]) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}: {}", args[1], e);
            ExitCode::FAILURE
        }
    }
}
