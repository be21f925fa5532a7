// Peer: the crates.io `rdb` crate (RdbDecoder over BufReader<File>), its items folded into the canonical summary.
//! Streams are skipped by the crate without being reported, and it does not
//! check the CRC; where it fails, its error is printed as one line and the exit code is 1 (see README.md).
use rdb::{filter::Simple, RdbDecoder, RdbValue};
use rdbparse::{Summary, T_HASH, T_LIST, T_SET, T_STRING, T_ZSET};
use std::fs::File;
use std::io::BufReader;
use std::time::Instant;

fn parse(path: &str) -> Result<Summary, String> {
    let f = File::open(path).map_err(|e| e.to_string())?;
    let decoder = RdbDecoder::new(BufReader::new(f), Simple::new()).map_err(|e| e.to_string())?;
    let mut sum = Summary::default();
    let mut db = 0u64;
    let exp = |e: Option<u64>| e.map(|v| v as i64);
    for item in decoder {
        match item.map_err(|e| e.to_string())? {
            RdbValue::SelectDb(d) => db = d as u64,
            RdbValue::String { key, value, expiry } => {
                sum.begin(db, T_STRING, &key, exp(expiry));
                sum.field(&value);
                sum.end(1);
            }
            RdbValue::List {
                key,
                values,
                expiry,
            } => {
                sum.begin(db, T_LIST, &key, exp(expiry));
                values.iter().for_each(|v| sum.field(v));
                sum.end(values.len() as u64);
            }
            RdbValue::Set {
                key,
                members,
                expiry,
            } => {
                sum.begin(db, T_SET, &key, exp(expiry));
                members.iter().for_each(|v| sum.field(v));
                sum.end(members.len() as u64);
            }
            RdbValue::Hash {
                key,
                values,
                expiry,
            } => {
                sum.begin(db, T_HASH, &key, exp(expiry));
                for (k, v) in &values {
                    sum.field(k);
                    sum.field(v);
                }
                sum.end(values.len() as u64);
            }
            RdbValue::SortedSet {
                key,
                values,
                expiry,
            } => {
                sum.begin(db, T_ZSET, &key, exp(expiry));
                for (score, member) in &values {
                    sum.field(member);
                    sum.score_field(*score);
                }
                sum.end(values.len() as u64);
            }
            _ => {}
        }
    }
    Ok(sum)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 2 {
        eprintln!("usage: {} FILE", args[0]);
        std::process::exit(2);
    }
    let t0 = Instant::now();
    match parse(&args[1]) {
        Ok(sum) => eprintln!(
            "iorace-result {{\"answer\": {}, \"inner_ns\": {}}}",
            sum.to_json(),
            t0.elapsed().as_nanos()
        ),
        Err(e) => {
            eprintln!("rdb crate: {}", e.to_string().replace('\n', " "));
            std::process::exit(1);
        }
    }
}
