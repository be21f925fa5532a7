// Not a variant: a deterministic mutation fuzzer for the parser, on stable Rust (cargo fuzz, in fuzz/, needs nightly).
//! `fuzz FILE SECONDS [SEED]`: mutate FILE (byte flips, special length bytes, truncation,
//! insertion, deletion) with a fixed xorshift sequence, parse each mutant in memory both ways
//! (fields copied out, and in place) and fail on any panic, on the two disagreeing, or on a parse
//! slower than one second. Build it in the debug profile so
//! integer overflow panics too. Exit 0 with "N mutants, M rejected" when nothing broke.
use rdbparse::parse_both_ways;
use std::panic;
use std::time::{Duration, Instant};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SPECIAL: [u8; 12] = [
    0x00, 0xFF, 0x80, 0x81, 0xC0, 0xC3, 0x3F, 0x40, 0xFE, 0xFD, 0xFC, 0x7F,
];

fn mutate(rng: &mut Rng, orig: &[u8]) -> Vec<u8> {
    let mut m = orig.to_vec();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(m.len());
        match rng.below(6) {
            0 => m[i] ^= 1 << rng.below(8),
            1 => m[i] = SPECIAL[rng.below(SPECIAL.len())],
            2 => m[i] = rng.next() as u8,
            3 => m.truncate(i),
            4 => m.insert(i, SPECIAL[rng.below(SPECIAL.len())]),
            _ => {
                if i < m.len() {
                    m.remove(i);
                }
            }
        }
        if m.is_empty() {
            break;
        }
    }
    m
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: {} FILE SECONDS [SEED]", args[0]);
        std::process::exit(2);
    }
    let orig = std::fs::read(&args[1]).expect("read the seed file");
    let secs: f64 = args[2].parse().expect("SECONDS");
    let seed: u64 = args
        .get(3)
        .map(|s| s.parse().expect("SEED"))
        .unwrap_or(0x9E37_79B9_7F4A_7C15);
    panic::set_hook(Box::new(|_| {})); // reported below, with the mutant's number
    let mut rng = Rng(seed | 1);
    let deadline = Instant::now() + Duration::from_secs_f64(secs);
    let (mut n, mut rejected) = (0u64, 0u64);
    while Instant::now() < deadline {
        let m = mutate(&mut rng, &orig);
        n += 1;
        let t0 = Instant::now();
        // both paths of the parser (fields copied out, and read in place) must agree, or it panics
        let r = panic::catch_unwind(|| parse_both_ways(&m).is_err());
        match r {
            Ok(true) => rejected += 1,
            Ok(false) => {}
            Err(e) => {
                let what = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or(e.downcast_ref::<&str>().map(|s| s.to_string()));
                std::fs::write("fuzz-crash.rdb", &m).ok();
                eprintln!(
                    "mutant {} panicked: {:?} (written to fuzz-crash.rdb)",
                    n, what
                );
                std::process::exit(1);
            }
        }
        if t0.elapsed() > Duration::from_secs(1) {
            std::fs::write("fuzz-slow.rdb", &m).ok();
            eprintln!(
                "mutant {} took {:?} (written to fuzz-slow.rdb)",
                n,
                t0.elapsed()
            );
            std::process::exit(1);
        }
    }
    println!("{} mutants, {} rejected, no panic, none slow", n, rejected);
}
