// Strategy: BufReader::read_until(b'\n') into a reused Vec<u8> (bytes, terminator kept) + BufWriter around the locked stdout.
use std::env;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

fn run(path: &str) -> io::Result<()> {
    let mut reader = BufReader::new(File::open(path)?);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut line = Vec::new();
    while reader.read_until(b'\n', &mut line)? > 0 {
        out.write_all(&line)?;
        line.clear();
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
