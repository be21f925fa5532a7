// The RDB parser shared by every binary: generic over `Source`, the one call (read_exact) each strategy implements.
//! One RDB parser, generic over a small reader trait. Each binary in
//! `src/bin/` supplies a `Source` (how bytes come from the file) and calls
//! [`run`]. The summary it prints is specified in ../README.md.

use std::collections::BTreeMap;
use std::io;
use std::ops::Range;
use std::process::exit;
use std::time::Instant;

/// How the parser gets bytes: fill `buf` completely or fail.
pub trait Source {
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()>;

    /// The whole file, when the source holds it in memory (a Vec, a mapping). The parser then checks
    /// the trailer's CRC-64 from the file itself, catching up after a key once 64 KiB behind
    /// (`Parser::crc_behind`), instead of piece by piece as each field is read: the same check,
    /// with no per-read cost. Streaming sources keep the default (None) and the per-read CRC.
    fn whole_file(&self) -> Option<&[u8]> {
        None
    }

    /// True when the parser may read the fields in place in `whole_file()`: plain strings and compact
    /// blobs are then borrowed from it, never copied, and `read_exact` is not called. A constant, so
    /// that each parser build keeps only its own read path (no per-read test of a flag).
    const IN_PLACE: bool = false;
}

/// The whole file of an in-place source (empty for any other: `S::IN_PLACE` is false for them).
macro_rules! mapped {
    ($parser:expr) => {
        $parser.src.whole_file().unwrap_or(&[])
    };
}

/// A string `Parser::string_at` returned: its range in the file, or the buffer it was read into.
macro_rules! bytes_of {
    ($parser:expr, $range:expr, $buf:expr) => {
        match $range {
            Some(r) => &mapped!($parser)[r],
            None => &$buf[..],
        }
    };
}

/// A file already in memory, for the tests and the fuzzers: `copied` hands out fields through
/// `read_exact` (the streaming path: per-read CRC), `in_place` lets the parser read it in place (the
/// whole-file path: borrowed fields, the CRC from the file). Both must give the same verdict.
pub struct MemSource<'a, const IN_PLACE: bool> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> MemSource<'a, false> {
    pub fn copied(data: &'a [u8]) -> Self {
        MemSource { data, pos: 0 }
    }
}

impl<'a> MemSource<'a, true> {
    pub fn in_place(data: &'a [u8]) -> Self {
        MemSource { data, pos: 0 }
    }
}

impl<const IN_PLACE: bool> Source for MemSource<'_, IN_PLACE> {
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let end = self.pos + buf.len();
        if end > self.data.len() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "premature EOF",
            ));
        }
        buf.copy_from_slice(&self.data[self.pos..end]);
        self.pos = end;
        Ok(())
    }
    fn whole_file(&self) -> Option<&[u8]> {
        IN_PLACE.then_some(self.data)
    }
    const IN_PLACE: bool = IN_PLACE;
}

/// Parse `data` both ways (copied field by field, and in place): the verdict, and the summary when
/// accepted, must agree. Returns the summary's JSON, or the error; panics when the two disagree.
pub fn parse_both_ways(data: &[u8]) -> Res<String> {
    let copied = Parser::new(MemSource::copied(data), data.len() as u64).parse();
    let in_place = Parser::new(MemSource::in_place(data), data.len() as u64).parse();
    match (copied, in_place) {
        (Ok(a), Ok(b)) => {
            let (a, b) = (a.to_json(), b.to_json());
            assert_eq!(a, b, "copied and in-place parses disagree");
            Ok(a)
        }
        (Err(e), Err(_)) => Err(e),
        (a, b) => panic!(
            "copied and in-place parses disagree: {:?} / {:?}",
            a.map(|s| s.to_json()),
            b.map(|s| s.to_json())
        ),
    }
}

#[derive(Debug)]
pub struct RdbError {
    pub offset: u64,
    pub msg: String,
}

/// Boxed, so that a `Res<u8>` or `Res<u64>` comes back in registers: the parser makes millions of
/// small calls, and a 32-byte error inline in every result was passed through memory.
pub type Res<T> = Result<T, Box<RdbError>>;

#[cold]
fn err<T>(offset: u64, msg: impl Into<String>) -> Res<T> {
    Err(Box::new(RdbError {
        offset,
        msg: msg.into(),
    }))
}

/// Raw file bytes in a message, as every parser quotes them (C's and Java's `esc`): the first 32 bytes
/// in double quotes, printable ASCII as is, `"` and `\` escaped, any other byte as `\xNN`.
fn quoted(b: &[u8]) -> String {
    let mut s = String::from("\"");
    for &c in &b[..b.len().min(32)] {
        match c {
            b'"' | b'\\' => {
                s.push('\\');
                s.push(c as char);
            }
            0x20..=0x7e => s.push(c as char),
            _ => s.push_str(&format!("\\x{c:02x}")),
        }
    }
    s.push('"');
    s
}

// --- CRC-64/Jones, reflected, init 0, xorout 0: crc-fast (SIMD) for long data, a table for short -----------

const POLY: u64 = 0x95AC_9329_AC4B_C9B5;

const fn make_tables() -> [[u64; 256]; 8] {
    let mut t = [[0u64; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u64;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { (c >> 1) ^ POLY } else { c >> 1 };
            k += 1;
        }
        t[0][i] = c;
        i += 1;
    }
    let mut j = 1;
    while j < 8 {
        let mut i = 0;
        while i < 256 {
            let p = t[j - 1][i];
            t[j][i] = (p >> 8) ^ t[0][(p & 0xFF) as usize];
            i += 1;
        }
        j += 1;
    }
    t
}

static CRC_TABLES: [[u64; 256]; 8] = make_tables();

/// CRC-64 of `data` continuing `crc`. Pieces under 8 bytes (the parser's many small reads) take the
/// table a byte at a time, inline; longer data goes to crc-fast, which folds 128 bits at a time with
/// carry-less multiplication (PCLMULQDQ) where the CPU has it: the limit row's CRC of the 40 MB seed
/// dump took 0.15 G instructions with slicing-by-8 and takes 13.7 M (session 7, suites/rdb/README.md).
#[inline]
pub fn crc64(crc: u64, data: &[u8]) -> u64 {
    if data.len() < 8 {
        let mut crc = crc;
        for &b in data {
            crc = CRC_TABLES[0][((crc ^ b as u64) & 0xFF) as usize] ^ (crc >> 8);
        }
        crc
    } else {
        crc64_folded(crc, data)
    }
}

#[inline(never)]
fn crc64_folded(crc: u64, data: &[u8]) -> u64 {
    // CRC-64/REDIS in the CRC catalogue: Jones, reflected, init 0, xorout 0, so the state is the crc
    let mut d = crc_fast::Digest::new_with_init_state(crc_fast::CrcAlgorithm::Crc64Redis, crc);
    d.update(data);
    d.finalize()
}

/// The same CRC-64 by slicing-by-8 tables alone: the reference the tests hold crc64 to.
pub fn crc64_sliced(mut crc: u64, data: &[u8]) -> u64 {
    let t = &CRC_TABLES;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        crc ^= u64::from_le_bytes(c.try_into().unwrap());
        crc = t[7][(crc & 0xFF) as usize]
            ^ t[6][((crc >> 8) & 0xFF) as usize]
            ^ t[5][((crc >> 16) & 0xFF) as usize]
            ^ t[4][((crc >> 24) & 0xFF) as usize]
            ^ t[3][((crc >> 32) & 0xFF) as usize]
            ^ t[2][((crc >> 40) & 0xFF) as usize]
            ^ t[1][((crc >> 48) & 0xFF) as usize]
            ^ t[0][(crc >> 56) as usize];
    }
    for &b in chunks.remainder() {
        crc = t[0][((crc ^ b as u64) & 0xFF) as usize] ^ (crc >> 8);
    }
    crc
}

/// A CRC-64 fed in many small pieces (the parser's 1-8 byte reads, the digest's fields): the pieces
/// are staged in a 4 KiB buffer and hashed in one call when it fills, instead of one table step per
/// byte, a chain of dependent loads that was the parser's largest cost. `value()` equals `crc64`
/// over all the pieces in order.
pub struct Crc64Stream {
    crc: u64,
    n: usize, // bytes staged; always below CRC_STAGE between calls
    stage: [u8; CRC_STAGE + CRC_SLACK],
}

/// How far a whole-file source's CRC may fall behind the parse before it catches up, after the
/// current key (`Parser::crc_behind`): well inside L2. A single value larger than that (a big
/// string) is hashed after it is parsed, from wherever it then is.
const FILE_CRC_STEP: usize = 64 << 10;

/// 256 took 14% more instructions (more calls into crc-fast).
const CRC_STAGE: usize = 4096;
/// Room past the stage, so that a short piece (a field's 4-byte length and up to 32 bytes) is
/// always copied at `n` without asking whether it fits; the stage is hashed once `n` reaches
/// CRC_STAGE.
const CRC_SLACK: usize = 64;

