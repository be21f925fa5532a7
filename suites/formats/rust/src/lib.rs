//! The catalogue's plain types (serde derive), its canon stream and digest (the suite's README), and the
//! driver every program shares: the untimed set-up, the timed passes, the result line, --emit and --decode.
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::process::exit;
use std::time::Instant;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub id: i64,
    pub name: String,
    pub description: Option<String>,
    pub logo: Option<String>,
    pub sub_topic_ids: Vec<i64>,
    pub topic_ids: Vec<i64>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Price {
    pub amount: i64,
    pub audience_sub_category_id: i64,
    pub seat_category_id: i64,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Area {
    pub area_id: i64,
    pub block_ids: Vec<i64>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SeatCategory {
    pub seat_category_id: i64,
    pub areas: Vec<Area>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Performance {
    pub id: i64,
    pub event_id: i64,
    pub name: Option<String>,
    pub logo: Option<String>,
    pub start: i64,
    pub venue_code: String,
    pub prices: Vec<Price>,
    pub seat_categories: Vec<SeatCategory>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Catalog {
    pub area_names: BTreeMap<String, String>,
    pub events: BTreeMap<String, Event>,
    pub performances: Vec<Performance>,
    pub topic_sub_topics: BTreeMap<String, Vec<i64>>,
    pub venue_names: BTreeMap<String, String>,
}

/// The canon stream (README): i64 8 bytes LE, string u32 LE length + UTF-8, optional 0 | 1 + value,
/// list u32 count + items, map u32 count + entries by key bytes (a BTreeMap<String, _> iterates so).
struct Canon(Vec<u8>);

impl Canon {
    fn i64(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn count(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u32).to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.count(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }
    fn opt(&mut self, s: &Option<String>) {
        match s {
            None => self.0.push(0),
            Some(s) => {
                self.0.push(1);
                self.str(s);
            }
        }
    }
    fn ints(&mut self, v: &[i64]) {
        self.count(v.len());
        v.iter().for_each(|&x| self.i64(x));
    }
    fn strings(&mut self, m: &BTreeMap<String, String>) {
        self.count(m.len());
        for (k, v) in m {
            self.str(k);
            self.str(v);
        }
    }
}

pub fn digest(c: &Catalog) -> String {
    let mut o = Canon(Vec::new());
    o.strings(&c.area_names);
    o.count(c.events.len());
    for (k, e) in &c.events {
        o.str(k);
        o.i64(e.id);
        o.str(&e.name);
        o.opt(&e.description);
        o.opt(&e.logo);
        o.ints(&e.sub_topic_ids);
        o.ints(&e.topic_ids);
    }
    o.count(c.performances.len());
    for p in &c.performances {
        o.i64(p.id);
        o.i64(p.event_id);
        o.opt(&p.name);
        o.opt(&p.logo);
        o.i64(p.start);
        o.str(&p.venue_code);
        o.count(p.prices.len());
        for pr in &p.prices {
            o.i64(pr.amount);
            o.i64(pr.audience_sub_category_id);
            o.i64(pr.seat_category_id);
        }
        o.count(p.seat_categories.len());
        for sc in &p.seat_categories {
            o.i64(sc.seat_category_id);
            o.count(sc.areas.len());
            for a in &sc.areas {
                o.i64(a.area_id);
                o.ints(&a.block_ids);
            }
        }
    }
    o.count(c.topic_sub_topics.len());
    for (k, v) in &c.topic_sub_topics {
        o.str(k);
        o.ints(v);
    }
    o.strings(&c.venue_names);
    Sha256::digest(&o.0)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn fail(code: i32, message: impl std::fmt::Display) -> ! {
    eprintln!("error: {message}");
    exit(code)
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| fail(1, format!("{path}: {e}")))
}

/// The canonical file to plain objects (untimed); public for a program with an op of its own (capnp's read).
pub fn load(path: &str) -> Catalog {
    serde_json::from_slice(&read(path)).unwrap_or_else(|e| fail(1, format!("{path}: {e}")))
}

/// `PROG CANON encode|decode PASSES`, `PROG --emit CANON OUT`, `PROG --decode FILE`; never returns.
pub fn main<E, D>(encode: E, decode: D) -> !
where
    E: Fn(&Catalog) -> Result<Vec<u8>, String>,
    D: Fn(&[u8]) -> Result<Catalog, String>,
{
    main_with_read(encode, decode, None::<fn(&[u8]) -> Result<u64, String>>)
}

/// `main` for a zero-copy format, with `read` (bytes -> the visit checksum, README: no plain objects built):
/// also `PROG CANON read PASSES` (times it, answers the checksum in decimal) and `PROG --read FILE`.
pub fn main_with_read<E, D, R>(encode: E, decode: D, read_fn: Option<R>) -> !
where
    E: Fn(&Catalog) -> Result<Vec<u8>, String>,
    D: Fn(&[u8]) -> Result<Catalog, String>,
    R: Fn(&[u8]) -> Result<u64, String>,
{
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    if let Some(visit) = &read_fn {
        match args[..] {
            ["--read", file] => {
                let sum = visit(&read(file)).unwrap_or_else(|e| fail(1, format!("{file}: {e}")));
                println!("{sum}");
                exit(0)
            }
            [canon, "read", passes] => {
                let passes: u64 = match passes.parse() {
                    Ok(n) if n >= 1 => n,
                    _ => fail(
                        2,
                        format!("PASSES must be a positive integer, not '{passes}'"),
                    ),
                };
                let encoded = encode(&load(canon)).unwrap_or_else(|e| fail(1, e)); // untimed
                let size = encoded.len();
                let start = Instant::now();
                let mut sum = 0;
                for _ in 0..passes {
                    sum = visit(black_box(&encoded)).unwrap_or_else(|e| fail(1, e));
                }
                let inner = start.elapsed().as_nanos();
                eprintln!(
                    "iorace-result {{\"answer\": \"{sum}\", \"inner_ns\": {inner}, \"extra\": {{\"encoded_bytes\": {size}}}}}"
                );
                exit(0)
            }
            _ => {}
        }
    }
    match args[..] {
        ["--emit", canon, out] => {
            let bytes = encode(&load(canon)).unwrap_or_else(|e| fail(1, e));
            std::fs::write(out, bytes).unwrap_or_else(|e| fail(1, format!("{out}: {e}")));
            exit(0)
        }
        ["--decode", file] => {
            let c = decode(&read(file)).unwrap_or_else(|e| fail(1, format!("{file}: {e}")));
            println!("{}", digest(&c));
            exit(0)
        }
        [canon, op @ ("encode" | "decode"), passes] => {
            let passes: u64 = match passes.parse() {
                Ok(n) if n >= 1 => n,
                _ => fail(
                    2,
                    format!("PASSES must be a positive integer, not '{passes}'"),
                ),
            };
            let data = load(canon); // untimed: the canonical file to plain objects
            let mut encoded = encode(&data).unwrap_or_else(|e| fail(1, e));
            let size = encoded.len();
            let (inner, answer) = if op == "encode" {
                let start = Instant::now();
                for p in 1..=passes {
                    encoded = encode(black_box(&data)).unwrap_or_else(|e| fail(1, e));
                    if encoded.len() != size {
                        fail(
                            1,
                            format!("pass {p} wrote {} bytes, the first {size}", encoded.len()),
                        );
                    }
                }
                let inner = start.elapsed().as_nanos();
                (
                    inner,
                    digest(&decode(&encoded).unwrap_or_else(|e| fail(1, e))),
                )
            } else {
                let start = Instant::now();
                let mut decoded = None;
                for _ in 0..passes {
                    decoded = Some(decode(black_box(&encoded)).unwrap_or_else(|e| fail(1, e)));
                }
                let inner = start.elapsed().as_nanos();
                (inner, digest(&decoded.unwrap()))
            };
            eprintln!(
                "iorace-result {{\"answer\": \"{answer}\", \"inner_ns\": {inner}, \"extra\": {{\"encoded_bytes\": {size}}}}}"
            );
            exit(0)
        }
        _ => fail(
            2,
            "usage: PROG CANON encode|decode PASSES | --emit CANON OUT | --decode FILE",
        ),
    }
}
