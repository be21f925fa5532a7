// Strategy: BufRead::lines() + println! - the beginner's trap: each line is decoded as UTF-8 (invalid bytes are an error), its "\n" or "\r\n" dropped, println! re-adds "\n" and locks + flushes the line-buffered stdout every line.
use std::env;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::process::ExitCode;

fn run(path: &str) -> io::Result<()> {
    let reader = BufReader::new(File::open(path)?);
    for line in reader.lines() {
        println!("{}", line?);
    }
    Ok(())
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