impl Default for Crc64Stream {
    fn default() -> Self {
        Crc64Stream {
            crc: 0,
            n: 0,
            stage: [0; CRC_STAGE + CRC_SLACK],
        }
    }
}

impl Crc64Stream {
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        let (n, len) = (self.n, data.len());
        if len <= 32 {
            copy_short(&mut self.stage[n..n + 32], data);
            self.advance(n + len);
        } else {
            self.update_long(data);
        }
    }

    /// A digest field: `data`'s length as 4 bytes little-endian, then `data`, staged in one step
    /// when `data` is short (most keys, field names and small values).
    #[inline(always)]
    pub fn field(&mut self, data: &[u8]) {
        let (n, len) = (self.n, data.len());
        if len <= 32 {
            let dst = &mut self.stage[n..n + 36];
            dst[..4].copy_from_slice(&(len as u32).to_le_bytes());
            copy_short(&mut dst[4..], data);
            self.advance(n + 4 + len);
        } else {
            self.long_field(data);
        }
    }

    /// `field(&whole[r])` for a piece of a larger buffer (a string parsed in place): when 32 bytes
    /// from its start are inside `whole`, they are staged with one fixed-size copy, so the copy does
    /// not branch on the piece's length (random lengths made those branches mispredict).
    #[inline(always)]
    pub fn field_in(&mut self, whole: &[u8], r: Range<usize>) {
        let (n, len) = (self.n, r.len());
        match whole.get(r.start..r.start + 32) {
            Some(src) if len <= 32 => {
                let dst = &mut self.stage[n..n + 36];
                dst[..4].copy_from_slice(&(len as u32).to_le_bytes());
                dst[4..].copy_from_slice(src);
                self.advance(n + 4 + len);
            }
            _ => self.field(&whole[r]),
        }
    }

    #[inline(never)]
    fn long_field(&mut self, data: &[u8]) {
        self.update(&(data.len() as u32).to_le_bytes());
        self.update_long(data);
    }

    #[inline(always)]
    fn advance(&mut self, n: usize) {
        self.n = n;
        if n >= CRC_STAGE {
            self.flush();
        }
    }

    #[inline(never)]
    fn flush(&mut self) {
        self.crc = crc64(self.crc, &self.stage[..self.n]);
        self.n = 0;
    }

    /// A piece of more than 32 bytes: staged if it fits, else hashed where it is.
    #[inline(never)]
    fn update_long(&mut self, data: &[u8]) {
        let (n, len) = (self.n, data.len());
        if len <= CRC_STAGE - n {
            self.stage[n..n + len].copy_from_slice(data);
            self.advance(n + len);
        } else {
            self.flush();
            if len >= CRC_STAGE {
                self.crc = crc64(self.crc, data);
            } else {
                self.stage[..len].copy_from_slice(data);
                self.n = len;
            }
        }
    }

    pub fn value(&self) -> u64 {
        crc64(self.crc, &self.stage[..self.n])
    }
}

/// Copy `src` (at most 32 bytes) to the start of `dst` (32 bytes or more) with two overlapping loads
/// and stores of the largest power of two that fits, instead of a memcpy call.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let len = src.len();
    if len >= 16 {
        dst[..16].copy_from_slice(&src[..16]);
        dst[len - 16..len].copy_from_slice(&src[len - 16..]);
    } else if len >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[len - 8..len].copy_from_slice(&src[len - 8..]);
    } else if len >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[len - 4..len].copy_from_slice(&src[len - 4..]);
    } else if len > 0 {
        dst[0] = src[0];
        dst[len / 2] = src[len / 2];
        dst[len - 1] = src[len - 1];
    }
}

// --- RDB type codes and opcodes: Redis's own names (src/rdb.h) --------------------------

pub const RDB_TYPE_STRING: u8 = 0;
pub const RDB_TYPE_LIST: u8 = 1;
pub const RDB_TYPE_SET: u8 = 2;
pub const RDB_TYPE_ZSET: u8 = 3;
pub const RDB_TYPE_HASH: u8 = 4;
pub const RDB_TYPE_ZSET_2: u8 = 5; // binary double scores
pub const RDB_TYPE_MODULE_PRE_GA: u8 = 6; // 4.0 release candidates: not skippable
pub const RDB_TYPE_MODULE_2: u8 = 7; // annotated module value: skippable
pub const RDB_TYPE_HASH_ZIPMAP: u8 = 9;
pub const RDB_TYPE_LIST_ZIPLIST: u8 = 10;
pub const RDB_TYPE_SET_INTSET: u8 = 11;
pub const RDB_TYPE_ZSET_ZIPLIST: u8 = 12;
pub const RDB_TYPE_HASH_ZIPLIST: u8 = 13;
pub const RDB_TYPE_LIST_QUICKLIST: u8 = 14;
pub const RDB_TYPE_STREAM_LISTPACKS: u8 = 15;
pub const RDB_TYPE_HASH_LISTPACK: u8 = 16;
pub const RDB_TYPE_ZSET_LISTPACK: u8 = 17;
pub const RDB_TYPE_LIST_QUICKLIST_2: u8 = 18;
pub const RDB_TYPE_STREAM_LISTPACKS_2: u8 = 19;
pub const RDB_TYPE_SET_LISTPACK: u8 = 20;
pub const RDB_TYPE_STREAM_LISTPACKS_3: u8 = 21;
pub const RDB_TYPE_HASH_METADATA_PRE_GA: u8 = 22; // field TTLs, absolute (7.4 release candidates)
pub const RDB_TYPE_HASH_LISTPACK_EX_PRE_GA: u8 = 23; // listpack with field TTLs (7.4 release candidates)
pub const RDB_TYPE_HASH_METADATA: u8 = 24; // field TTLs relative to a min expire
pub const RDB_TYPE_HASH_LISTPACK_EX: u8 = 25; // listpack with field TTLs, after a min expire

pub const RDB_OPCODE_SLOT_INFO: u8 = 244;
pub const RDB_OPCODE_FUNCTION2: u8 = 245;
pub const RDB_OPCODE_FUNCTION_PRE_GA: u8 = 246;
pub const RDB_OPCODE_MODULE_AUX: u8 = 247;
pub const RDB_OPCODE_IDLE: u8 = 248;
pub const RDB_OPCODE_FREQ: u8 = 249;
pub const RDB_OPCODE_AUX: u8 = 250;
pub const RDB_OPCODE_RESIZEDB: u8 = 251;
pub const RDB_OPCODE_EXPIRETIME_MS: u8 = 252;
pub const RDB_OPCODE_EXPIRETIME: u8 = 253;
pub const RDB_OPCODE_SELECTDB: u8 = 254;
pub const RDB_OPCODE_EOF: u8 = 255;

pub const RDB_MODULE_OPCODE_EOF: u64 = 0;
pub const RDB_MODULE_OPCODE_SINT: u64 = 1;
pub const RDB_MODULE_OPCODE_UINT: u64 = 2;
pub const RDB_MODULE_OPCODE_FLOAT: u64 = 3;
pub const RDB_MODULE_OPCODE_DOUBLE: u64 = 4;
pub const RDB_MODULE_OPCODE_STRING: u64 = 5;

pub const RDB_ENC_INT8: u64 = 0;
pub const RDB_ENC_INT16: u64 = 1;
pub const RDB_ENC_INT32: u64 = 2;
pub const RDB_ENC_LZF: u64 = 3;

pub const QUICKLIST_NODE_CONTAINER_PLAIN: u64 = 1;
pub const QUICKLIST_NODE_CONTAINER_PACKED: u64 = 2;

/// The largest field expiry Redis accepts (ms); one more is its "no expiry" min expire.
pub const EB_EXPIRE_TIME_MAX: u64 = (1 << 48) - 1;

// --- the canonical summary ------------------------------------------------------------

pub const TYPE_NAMES: [&str; 7] = ["string", "list", "set", "zset", "hash", "stream", "module"];
pub const T_STRING: usize = 0;
pub const T_LIST: usize = 1;
pub const T_SET: usize = 2;
pub const T_ZSET: usize = 3;
pub const T_HASH: usize = 4;
pub const T_STREAM: usize = 5;
pub const T_MODULE: usize = 6;

/// Key counts plus the digest: CRC-64 over length-prefixed fields (see README.md).
#[derive(Default)]
pub struct Summary {
    pub keys: u64,
    pub expires: u64,
    dbs: BTreeMap<u64, u64>, // keys per database, not yet counting the current run (`db`)
    db: CurrentDb,
    pub types: [u64; 7],
    pub field_expires: u64,
    pub module_aux: u64,
    pub digest: Crc64Stream,
}

/// The database of the latest keys: its number as decimal text and its keys since it began, so
/// that a run of keys in one database costs neither a decimal conversion nor a map update per key.
#[derive(Default)]
struct CurrentDb {
    db: u64,
    keys: u64, // 0: no key yet
    text: Vec<u8>,
}

/// The 16 lowercase hex digits of the double's IEEE-754 bits (every NaN as 7ff8000000000000).
pub fn score_hex(x: f64) -> [u8; 16] {
    let bits = if x.is_nan() {
        0x7ff8_0000_0000_0000u64
    } else {
        x.to_bits()
    };
    let mut out = [0u8; 16];
    for (pair, byte) in out.chunks_exact_mut(2).zip(bits.to_be_bytes()) {
        pair.copy_from_slice(&HEX_PAIRS[byte as usize]);
    }
    out
}

/// Each byte's two lowercase hex digits.
static HEX_PAIRS: [[u8; 2]; 256] = {
    let digits = b"0123456789abcdef";
    let mut t = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = [digits[i >> 4], digits[i & 15]];
        i += 1;
    }
    t
};

/// A zset score written as text (v1 scores, ziplist/listpack entries): the whole field must be what C's
/// strtod reads, as Redis loads it: optional sign, then a decimal float, a hex float (0x, optional p
/// exponent), inf, infinity, nan or nan(chars), any case; no space, nothing after it. Correctly rounded;
/// out of range gives +-inf or 0 as strtod does.
pub fn parse_score(s: &[u8]) -> Option<f64> {
    let (neg, body) = match s.first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let lower = |t: &[u8], w: &[u8]| t.len() >= w.len() && t[..w.len()].eq_ignore_ascii_case(w);
    let decimal = matches!(body.first(), Some(b'0'..=b'9' | b'.')) && !lower(body, b"0x");
    let x = if decimal {
        match short_decimal(body) {
            Some(x) => x,
            None => {
                // From a digit or a point on, std's f64 grammar is strtod's decimal one: digits
                // with an optional point (at least one digit), then an optional e/E, sign and at
                // least one digit, to the end; its sign, inf and nan cannot start here. Correctly
                // rounded, overflow to inf, no length limit. (A separate validating pass cost 15%
                // of the parse on the seed dump's 17-digit scores; tests/score_grammar.rs holds
                // this branch to a hand-written strtod grammar.)
                if !body.is_ascii() {
                    return None;
                }
                // SAFETY: ASCII is valid UTF-8 (from_utf8's own check cost a third of the parse).
                unsafe { std::str::from_utf8_unchecked(body) }
                    .parse::<f64>()
                    .ok()?
            }
        }
    } else if lower(body, b"inf") {
        if body.len() != 3 && !(body.len() == 8 && lower(body, b"infinity")) {
            return None;
        }
        f64::INFINITY
    } else if lower(body, b"nan") {
        let rest = &body[3..];
        let paren = rest.len() >= 2 && rest[0] == b'(' && rest[rest.len() - 1] == b')';
        if !(rest.is_empty()
            || paren
                && rest[1..rest.len() - 1]
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || *c == b'_'))
        {
            return None;
        }
        return Some(f64::NAN);
    } else if lower(body, b"0x") {
        let (mant, exp) = scan_float(&body[2..], u8::is_ascii_hexdigit, b'p')?;
        parse_hex_float(mant, exp)
    } else {
        return None;
    };
    Some(if neg { -x } else { x })
}

/// The common score text, `digits[.digits]` with at most 19 digits in all and no exponent, rounded
/// exactly: the digits m (< 10^19 < 2^64) over 10^k. Clinger's fast path when both are exact in a
/// double (m < 2^53, k <= 15: one correctly rounded IEEE division), else `nearest_quotient`. The
/// seed dump's `%.17g` scores take the second path: the full parse cost four times as much. None
/// for any other text: the caller's full grammar decides. tests/score_fast_path.rs holds it to std.
#[inline]
fn short_decimal(s: &[u8]) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    // one tight loop per run of digits (a loop over every character with a state for the point cost
    // more than std's whole parse); wrapping: more than 19 digits are refused below
    let digits = |mut i: usize, m: &mut u64| {
        // eight digits at a time while there are eight (the `%.17g` scores' long fractions)
        while let Some(chunk) = s.get(i..i + 8) {
            let v = u64::from_le_bytes(chunk.try_into().unwrap());
            if !eight_digits(v) {
                break;
            }
            *m = m
                .wrapping_mul(100_000_000)
                .wrapping_add(eight_digits_value(v));
            i += 8;
        }
        while let Some(&c) = s.get(i) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            *m = m.wrapping_mul(10).wrapping_add(d as u64);
            i += 1;
        }
        i
    };
    let mut m = 0u64;
    let int_end = digits(0, &mut m);
    let (end, frac) = match s.get(int_end) {
        Some(b'.') => {
            let end = digits(int_end + 1, &mut m);
            (end, end - int_end - 1)
        }
        _ => (int_end, 0),
    };
    let point = end > int_end;
    if int_end == 0 || (point && frac == 0) || end != s.len() || int_end + frac > 19 {
        return None;
    }
    if frac == 0 {
        return Some(m as f64); // an integer: `as` rounds to nearest, ties to even
    }
    if m < 1 << 53 && frac <= 15 {
        return Some(m as f64 / POW10[frac]);
    }
    Some(nearest_quotient(m, POW10_U64[frac]))
}

/// Whether the 8 bytes of `v` (loaded little-endian) are all ASCII digits: no bit outside the
/// digits' 0x30 in each high nibble, and no low nibble above 9 (adding 6 would carry into the high one).
#[inline(always)]
fn eight_digits(v: u64) -> bool {
    (v & 0xF0F0_F0F0_F0F0_F0F0)
        | (v.wrapping_add(0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4
        == 0x3333_3333_3333_3333
}

/// The value of 8 ASCII digits loaded little-endian (the first digit in the low byte): pairs, then
/// quads, then the whole, by three multiplications (the SWAR step of fast_float's parser).
#[inline(always)]
fn eight_digits_value(v: u64) -> u64 {
    let v = v - 0x3030_3030_3030_3030;
    let v = v.wrapping_mul(10) + (v >> 8); // each even byte: two digits
    let quads = (v & 0x0000_00FF_0000_00FF).wrapping_mul(100 + (1_000_000 << 32));
    let rest = ((v >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (10_000 << 32));
    (quads.wrapping_add(rest) >> 32) & 0xFFFF_FFFF
}

/// 10^0 ..= 10^19, every power of ten below 2^64 (a table: `u64::pow` loops).
const POW10_U64: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// The double nearest to m / d (ties to even), for 0 < d < 2^64 and m / d between 2^-64 and 2^64 (no
/// overflow or subnormal): q = m * 2^s / d in 128-bit integers, with s chosen so that q has 55 or
/// more bits; its top 53 bits are the mantissa, the bits below them and the remainder decide the
/// rounding.
fn nearest_quotient(m: u64, d: u64) -> f64 {
    if m == 0 {
        return 0.0;
    }
    let (bm, bd) = (64 - m.leading_zeros() as i32, 64 - d.leading_zeros() as i32);
    let s = (55 + bd - bm).max(0); // m * 2^s / d >= 2^54
    let n = (m as u128) << s;
    let (q, r) = (n / d as u128, n % d as u128);
    let drop = 128 - q.leading_zeros() as i32 - 53; // q's bits below the mantissa: 2 or more
    let mut mant = (q >> drop) as u64;
    let (low, half) = (q & ((1u128 << drop) - 1), 1u128 << (drop - 1));
    if low > half || (low == half && (r != 0 || mant & 1 == 1)) {
        mant += 1; // 2^53 at most: still exact as a double
    }
    let pow2 = f64::from_bits(((1023 + drop - s) as u64) << 52); // 2^(drop - s), a normal double
    mant as f64 * pow2 // exact: a power of two times an integer below 2^54, in range
}

/// digits [. digits] (at least one digit) then an optional exponent letter, sign and decimal digits, to the end.
/// Returns the mantissa and the exponent, clamped to +-2^30.
fn scan_float(s: &[u8], digit: fn(&u8) -> bool, e: u8) -> Option<(&[u8], i64)> {
    let mut i = 0;
    let mut digits = 0;
    while i < s.len() && digit(&s[i]) {
        i += 1;
        digits += 1;
    }
    if i < s.len() && s[i] == b'.' {
        i += 1;
        while i < s.len() && digit(&s[i]) {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    let mant = &s[..i];
    if i == s.len() {
        return Some((mant, 0));
    }
    if s[i].to_ascii_lowercase() != e {
        return None;
    }
    i += 1;
    let neg = i < s.len() && s[i] == b'-';
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        i += 1;
    }
    if i == s.len() {
        return None;
    }
    let mut v: i64 = 0;
    for &c in &s[i..] {
        if !c.is_ascii_digit() {
            return None;
        }
        v = (v * 10 + (c - b'0') as i64).min(1 << 30);
    }
    Some((mant, if neg { -v } else { v }))
}

/// Hex mantissa digits (with an optional point) times 2^exp, rounded to nearest even.
fn parse_hex_float(mant: &[u8], exp: i64) -> f64 {
    let (mut m, mut e, mut sticky, mut point) = (0u64, exp, false, false);
    for &c in mant {
        if c == b'.' {
            point = true;
            continue;
        }
        let d = (c as char).to_digit(16).unwrap() as u64;
        if m >> 60 == 0 {
            m = m << 4 | d;
            if point {
                e -= 4;
            }
        } else {
            sticky |= d != 0;
            if !point {
                e += 4;
            }
        }
    }
    if m == 0 {
        return 0.0;
    }
    let lz = m.leading_zeros();
    m <<= lz;
    e -= lz as i64;
    let be = e + 63; // the value is in [2^be, 2^(be+1))
    if be > 1023 {
        return f64::INFINITY;
    }
    let keep = if be >= -1022 { 53 } else { 53 - (-1022 - be) };
    let drop = 64 - keep;
    if drop > 64 {
        return 0.0;
    }
    let full = m as u128;
    let rem = full & ((1u128 << drop) - 1);
    let half = 1u128 << (drop - 1);
    let mut q = (full >> drop) as u64;
    if rem > half || (rem == half && (sticky || q & 1 == 1)) {
        q += 1;
    }
    if keep == 53 {
        let mut be = be;
        if q == 1 << 53 {
            q >>= 1;
            be += 1;
            if be > 1023 {
                return f64::INFINITY;
            }
        }
        f64::from_bits((((be + 1023) as u64) << 52) | (q & ((1 << 52) - 1)))
    } else {
        f64::from_bits(q) // subnormal (or the smallest normal when rounding carried)
    }
}

impl Summary {
    #[inline]
    pub fn field(&mut self, b: &[u8]) {
        self.digest.field(b);
    }
    /// `field(&whole[r])`, faster for a short piece with 32 bytes of `whole` from its start.
    #[inline]
    pub fn field_in(&mut self, whole: &[u8], r: Range<usize>) {
        self.digest.field_in(whole, r);
    }
    pub fn int_field(&mut self, v: i64) {
        self.field(itoa::Buffer::new().format(v).as_bytes());
    }
    pub fn uint_field(&mut self, v: u64) {
        self.field(itoa::Buffer::new().format(v).as_bytes());
    }
    pub fn score_field(&mut self, x: f64) {
        self.field(&score_hex(x));
    }
    /// Start a key's record: db, logical type, key, expiry (ms, or empty).
    pub fn begin(&mut self, db: u64, t: usize, key: &[u8], expiry: Option<i64>) {
        if self.db.keys == 0 || self.db.db != db {
            self.switch_db(db);
        }
        self.db.keys += 1;
        self.digest.field(&self.db.text);
        self.field(TYPE_NAMES[t].as_bytes());
        self.field(key);
        match expiry {
            Some(e) => self.int_field(e),
            None => self.field(b""),
        }
        self.keys += 1;
        self.types[t] += 1;
        if expiry.is_some() {
            self.expires += 1;
        }
    }
    #[cold]
    fn switch_db(&mut self, db: u64) {
        if self.db.keys > 0 {
            *self.dbs.entry(self.db.db).or_insert(0) += self.db.keys;
        }
        self.db = CurrentDb {
            db,
            keys: 0,
            text: itoa::Buffer::new().format(db).as_bytes().to_vec(),
        };
    }
    /// Keys per database, ascending.
    pub fn dbs(&self) -> BTreeMap<u64, u64> {
        let mut dbs = self.dbs.clone();
        if self.db.keys > 0 {
            *dbs.entry(self.db.db).or_insert(0) += self.db.keys;
        }
        dbs
    }
    /// A hash field's absolute expiry in ms (0 = none, an empty field), counted in `field_expires`.
    pub fn field_ttl(&mut self, expire_at: u64) {
        if expire_at == 0 {
            self.field(b"");
        } else {
            self.field_expires += 1;
            self.uint_field(expire_at);
        }
    }
    /// End a key's record with its element count.
    pub fn end(&mut self, n: u64) {
        self.uint_field(n);
    }
    pub fn to_json(&self) -> String {
        let dbs: Vec<String> = self
            .dbs()
            .iter()
            .map(|(d, n)| format!("\"{}\": {}", d, n))
            .collect();
        let types: Vec<String> = TYPE_NAMES
            .iter()
            .zip(self.types.iter())
            .map(|(t, n)| format!("\"{}\": {}", t, n))
            .collect();
        format!(
            "{{\"keys\": {}, \"expires\": {}, \"dbs\": {{{}}}, \"types\": {{{}}}, \"field_expires\": {}, \"module_aux\": {}, \"digest\": \"{:016x}\"}}",
            self.keys,
            self.expires,
            dbs.join(", "),
            types.join(", "),
            self.field_expires,
            self.module_aux,
            self.digest.value()
        )
    }
}

// --- compact encodings (whole blobs in memory) -------------------------------------------

/// One ziplist/listpack entry: a string or an integer (rendered as decimal).
pub enum Elem<'a> {
    Str(&'a [u8]),
    Int(i64),
}

impl Summary {
    fn elem(&mut self, e: &Elem) {
        match e {
            Elem::Str(s) => self.field(s),
            Elem::Int(v) => self.int_field(*v),
        }
    }
}

fn elem_score(e: &Elem, at: u64) -> Res<f64> {
    match e {
        Elem::Int(v) => Ok(*v as f64),
        Elem::Str(s) => match parse_score(s) {
            Some(x) => Ok(x),
            None => err(at, format!("bad zset score {}", quoted(s))),
        },
    }
}

// map_or kept: is_none_or compiles to other machine code in 8 of the 9 parser binaries.
#[allow(clippy::unnecessary_map_or)]
#[inline(always)]
fn need(blob: &[u8], i: usize, n: usize, what: &str, at: u64) -> Res<()> {
    if i.checked_add(n).map_or(true, |e| e > blob.len()) {
        return past_end(what, at);
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn past_end(what: &str, at: u64) -> Res<()> {
    err(at, format!("corrupt {} (entry past its end)", what))
}

fn le_u32(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(b[i..i + 4].try_into().unwrap())
}

fn sext(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

fn le_int(b: &[u8], i: usize, w: usize) -> i64 {
    let mut v = 0u64;
    for k in 0..w {
        v |= (b[i + k] as u64) << (8 * k);
    }
    sext(v, 8 * w as u32)
}

/// A ziplist's entries; its header (zlbytes, zltail, zllen) and every prevlen are checked against the walk.
// `0 | 1 | 2` kept: `0..=2` compiles to other machine code (the inplace binary).
#[allow(clippy::manual_range_patterns)]
pub fn walk_ziplist(blob: &[u8], at: u64, mut f: impl FnMut(Elem) -> Res<()>) -> Res<u64> {
    if blob.len() < 11 || le_u32(blob, 0) as usize != blob.len() {
        return err(at, "corrupt ziplist header");
    }
    let (zltail, zllen) = (
        le_u32(blob, 4) as usize,
        u16::from_le_bytes([blob[8], blob[9]]),
    );
    let mut i = 10;
    let mut n = 0;
    let (mut last, mut prev) = (10usize, 0usize); // the last entry's offset, the previous entry's size
    let mut start = 10usize;
    loop {
        if n > 0 {
            last = start;
            prev = i - start;
        }
        need(blob, i, 1, "ziplist", at)?;
        let b = blob[i];
        if b == 0xFF {
            break;
        }
        start = i;
        let plen = if b == 0xFE {
            need(blob, i, 5, "ziplist", at)?;
            i += 5;
            le_u32(blob, i - 4) as usize
        } else {
            i += 1;
            b as usize
        };
        if plen != prev {
            return err(
                at,
                format!(
                    "corrupt ziplist (prevlen {}, previous entry has {} bytes)",
                    plen, prev
                ),
            );
        }
        need(blob, i, 1, "ziplist", at)?;
        let enc = blob[i];
        n += 1;
        match enc >> 6 {
            0 | 1 | 2 => {
                let ln;
                if enc >> 6 == 0 {
                    ln = (enc & 0x3F) as usize;
                    i += 1;
                } else if enc >> 6 == 1 {
                    need(blob, i, 2, "ziplist", at)?;
                    ln = (((enc & 0x3F) as usize) << 8) | blob[i + 1] as usize;
                    i += 2;
                } else if enc == 0x80 {
                    need(blob, i, 5, "ziplist", at)?;
                    ln = u32::from_be_bytes(blob[i + 1..i + 5].try_into().unwrap()) as usize;
                    i += 5;
                } else {
                    return err(at, format!("corrupt ziplist (encoding 0x{:02x})", enc));
                }
                need(blob, i, ln, "ziplist", at)?;
                f(Elem::Str(&blob[i..i + ln]))?;
                i += ln;
            }
            _ => {
                i += 1;
                let w = match enc {
                    0xC0 => 2,
                    0xD0 => 4,
                    0xE0 => 8,
                    0xF0 => 3,
                    0xFE => 1,
                    0xF1..=0xFD => {
                        f(Elem::Int((enc & 0x0F) as i64 - 1))?;
                        continue;
                    }
                    _ => return err(at, format!("corrupt ziplist (encoding 0x{:02x})", enc)),
                };
                need(blob, i, w, "ziplist", at)?;
                f(Elem::Int(le_int(blob, i, w)))?;
                i += w;
            }
        }
    }
    if i != blob.len() - 1 {
        return err(at, "corrupt ziplist (bytes after its end marker)");
    }
    if zltail != last {
        return err(
            at,
            format!(
                "corrupt ziplist (zltail {}, last entry at {})",
                zltail, last
            ),
        );
    }
    if zllen != 0xFFFF && zllen as u64 != n {
        return err(
            at,
            format!("corrupt ziplist (zllen {}, {} entries)", zllen, n),
        );
    }
    Ok(n)
}

fn backlen_size(n: usize) -> usize {
    if n <= 127 {
        1
    } else if n < 16383 {
        2
    } else if n < 2097151 {
        3
    } else if n < 268435455 {
        4
    } else {
        5
    }
}

/// The `size` bytes at i encode `elen` as a listpack back length (7 bits a byte, most significant first,
/// every byte but the first with its high bit set).
fn backlen_ok(blob: &[u8], i: usize, elen: usize, size: usize) -> bool {
    (0..size).all(|k| {
        let want = ((elen >> (7 * (size - 1 - k))) & 127) as u8 | if k > 0 { 128 } else { 0 };
        blob[i + k] == want
    })
}

/// A listpack's entries; its header (total bytes, element count) and every back length are checked.
pub fn walk_listpack(blob: &[u8], at: u64, mut f: impl FnMut(Elem) -> Res<()>) -> Res<u64> {
    if blob.len() < 7 || le_u32(blob, 0) as usize != blob.len() {
        return err(at, "corrupt listpack header");
    }
    let numele = u16::from_le_bytes([blob[4], blob[5]]);
    let mut i = 6;
    let mut n = 0;
    loop {
        need(blob, i, 1, "listpack", at)?;
        let b = blob[i];
        if b == 0xFF {
            break;
        }
        let elen;
        if b < 0x80 {
            f(Elem::Int(b as i64))?;
            elen = 1;
        } else if b < 0xC0 {
            let ln = (b & 0x3F) as usize;
            need(blob, i, 1 + ln, "listpack", at)?;
            f(Elem::Str(&blob[i + 1..i + 1 + ln]))?;
            elen = 1 + ln;
        } else if b < 0xE0 {
            need(blob, i, 2, "listpack", at)?;
            let v = (((b & 0x1F) as u64) << 8) | blob[i + 1] as u64;
            f(Elem::Int(sext(v, 13)))?;
            elen = 2;
        } else if b < 0xF0 {
            need(blob, i, 2, "listpack", at)?;
            let ln = (((b & 0x0F) as usize) << 8) | blob[i + 1] as usize;
            need(blob, i, 2 + ln, "listpack", at)?;
            f(Elem::Str(&blob[i + 2..i + 2 + ln]))?;
            elen = 2 + ln;
        } else if b == 0xF0 {
            need(blob, i, 5, "listpack", at)?;
            let ln = le_u32(blob, i + 1) as usize;
            need(blob, i, 5 + ln, "listpack", at)?;
            f(Elem::Str(&blob[i + 5..i + 5 + ln]))?;
            elen = 5 + ln;
        } else {
            let w = match b {
                0xF1 => 2,
                0xF2 => 3,
                0xF3 => 4,
                0xF4 => 8,
                _ => return err(at, format!("corrupt listpack (encoding 0x{:02x})", b)),
            };
            need(blob, i, 1 + w, "listpack", at)?;
            f(Elem::Int(le_int(blob, i + 1, w)))?;
            elen = 1 + w;
        }
        n += 1;
        let bl = backlen_size(elen);
        need(blob, i + elen, bl, "listpack", at)?;
        if !backlen_ok(blob, i + elen, elen, bl) {
            return err(
                at,
                format!(
                    "corrupt listpack (back length does not match an entry of {} bytes)",
                    elen
                ),
            );
        }
        i += elen + bl;
    }
    if i != blob.len() - 1 {
        return err(at, "corrupt listpack (bytes after its end marker)");
    }
    if numele != 0xFFFF && numele as u64 != n {
        return err(
            at,
            format!(
                "corrupt listpack (header says {} entries, {} found)",
                numele, n
            ),
        );
    }
    Ok(n)
}

/// A zipmap's keys and values; its count byte (when below 254) is checked against the walk.
pub fn walk_zipmap(blob: &[u8], at: u64, mut f: impl FnMut(Elem) -> Res<()>) -> Res<u64> {
    need(blob, 0, 1, "zipmap", at)?;
    let mut i = 1;
    let mut n = 0;
    loop {
        need(blob, i, 1, "zipmap", at)?;
        if blob[i] == 0xFF {
            break;
        }
        for part in 0..2 {
            need(blob, i, 1, "zipmap", at)?;
            let b = blob[i];
            let ln = if b < 254 {
                i += 1;
                b as usize
            } else if b == 254 {
                need(blob, i, 5, "zipmap", at)?;
                let l = le_u32(blob, i + 1) as usize;
                i += 5;
                l
            } else {
                return err(at, "corrupt zipmap (unexpected end marker)");
            };
            let mut free = 0;
            if part == 1 {
                need(blob, i, 1, "zipmap", at)?;
                free = blob[i] as usize;
                i += 1;
            }
            need(blob, i, ln + free, "zipmap", at)?;
            f(Elem::Str(&blob[i..i + ln]))?;
            i += ln + free;
            n += 1;
        }
    }
    if i != blob.len() - 1 {
        return err(at, "corrupt zipmap (bytes after its end marker)");
    }
    if blob[0] < 254 && blob[0] as u64 != n / 2 {
        return err(
            at,
            format!(
                "corrupt zipmap (header says {} pairs, {} found)",
                blob[0],
                n / 2
            ),
        );
    }
    Ok(n)
}

pub fn walk_intset(blob: &[u8], at: u64, mut f: impl FnMut(Elem) -> Res<()>) -> Res<u64> {
    if blob.len() < 8 {
        return err(at, "corrupt intset header");
    }
    let enc = le_u32(blob, 0) as usize;
    let n = le_u32(blob, 4) as usize;
    if !(enc == 2 || enc == 4 || enc == 8) || blob.len() as u64 != 8 + n as u64 * enc as u64 {
        return err(
            at,
            format!(
                "corrupt intset (encoding {}, {} entries, {} bytes)",
                enc,
                n,
                blob.len()
            ),
        );
    }
    for k in 0..n {
        f(Elem::Int(le_int(blob, 8 + k * enc, enc)))?;
    }
    Ok(n as u64)
}

pub fn lzf_decompress(src: &[u8], ulen: usize, out: &mut Vec<u8>, at: u64) -> Res<()> {
    out.clear();
    // grow as the data decompresses: a crafted header cannot make us reserve its claimed size up front
    out.reserve(ulen.min(src.len().saturating_mul(4)));
    let mut i = 0;
    let n = src.len();
    while i < n {
        let ctrl = src[i] as usize;
        i += 1;
        if ctrl < 32 {
            let ln = ctrl + 1;
            if i + ln > n || out.len() + ln > ulen {
                return err(at, "corrupt LZF data (literal run past the end)");
            }
            out.extend_from_slice(&src[i..i + ln]);
            i += ln;
        } else {
            let mut ln = ctrl >> 5;
            if ln == 7 {
                if i >= n {
                    return err(at, "corrupt LZF data (truncated)");
                }
                ln += src[i] as usize;
                i += 1;
            }
            if i >= n {
                return err(at, "corrupt LZF data (truncated)");
            }
            let back = ((ctrl & 0x1F) << 8) + src[i] as usize + 1;
            i += 1;
            ln += 2;
            if back > out.len() || out.len() + ln > ulen {
                return err(at, "corrupt LZF data (back reference out of range)");
            }
            let start = out.len() - back;
            if back >= ln {
                out.extend_from_within(start..start + ln);
            } else {
                for k in 0..ln {
                    let b = out[start + k];
                    out.push(b);
                }
            }
        }
    }
    if out.len() != ulen {
        return err(
            at,
            format!(
                "LZF data decompressed to {} bytes, header says {}",
                out.len(),
                ulen
            ),
        );
    }
    Ok(())
}

// --- the parser ------------------------------------------------------------------------

pub const MAX_VERSION: u32 = 12;

/// Versions whose format is newer than the Redis source this parser follows (7.4 / 8.0's rdb.h): who writes them.
pub fn newer_version(v: u32) -> Option<&'static str> {
    match v {
        13 => Some("Redis 8.6"),
        14 => Some("Redis 8.8"),
        _ => None,
    }
}

/// The logical type of a value type code (index into TYPE_NAMES), None for opcodes and unknown codes.
pub fn logical_type(t: u8) -> Option<usize> {
    Some(match t {
        RDB_TYPE_STRING => T_STRING,
        RDB_TYPE_LIST
        | RDB_TYPE_LIST_ZIPLIST
        | RDB_TYPE_LIST_QUICKLIST
        | RDB_TYPE_LIST_QUICKLIST_2 => T_LIST,
        RDB_TYPE_SET | RDB_TYPE_SET_INTSET | RDB_TYPE_SET_LISTPACK => T_SET,
        RDB_TYPE_ZSET | RDB_TYPE_ZSET_2 | RDB_TYPE_ZSET_ZIPLIST | RDB_TYPE_ZSET_LISTPACK => T_ZSET,
        RDB_TYPE_HASH
        | RDB_TYPE_HASH_ZIPMAP
        | RDB_TYPE_HASH_ZIPLIST
        | RDB_TYPE_HASH_LISTPACK
        | RDB_TYPE_HASH_METADATA_PRE_GA
        | RDB_TYPE_HASH_LISTPACK_EX_PRE_GA
        | RDB_TYPE_HASH_METADATA
        | RDB_TYPE_HASH_LISTPACK_EX => T_HASH,
        RDB_TYPE_STREAM_LISTPACKS | RDB_TYPE_STREAM_LISTPACKS_2 | RDB_TYPE_STREAM_LISTPACKS_3 => {
            T_STREAM
        }
        RDB_TYPE_MODULE_2 => T_MODULE,
        _ => return None,
    })
}

pub struct Parser<S: Source> {
    src: S,
    pos: u64,
    size: u64,
    crc: Crc64Stream,
    crc_from_file: bool, // the source holds the whole file: the CRC from it, not per read (Source::whole_file)
    file_crc: u64,       // ... the CRC-64 of the file's first `crc_upto` bytes
    crc_upto: usize,
    pub sum: Summary,
    lzf: Vec<u8>,
    value_buf: Vec<u8>,
}

impl<S: Source> Parser<S> {
    pub fn new(src: S, size: u64) -> Self {
        let crc_from_file = src.whole_file().is_some();
        assert!(
            crc_from_file || !S::IN_PLACE,
            "an in-place source must hold the whole file"
        );
        Parser {
            crc_from_file,
            file_crc: 0,
            crc_upto: 0,
            src,
            pos: 0,
            size,
            crc: Crc64Stream::default(),
            sum: Summary::default(),
            lzf: Vec::new(),
            value_buf: Vec::new(),
        }
    }

    /// A source holding the whole file: fold the bytes parsed since the last call into the file's
    /// CRC-64 while they are still in the cache (called after a key once FILE_CRC_STEP behind).
    /// One pass over the whole file at the end read it back from memory.
    #[inline(never)]
    fn crc_behind(&mut self) {
        let upto = self.pos as usize;
        if let Some(file) = self.src.whole_file() {
            self.file_crc = crc64(self.file_crc, &file[self.crc_upto..upto]);
        }
        self.crc_upto = upto;
    }

    fn left(&self) -> u64 {
        self.size - self.pos
    }

    /// `n` more bytes must be in the file: past its end is a truncated file or a corrupt length.
    #[inline(always)]
    fn have(&self, n: u64) -> Res<()> {
        if n > self.left() {
            return self.truncated(n);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn truncated(&self, n: u64) -> Res<()> {
        err(
            self.pos,
            format!(
                "need {} bytes but only {} remain (truncated file or bad length)",
                n,
                self.left()
            ),
        )
    }

    #[inline(always)]
    fn read(&mut self, buf: &mut [u8]) -> Res<()> {
        let n = buf.len() as u64;
        self.have(n)?;
        if S::IN_PLACE {
            let p = self.pos as usize;
            buf.copy_from_slice(&mapped!(self)[p..p + buf.len()]);
        } else if let Err(e) = self.src.read_exact(buf) {
            return err(self.pos, format!("read failed: {}", e));
        }
        if !S::IN_PLACE && !self.crc_from_file {
            self.crc.update(buf);
        }
        self.pos += n;
        Ok(())
    }

    #[inline(always)]
    fn u8(&mut self) -> Res<u8> {
        if S::IN_PLACE && self.pos < self.size {
            let b = mapped!(self)[self.pos as usize];
            self.pos += 1;
            return Ok(b);
        }
        let mut b = [0u8; 1];
        self.read(&mut b)?;
        Ok(b[0])
    }

    #[inline]
    fn arr<const N: usize>(&mut self) -> Res<[u8; N]> {
        let mut b = [0u8; N];
        self.read(&mut b)?;
        Ok(b)
    }

    /// (value, is_special_encoding)
    #[inline(always)]
    fn length_enc(&mut self) -> Res<(u64, bool)> {
        let at = self.pos;
        let b = self.u8()?;
        match b >> 6 {
            0 => Ok(((b & 0x3F) as u64, false)),
            1 => Ok(((((b & 0x3F) as u64) << 8) | self.u8()? as u64, false)),
            3 => Ok(((b & 0x3F) as u64, true)),
            _ => match b {
                0x80 => Ok((u32::from_be_bytes(self.arr()?) as u64, false)),
                0x81 => Ok((u64::from_be_bytes(self.arr()?), false)),
                _ => err(at, format!("bad length byte 0x{:02x}", b)),
            },
        }
    }

    fn length(&mut self) -> Res<u64> {
        let at = self.pos;
        let (v, enc) = self.length_enc()?;
        if enc {
            return err(at, "encoded string where a length was expected");
        }
        Ok(v)
    }

    /// A collection size: every element takes at least one byte, so it cannot exceed what is left.
    fn count(&mut self, what: &str) -> Res<u64> {
        let at = self.pos;
        let n = self.length()?;
        if n > self.left() {
            return err(
                at,
                format!(
                    "{} count {} exceeds the {} bytes left",
                    what,
                    n,
                    self.left()
                ),
            );
        }
        Ok(n)
    }

    fn read_into(&mut self, n: u64, out: &mut Vec<u8>) -> Res<()> {
        self.have(n)?;
        // every byte is overwritten by the read: only grow (zeroed), never clear and refill
        let n = n as usize;
        if out.len() < n {
            out.resize(n, 0);
        } else {
            out.truncate(n);
        }
        self.read(out)
    }

    /// Read an RDB string (raw, int-encoded as decimal text, or LZF) into `out`.
    fn string_into(&mut self, out: &mut Vec<u8>) -> Res<()> {
        let at = self.pos;
        let (v, enc) = self.length_enc()?;
        if !enc {
            return self.read_into(v, out);
        }
        self.encoded_string(at, v, out)
    }

    /// Read an RDB string. In place (`Source::IN_PLACE`), a plain string stays where it is and its
    /// range in the file is returned; otherwise (streaming sources, int and LZF strings) it is read
    /// into `out` and the answer is None. `bytes_of!` turns either into the bytes.
    #[inline(always)]
    fn string_at(&mut self, out: &mut Vec<u8>) -> Res<Option<Range<usize>>> {
        if S::IN_PLACE {
            // the common case inline: a plain string with a 6- or 14-bit length, in the file
            let (p, map) = (self.pos as usize, mapped!(self));
            if let Some(&b) = map.get(p) {
                let (n, at) = match b >> 6 {
                    0 => ((b & 0x3F) as usize, p + 1),
                    1 if p + 1 < map.len() => {
                        ((((b & 0x3F) as usize) << 8) | map[p + 1] as usize, p + 2)
                    }
                    _ => (usize::MAX, 0),
                };
                if n <= map.len() - at {
                    self.pos = (at + n) as u64;
                    return Ok(Some(at..at + n));
                }
            }
        }
        self.any_string_at(out)
    }

    /// `string_at` for any string: every length encoding, int and LZF strings, streaming sources.
    #[inline(never)]
    fn any_string_at(&mut self, out: &mut Vec<u8>) -> Res<Option<Range<usize>>> {
        if !S::IN_PLACE {
            self.string_into(out)?;
            return Ok(None);
        }
        let at = self.pos;
        let (v, enc) = self.length_enc()?;
        if enc {
            self.encoded_string(at, v, out)?;
            return Ok(None);
        }
        Ok(Some(self.skip(v)?))
    }

    /// Read an RDB string and fold it into the digest.
    #[inline]
    fn string_field(&mut self, out: &mut Vec<u8>) -> Res<()> {
        match self.string_at(out)? {
            Some(r) => self.sum.field_in(mapped!(self), r),
            None => self.sum.field(out),
        }
        Ok(())
    }

    /// In place: step over `n` bytes of the file and return their range.
    fn skip(&mut self, n: u64) -> Res<Range<usize>> {
        self.have(n)?;
        let p = self.pos as usize;
        self.pos += n;
        Ok(p..p + n as usize)
    }

    /// A string with a special encoding `v` (int8/16/32 as decimal text, or LZF) into `out`.
    fn encoded_string(&mut self, at: u64, v: u64, out: &mut Vec<u8>) -> Res<()> {
        let num = match v {
            RDB_ENC_INT8 => i8::from_le_bytes(self.arr()?) as i64,
            RDB_ENC_INT16 => i16::from_le_bytes(self.arr()?) as i64,
            RDB_ENC_INT32 => i32::from_le_bytes(self.arr()?) as i64,
            RDB_ENC_LZF => {
                let clen = self.length()?;
                let ulen = self.length()?;
                if ulen > clen.saturating_mul(100).saturating_add(16) {
                    return err(
                        at,
                        format!(
                            "LZF uncompressed length {} implausible for {} compressed bytes",
                            ulen, clen
                        ),
                    );
                }
                if S::IN_PLACE {
                    let r = self.skip(clen)?;
                    return lzf_decompress(&mapped!(self)[r], ulen as usize, out, at);
                }
                let mut comp = std::mem::take(&mut self.lzf);
                self.read_into(clen, &mut comp)?;
                let r = lzf_decompress(&comp, ulen as usize, out, at);
                self.lzf = comp;
                return r;
            }
            _ => return err(at, format!("unknown string encoding {}", v)),
        };
        out.clear();
        out.extend_from_slice(itoa::Buffer::new().format(num).as_bytes());
        Ok(())
    }

    pub fn parse(mut self) -> Res<Summary> {
        let magic: [u8; 9] = self.arr()?;
        if &magic[..5] != b"REDIS" {
            return err(
                0,
                format!("bad magic {} (not an RDB file)", quoted(&magic[..5])),
            );
        }
        let ver = &magic[5..];
        let version = if ver.iter().all(|c| c.is_ascii_digit()) {
            std::str::from_utf8(ver).unwrap().parse::<u32>().unwrap()
        } else {
            0
        };
        if let Some(by) = newer_version(version) {
            return err(
                5,
                format!(
                    "RDB version {} ({}) is not supported: its format is newer than the Redis source this parser follows (RDB {})",
                    version, by, MAX_VERSION
                ),
            );
        }
        if !(1..=MAX_VERSION).contains(&version) {
            return err(5, format!("unsupported RDB version {}", quoted(ver)));
        }
        let mut db = 0u64;
        let mut expiry: Option<i64> = None;
        let mut key = Vec::new();
        loop {
            let at = self.pos;
            let op = self.u8()?;
            match op {
                RDB_OPCODE_EOF => break,
                RDB_OPCODE_SELECTDB => db = self.length()?,
                // seconds: a signed 32-bit value in Redis
                RDB_OPCODE_EXPIRETIME => {
                    expiry = Some(i32::from_le_bytes(self.arr()?) as i64 * 1000)
                }
                RDB_OPCODE_EXPIRETIME_MS => expiry = Some(i64::from_le_bytes(self.arr()?)),
                RDB_OPCODE_RESIZEDB => {
                    self.length()?;
                    self.length()?;
                }
                RDB_OPCODE_SLOT_INFO => {
                    // slot id, slot size, expires slot size: a hint, ignored
                    self.length()?;
                    self.length()?;
                    self.length()?;
                }
                RDB_OPCODE_AUX => {
                    self.string_into(&mut key)?;
                    self.string_into(&mut key)?;
                }
                RDB_OPCODE_FREQ => {
                    self.u8()?;
                }
                RDB_OPCODE_IDLE => {
                    self.length()?;
                }
                RDB_OPCODE_FUNCTION2 => self.string_into(&mut key)?, // the library source
                RDB_OPCODE_MODULE_AUX => {
                    self.length()?; // module id
                    let wat = self.pos;
                    if self.length()? != RDB_MODULE_OPCODE_UINT {
                        return err(wat, "MODULE_AUX: bad when opcode");
                    }
                    self.length()?; // when
                    self.module_value(&mut key)?;
                    self.sum.module_aux += 1;
                }
                RDB_OPCODE_FUNCTION_PRE_GA => {
                    return err(at, "pre-release FUNCTION opcode is unsupported")
                }
                RDB_TYPE_MODULE_PRE_GA => {
                    return err(
                        at,
                        "pre-release module value type 6 cannot be skipped without its module",
                    )
                }
                _ => {
                    let Some(logical) = logical_type(op) else {
                        return err(at, format!("unknown opcode or value type {}", op));
                    };
                    // the key: borrowed from the file when parsed in place
                    let r = self.string_at(&mut key)?;
                    self.sum.begin(db, logical, bytes_of!(self, r, key), expiry);
                    self.value(op, at)?;
                    expiry = None;
                    if self.crc_from_file && self.pos as usize - self.crc_upto >= FILE_CRC_STEP {
                        self.crc_behind();
                    }
                }
            }
        }
        if version >= 5 {
            let body_end = self.pos;
            let crc = match self.src.whole_file() {
                Some(file) => crc64(self.file_crc, &file[self.crc_upto..body_end as usize]),
                None => self.crc.value(),
            };
            let stored = u64::from_le_bytes(self.arr()?);
            if stored != 0 && stored != crc {
                return err(
                    body_end,
                    format!(
                        "checksum mismatch: file says {:016x}, computed {:016x}",
                        stored, crc
                    ),
                );
            }
        }
        // Bytes after the checksum are ignored, as Redis does (an AOF with an RDB preamble continues there).
        Ok(self.sum)
    }

    /// Skip a module's annotated value as redis-check-rdb does: [opcode][value] until EOF; return the count.
    fn module_value(&mut self, s: &mut Vec<u8>) -> Res<u64> {
        let mut n = 0;
        loop {
            let oat = self.pos;
            match self.length()? {
                RDB_MODULE_OPCODE_EOF => return Ok(n),
                RDB_MODULE_OPCODE_SINT | RDB_MODULE_OPCODE_UINT => {
                    self.length()?;
                }
                RDB_MODULE_OPCODE_FLOAT => {
                    self.arr::<4>()?;
                }
                RDB_MODULE_OPCODE_DOUBLE => {
                    self.arr::<8>()?;
                }
                RDB_MODULE_OPCODE_STRING => self.string_into(s)?,
                op => return err(oat, format!("unknown module value opcode {}", op)),
            }
            n += 1;
        }
    }

    /// Types 22 and 24: [min expire] count, then [ttl][field][value] each; the TTL enters the digest after
    /// the value as an absolute time in ms (empty when none).
    fn hash_metadata(&mut self, t: u8, s: &mut Vec<u8>) -> Res<u64> {
        let mut min_expire = 0u64;
        if t == RDB_TYPE_HASH_METADATA {
            let mat = self.pos;
            min_expire = u64::from_le_bytes(self.arr()?);
            if min_expire > EB_EXPIRE_TIME_MAX + 1 {
                return err(mat, format!("hash min expire {} out of range", min_expire));
            }
        }
        let n = self.count("hash")?;
        for _ in 0..n {
            let tat = self.pos;
            let mut expire_at = self.length()?;
            if t == RDB_TYPE_HASH_METADATA && expire_at != 0 {
                if expire_at > EB_EXPIRE_TIME_MAX + 1 {
                    return err(tat, format!("hash field expiry {} out of range", expire_at));
                }
                expire_at = expire_at + min_expire - 1; // stored relative to the min expire, + 1
            }
            if expire_at > EB_EXPIRE_TIME_MAX {
                return err(tat, format!("hash field expiry {} out of range", expire_at));
            }
            self.string_field(s)?;
            self.string_field(s)?;
            self.sum.field_ttl(expire_at);
        }
        Ok(n)
    }

    /// Types 23 and 25: [min expire] then a listpack of triples field, value, absolute TTL in ms (0 = none).
    fn hash_listpack_ex(&mut self, t: u8, at: u64, s: &mut Vec<u8>) -> Res<u64> {
        if t == RDB_TYPE_HASH_LISTPACK_EX {
            self.arr::<8>()?; // min expire: a hint, unused when loading (as in Redis)
        }
        let r = self.string_at(s)?;
        let blob = bytes_of!(self, r, s);
        let sum = &mut self.sum;
        let mut idx = 0u64;
        walk_listpack(blob, at, |e| {
            if idx % 3 < 2 {
                sum.elem(&e);
            } else {
                match e {
                    Elem::Int(v) if v >= 0 && v as u64 <= EB_EXPIRE_TIME_MAX => {
                        sum.field_ttl(v as u64)
                    }
                    Elem::Int(v) => {
                        return err(at, format!("hash field expiry {} out of range", v))
                    }
                    Elem::Str(_) => {
                        return err(at, "hash listpack with field TTLs: a TTL is not an integer")
                    }
                }
            }
            idx += 1;
            Ok(())
        })?;
        if !idx.is_multiple_of(3) {
            return err(at, "hash listpack with field TTLs: entries are not triples");
        }
        Ok(idx / 3)
    }

    /// A key's value, of type `t` (a known type: `logical_type(t)` is Some), after `Summary::begin`.
    fn value(&mut self, t: u8, at: u64) -> Res<()> {
        let mut s = std::mem::take(&mut self.value_buf); // reused across keys: no allocation per key
        let n: u64 = match t {
            RDB_TYPE_STRING => {
                self.string_field(&mut s)?;
                1
            }
            RDB_TYPE_LIST | RDB_TYPE_SET => {
                let n = self.count(if t == RDB_TYPE_LIST { "list" } else { "set" })?;
                for _ in 0..n {
                    self.string_field(&mut s)?;
                }
                n
            }
            RDB_TYPE_ZSET | RDB_TYPE_ZSET_2 => {
                let n = self.count("zset")?;
                for _ in 0..n {
                    self.string_field(&mut s)?;
                    let sat = self.pos;
                    let score = if t == RDB_TYPE_ZSET_2 {
                        f64::from_le_bytes(self.arr()?)
                    } else {
                        match self.u8()? {
                            253 => f64::NAN,
                            254 => f64::INFINITY,
                            255 => f64::NEG_INFINITY,
                            ln => {
                                // the score's text: borrowed in place, else read into `s`
                                let r = if S::IN_PLACE {
                                    Some(self.skip(ln as u64)?)
                                } else {
                                    self.read_into(ln as u64, &mut s)?;
                                    None
                                };
                                let text = bytes_of!(self, r, s);
                                match parse_score(text) {
                                    Some(x) => x,
                                    None => {
                                        return err(sat, format!("bad zset score {}", quoted(text)))
                                    }
                                }
                            }
                        }
                    };
                    self.sum.score_field(score);
                }
                n
            }
            RDB_TYPE_HASH => {
                let n = self.count("hash")?;
                for _ in 0..2 * n {
                    self.string_field(&mut s)?;
                }
                n
            }
            RDB_TYPE_HASH_ZIPMAP => {
                let r = self.string_at(&mut s)?;
                let blob = bytes_of!(self, r, s);
                let sum = &mut self.sum;
                walk_zipmap(blob, at, |e| {
                    sum.elem(&e);
                    Ok(())
                })? / 2
            }
            RDB_TYPE_LIST_ZIPLIST | RDB_TYPE_SET_INTSET | RDB_TYPE_SET_LISTPACK => {
                let r = self.string_at(&mut s)?;
                let blob = bytes_of!(self, r, s);
                let sum = &mut self.sum;
                let f = |e: Elem| {
                    sum.elem(&e);
                    Ok(())
                };
                match t {
                    RDB_TYPE_LIST_ZIPLIST => walk_ziplist(blob, at, f)?,
                    RDB_TYPE_SET_INTSET => walk_intset(blob, at, f)?,
                    _ => walk_listpack(blob, at, f)?,
                }
            }
            RDB_TYPE_ZSET_ZIPLIST | RDB_TYPE_ZSET_LISTPACK => {
                let r = self.string_at(&mut s)?;
                let blob = bytes_of!(self, r, s);
                let sum = &mut self.sum;
                let mut idx = 0u64;
                let f = |e: Elem| {
                    if idx.is_multiple_of(2) {
                        sum.elem(&e);
                    } else {
                        sum.score_field(elem_score(&e, at)?);
                    }
                    idx += 1;
                    Ok(())
                };
                let n = if t == RDB_TYPE_ZSET_ZIPLIST {
                    walk_ziplist(blob, at, f)?
                } else {
                    walk_listpack(blob, at, f)?
                };
                if n % 2 != 0 {
                    return err(at, "zset with an odd number of entries");
                }
                n / 2
            }
            RDB_TYPE_HASH_ZIPLIST | RDB_TYPE_HASH_LISTPACK => {
                let r = self.string_at(&mut s)?;
                let blob = bytes_of!(self, r, s);
                let sum = &mut self.sum;
                let f = |e: Elem| {
                    sum.elem(&e);
                    Ok(())
                };
                let n = if t == RDB_TYPE_HASH_ZIPLIST {
                    walk_ziplist(blob, at, f)?
                } else {
                    walk_listpack(blob, at, f)?
                };
                if n % 2 != 0 {
                    return err(at, "hash with an odd number of entries");
                }
                n / 2
            }
            RDB_TYPE_LIST_QUICKLIST => {
                let nodes = self.count("quicklist node")?;
                let mut n = 0;
                for _ in 0..nodes {
                    let r = self.string_at(&mut s)?;
                    let blob = bytes_of!(self, r, s);
                    let sum = &mut self.sum;
                    n += walk_ziplist(blob, at, |e| {
                        sum.elem(&e);
                        Ok(())
                    })?;
                }
                n
            }
            RDB_TYPE_LIST_QUICKLIST_2 => {
                let nodes = self.count("quicklist node")?;
                let mut n = 0;
                for _ in 0..nodes {
                    let cat = self.pos;
                    let container = self.length()?;
                    let r = self.string_at(&mut s)?;
                    let blob = bytes_of!(self, r, s);
                    match container {
                        QUICKLIST_NODE_CONTAINER_PLAIN => {
                            self.sum.field(blob);
                            n += 1;
                        }
                        QUICKLIST_NODE_CONTAINER_PACKED => {
                            let sum = &mut self.sum;
                            n += walk_listpack(blob, at, |e| {
                                sum.elem(&e);
                                Ok(())
                            })?;
                        }
                        _ => return err(cat, format!("bad quicklist container {}", container)),
                    }
                }
                n
            }
            RDB_TYPE_HASH_METADATA | RDB_TYPE_HASH_METADATA_PRE_GA => {
                self.hash_metadata(t, &mut s)?
            }
            RDB_TYPE_HASH_LISTPACK_EX | RDB_TYPE_HASH_LISTPACK_EX_PRE_GA => {
                self.hash_listpack_ex(t, at, &mut s)?
            }
            RDB_TYPE_MODULE_2 => {
                let id = self.length()?; // the module type id (name and encoding version)
                self.sum.uint_field(id);
                self.module_value(&mut s)?
            }
            RDB_TYPE_STREAM_LISTPACKS
            | RDB_TYPE_STREAM_LISTPACKS_2
            | RDB_TYPE_STREAM_LISTPACKS_3 => self.stream(t, &mut s)?,
            _ => unreachable!(),
        };
        self.sum.end(n);
        self.value_buf = s;
        Ok(())
    }

    /// Consume a stream (its structure, not its entries); return its recorded length.
    fn stream(&mut self, t: u8, s: &mut Vec<u8>) -> Res<u64> {
        for _ in 0..self.count("stream listpack")? {
            let kat = self.pos;
            self.string_into(s)?;
            if s.len() != 16 {
                return err(kat, "stream node key is not 16 bytes");
            }
            self.string_into(s)?;
        }
        let length = self.length()?;
        self.length()?;
        self.length()?;
        if t >= RDB_TYPE_STREAM_LISTPACKS_2 {
            for _ in 0..5 {
                self.length()?;
            }
        }
        for _ in 0..self.count("stream consumer group")? {
            self.string_into(s)?;
            self.length()?;
            self.length()?;
            if t >= RDB_TYPE_STREAM_LISTPACKS_2 {
                self.length()?;
            }
            for _ in 0..self.count("stream PEL")? {
                self.arr::<24>()?; // raw id, delivery time
                self.length()?;
            }
            for _ in 0..self.count("stream consumer")? {
                self.string_into(s)?;
                self.arr::<8>()?; // seen time
                if t >= RDB_TYPE_STREAM_LISTPACKS_3 {
                    self.arr::<8>()?; // active time
                }
                for _ in 0..self.count("consumer PEL")? {
                    self.arr::<16>()?;
                }
            }
        }
        Ok(length)
    }
}

/// The whole program: `prog FILE`; `open` builds the strategy's Source and says the file size.
pub fn run<S: Source>(open: impl FnOnce(&str) -> io::Result<(S, u64)>) -> ! {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 2 {
        eprintln!(
            "usage: {} FILE",
            args.first().map(String::as_str).unwrap_or("prog")
        );
        exit(2);
    }
    let path = &args[1];
    let t0 = Instant::now();
    let (src, size) = match open(path) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("rdb: {}: {}", path, e);
            exit(1);
        }
    };
    match Parser::new(src, size).parse() {
        Ok(sum) => {
            let ns = t0.elapsed().as_nanos();
            eprintln!(
                "iorace-result {{\"answer\": {}, \"inner_ns\": {}}}",
                sum.to_json(),
                ns
            );
            exit(0);
        }
        Err(e) => {
            eprintln!("rdb: {}: offset {}: {}", path, e.offset, e.msg);
            exit(1);
        }
    }
}
