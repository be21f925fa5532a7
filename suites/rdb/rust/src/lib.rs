// The RDB parser shared by every binary: generic over `Source`, the one call (read_exact) each strategy implements.
//! One RDB parser, generic over a small reader trait. Each binary in
//! `src/bin/` supplies a `Source` (how bytes come from the file) and calls
//! [`run`]. The summary it prints is specified in ../README.md.

use std::collections::BTreeMap;
use std::io;
use std::process::exit;
use std::time::Instant;

/// How the parser gets bytes: fill `buf` completely or fail.
pub trait Source {
    fn read_exact(&mut self, buf: &mut [u8]) -> io::Result<()>;
}

#[derive(Debug)]
pub struct RdbError {
    pub offset: u64,
    pub msg: String,
}

pub type Res<T> = Result<T, RdbError>;

fn err<T>(offset: u64, msg: impl Into<String>) -> Res<T> {
    Err(RdbError { offset, msg: msg.into() })
}

// --- CRC-64/Jones, reflected, init 0, xorout 0; slicing-by-8 -------------------------

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

pub fn crc64(mut crc: u64, data: &[u8]) -> u64 {
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

// --- the canonical summary ------------------------------------------------------------

pub const TYPE_NAMES: [&str; 6] = ["string", "list", "set", "zset", "hash", "stream"];
pub const T_STRING: usize = 0;
pub const T_LIST: usize = 1;
pub const T_SET: usize = 2;
pub const T_ZSET: usize = 3;
pub const T_HASH: usize = 4;
pub const T_STREAM: usize = 5;

/// Key counts plus the digest: CRC-64 over length-prefixed fields (see README.md).
#[derive(Default)]
pub struct Summary {
    pub keys: u64,
    pub expires: u64,
    pub dbs: BTreeMap<u64, u64>,
    pub types: [u64; 6],
    pub digest: u64,
}

fn fmt_i64(v: i64, buf: &mut [u8; 24]) -> &[u8] {
    let mut i = buf.len();
    let neg = v < 0;
    let mut u = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if neg {
        i -= 1;
        buf[i] = b'-';
    }
    &buf[i..]
}

fn fmt_u64(mut u: u64, buf: &mut [u8; 24]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    &buf[i..]
}

/// The 16 lowercase hex digits of the double's IEEE-754 bits (every NaN as 7ff8000000000000).
pub fn score_hex(x: f64) -> [u8; 16] {
    let bits = if x.is_nan() { 0x7ff8_0000_0000_0000 } else { x.to_bits() };
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        *o = b"0123456789abcdef"[((bits >> (60 - 4 * i)) & 0xF) as usize];
    }
    out
}

/// A zset score written as text (v1 scores, ziplist/listpack entries): a decimal float.
pub fn parse_score(s: &[u8]) -> Option<f64> {
    std::str::from_utf8(s).ok()?.parse::<f64>().ok()
}

impl Summary {
    #[inline]
    pub fn field(&mut self, b: &[u8]) {
        self.digest = crc64(self.digest, &(b.len() as u32).to_le_bytes());
        self.digest = crc64(self.digest, b);
    }
    pub fn int_field(&mut self, v: i64) {
        let mut buf = [0u8; 24];
        let s = fmt_i64(v, &mut buf);
        self.field(s);
    }
    pub fn uint_field(&mut self, v: u64) {
        let mut buf = [0u8; 24];
        let s = fmt_u64(v, &mut buf);
        self.field(s);
    }
    pub fn score_field(&mut self, x: f64) {
        self.field(&score_hex(x));
    }
    /// Start a key's record: db, logical type, key, expiry (ms, or empty).
    pub fn begin(&mut self, db: u64, t: usize, key: &[u8], expiry: Option<i64>) {
        self.uint_field(db);
        self.field(TYPE_NAMES[t].as_bytes());
        self.field(key);
        match expiry {
            Some(e) => self.int_field(e),
            None => self.field(b""),
        }
        self.keys += 1;
        self.types[t] += 1;
        *self.dbs.entry(db).or_insert(0) += 1;
        if expiry.is_some() {
            self.expires += 1;
        }
    }
    /// End a key's record with its element count.
    pub fn end(&mut self, n: u64) {
        self.uint_field(n);
    }
    pub fn to_json(&self) -> String {
        let dbs: Vec<String> = self.dbs.iter().map(|(d, n)| format!("\"{}\": {}", d, n)).collect();
        let types: Vec<String> = TYPE_NAMES.iter().zip(self.types.iter()).map(|(t, n)| format!("\"{}\": {}", t, n)).collect();
        format!(
            "{{\"keys\": {}, \"expires\": {}, \"dbs\": {{{}}}, \"types\": {{{}}}, \"digest\": \"{:016x}\"}}",
            self.keys,
            self.expires,
            dbs.join(", "),
            types.join(", "),
            self.digest
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
            None => err(at, format!("bad zset score {:?}", String::from_utf8_lossy(&s[..s.len().min(32)]))),
        },
    }
}

fn need(blob: &[u8], i: usize, n: usize, what: &str, at: u64) -> Res<()> {
    if i.checked_add(n).map_or(true, |e| e > blob.len()) {
        return err(at, format!("corrupt {} (entry past its end)", what));
    }
    Ok(())
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

pub fn walk_ziplist(blob: &[u8], at: u64, mut f: impl FnMut(Elem) -> Res<()>) -> Res<u64> {
    if blob.len() < 11 || le_u32(blob, 0) as usize != blob.len() {
        return err(at, "corrupt ziplist header");
    }
    let mut i = 10;
    let mut n = 0;
    loop {
        need(blob, i, 1, "ziplist", at)?;
        let b = blob[i];
        if b == 0xFF {
            break;
        }
        i += if b == 0xFE { 5 } else { 1 };
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

pub fn walk_listpack(blob: &[u8], at: u64, mut f: impl FnMut(Elem) -> Res<()>) -> Res<u64> {
    if blob.len() < 7 || le_u32(blob, 0) as usize != blob.len() {
        return err(at, "corrupt listpack header");
    }
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
        i += elen + backlen_size(elen);
    }
    if i != blob.len() - 1 {
        return err(at, "corrupt listpack (bytes after its end marker)");
    }
    Ok(n)
}

pub fn walk_zipmap(blob: &[u8], at: u64, mut f: impl FnMut(Elem) -> Res<()>) -> Res<u64> {
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
    Ok(n)
}

pub fn walk_intset(blob: &[u8], at: u64, mut f: impl FnMut(Elem) -> Res<()>) -> Res<u64> {
    if blob.len() < 8 {
        return err(at, "corrupt intset header");
    }
    let enc = le_u32(blob, 0) as usize;
    let n = le_u32(blob, 4) as usize;
    if !(enc == 2 || enc == 4 || enc == 8) || blob.len() as u64 != 8 + n as u64 * enc as u64 {
        return err(at, format!("corrupt intset (encoding {}, {} entries, {} bytes)", enc, n, blob.len()));
    }
    for k in 0..n {
        f(Elem::Int(le_int(blob, 8 + k * enc, enc)))?;
    }
    Ok(n as u64)
}

pub fn lzf_decompress(src: &[u8], ulen: usize, out: &mut Vec<u8>, at: u64) -> Res<()> {
    out.clear();
    out.reserve(ulen);
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
        return err(at, format!("LZF data decompressed to {} bytes, header says {}", out.len(), ulen));
    }
    Ok(())
}

// --- the parser ------------------------------------------------------------------------

pub const MAX_VERSION: u32 = 12;

pub struct Parser<S: Source> {
    src: S,
    pos: u64,
    size: u64,
    crc: u64,
    pub sum: Summary,
    lzf: Vec<u8>,
}

impl<S: Source> Parser<S> {
    pub fn new(src: S, size: u64) -> Self {
        Parser { src, pos: 0, size, crc: 0, sum: Summary::default(), lzf: Vec::new() }
    }

    fn left(&self) -> u64 {
        self.size - self.pos
    }

    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> Res<()> {
        let n = buf.len() as u64;
        if n > self.left() {
            return err(self.pos, format!("need {} bytes but only {} remain (truncated file or bad length)", n, self.left()));
        }
        if let Err(e) = self.src.read_exact(buf) {
            return err(self.pos, format!("read failed: {}", e));
        }
        self.crc = crc64(self.crc, buf);
        self.pos += n;
        Ok(())
    }

    #[inline]
    fn u8(&mut self) -> Res<u8> {
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
            return err(at, format!("{} count {} exceeds the {} bytes left", what, n, self.left()));
        }
        Ok(n)
    }

    fn read_into(&mut self, n: u64, out: &mut Vec<u8>) -> Res<()> {
        if n > self.left() {
            return err(self.pos, format!("need {} bytes but only {} remain (truncated file or bad length)", n, self.left()));
        }
        out.clear();
        out.resize(n as usize, 0);
        self.read(out)
    }

    /// Read an RDB string (raw, int-encoded as decimal text, or LZF) into `out`.
    fn string_into(&mut self, out: &mut Vec<u8>) -> Res<()> {
        let at = self.pos;
        let (v, enc) = self.length_enc()?;
        if !enc {
            return self.read_into(v, out);
        }
        let num = match v {
            0 => i8::from_le_bytes(self.arr()?) as i64,
            1 => i16::from_le_bytes(self.arr()?) as i64,
            2 => i32::from_le_bytes(self.arr()?) as i64,
            3 => {
                let clen = self.length()?;
                let ulen = self.length()?;
                if ulen > clen.saturating_mul(100).saturating_add(16) {
                    return err(at, format!("LZF uncompressed length {} implausible for {} compressed bytes", ulen, clen));
                }
                let mut comp = std::mem::take(&mut self.lzf);
                self.read_into(clen, &mut comp)?;
                let r = lzf_decompress(&comp, ulen as usize, out, at);
                self.lzf = comp;
                return r;
            }
            _ => return err(at, format!("unknown string encoding {}", v)),
        };
        let mut buf = [0u8; 24];
        out.clear();
        out.extend_from_slice(fmt_i64(num, &mut buf));
        Ok(())
    }

    pub fn parse(mut self) -> Res<Summary> {
        let magic: [u8; 9] = self.arr()?;
        if &magic[..5] != b"REDIS" {
            return err(0, format!("bad magic {:?} (not an RDB file)", String::from_utf8_lossy(&magic[..5])));
        }
        let ver = &magic[5..];
        let version = if ver.iter().all(|c| c.is_ascii_digit()) {
            std::str::from_utf8(ver).unwrap().parse::<u32>().unwrap()
        } else {
            0
        };
        if !(1..=MAX_VERSION).contains(&version) {
            return err(5, format!("unsupported RDB version {:?}", String::from_utf8_lossy(ver)));
        }
        let mut db = 0u64;
        let mut expiry: Option<i64> = None;
        let mut key = Vec::new();
        loop {
            let at = self.pos;
            let op = self.u8()?;
            match op {
                0xFF => break,
                0xFE => db = self.length()?,
                0xFD => expiry = Some(u32::from_le_bytes(self.arr()?) as i64 * 1000),
                0xFC => expiry = Some(i64::from_le_bytes(self.arr()?)),
                0xFB => {
                    self.length()?;
                    self.length()?;
                }
                0xFA => {
                    self.string_into(&mut key)?;
                    self.string_into(&mut key)?;
                }
                0xF9 => {
                    self.u8()?;
                }
                0xF8 => {
                    self.length()?;
                }
                0xF5 => self.string_into(&mut key)?, // FUNCTION2: the library source
                0xF7 => return err(at, "MODULE_AUX data is unsupported (needs the module)"),
                0xF6 => return err(at, "pre-release FUNCTION opcode is unsupported"),
                6 | 7 => return err(at, format!("module value type {} is unsupported (needs the module)", op)),
                0..=5 | 9..=21 => {
                    self.string_into(&mut key)?;
                    self.value(op, at, db, &key, expiry)?;
                    expiry = None;
                }
                _ => return err(at, format!("unknown opcode or value type {}", op)),
            }
        }
        if version >= 5 {
            let body_end = self.pos;
            let crc = self.crc;
            let stored = u64::from_le_bytes(self.arr()?);
            if stored != 0 && stored != crc {
                return err(body_end, format!("checksum mismatch: file says {:016x}, computed {:016x}", stored, crc));
            }
        }
        Ok(self.sum)
    }

    fn value(&mut self, t: u8, at: u64, db: u64, key: &[u8], expiry: Option<i64>) -> Res<()> {
        let logical = match t {
            0 => T_STRING,
            1 | 10 | 14 | 18 => T_LIST,
            2 | 11 | 20 => T_SET,
            3 | 5 | 12 | 17 => T_ZSET,
            4 | 9 | 13 | 16 => T_HASH,
            15 | 19 | 21 => T_STREAM,
            _ => return err(at, format!("unknown value type {}", t)),
        };
        self.sum.begin(db, logical, key, expiry);
        let mut s = Vec::new();
        let n: u64 = match t {
            0 => {
                self.string_into(&mut s)?;
                self.sum.field(&s);
                1
            }
            1 | 2 => {
                let n = self.count(if t == 1 { "list" } else { "set" })?;
                for _ in 0..n {
                    self.string_into(&mut s)?;
                    self.sum.field(&s);
                }
                n
            }
            3 | 5 => {
                let n = self.count("zset")?;
                for _ in 0..n {
                    self.string_into(&mut s)?;
                    self.sum.field(&s);
                    let sat = self.pos;
                    let score = if t == 5 {
                        f64::from_le_bytes(self.arr()?)
                    } else {
                        match self.u8()? {
                            253 => f64::NAN,
                            254 => f64::INFINITY,
                            255 => f64::NEG_INFINITY,
                            ln => {
                                self.read_into(ln as u64, &mut s)?;
                                match parse_score(&s) {
                                    Some(x) => x,
                                    None => return err(sat, format!("bad zset score {:?}", String::from_utf8_lossy(&s))),
                                }
                            }
                        }
                    };
                    self.sum.score_field(score);
                }
                n
            }
            4 => {
                let n = self.count("hash")?;
                for _ in 0..2 * n {
                    self.string_into(&mut s)?;
                    self.sum.field(&s);
                }
                n
            }
            9 => {
                self.string_into(&mut s)?;
                let sum = &mut self.sum;
                walk_zipmap(&s, at, |e| Ok(sum.elem(&e)))? / 2
            }
            10 | 11 | 20 => {
                self.string_into(&mut s)?;
                let sum = &mut self.sum;
                let f = |e: Elem| Ok(sum.elem(&e));
                match t {
                    10 => walk_ziplist(&s, at, f)?,
                    11 => walk_intset(&s, at, f)?,
                    _ => walk_listpack(&s, at, f)?,
                }
            }
            12 | 17 => {
                self.string_into(&mut s)?;
                let sum = &mut self.sum;
                let mut idx = 0u64;
                let f = |e: Elem| {
                    if idx % 2 == 0 {
                        sum.elem(&e);
                    } else {
                        sum.score_field(elem_score(&e, at)?);
                    }
                    idx += 1;
                    Ok(())
                };
                let n = if t == 12 { walk_ziplist(&s, at, f)? } else { walk_listpack(&s, at, f)? };
                if n % 2 != 0 {
                    return err(at, "zset with an odd number of entries");
                }
                n / 2
            }
            13 | 16 => {
                self.string_into(&mut s)?;
                let sum = &mut self.sum;
                let f = |e: Elem| Ok(sum.elem(&e));
                let n = if t == 13 { walk_ziplist(&s, at, f)? } else { walk_listpack(&s, at, f)? };
                if n % 2 != 0 {
                    return err(at, "hash with an odd number of entries");
                }
                n / 2
            }
            14 => {
                let nodes = self.count("quicklist node")?;
                let mut n = 0;
                for _ in 0..nodes {
                    self.string_into(&mut s)?;
                    let sum = &mut self.sum;
                    n += walk_ziplist(&s, at, |e| Ok(sum.elem(&e)))?;
                }
                n
            }
            18 => {
                let nodes = self.count("quicklist node")?;
                let mut n = 0;
                for _ in 0..nodes {
                    let cat = self.pos;
                    let container = self.length()?;
                    self.string_into(&mut s)?;
                    match container {
                        1 => {
                            self.sum.field(&s);
                            n += 1;
                        }
                        2 => {
                            let sum = &mut self.sum;
                            n += walk_listpack(&s, at, |e| Ok(sum.elem(&e)))?;
                        }
                        _ => return err(cat, format!("bad quicklist container {}", container)),
                    }
                }
                n
            }
            15 | 19 | 21 => self.stream(t, &mut s)?,
            _ => unreachable!(),
        };
        self.sum.end(n);
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
        if t >= 19 {
            for _ in 0..5 {
                self.length()?;
            }
        }
        for _ in 0..self.count("stream consumer group")? {
            self.string_into(s)?;
            self.length()?;
            self.length()?;
            if t >= 19 {
                self.length()?;
            }
            for _ in 0..self.count("stream PEL")? {
                self.arr::<24>()?; // raw id, delivery time
                self.length()?;
            }
            for _ in 0..self.count("stream consumer")? {
                self.string_into(s)?;
                self.arr::<8>()?; // seen time
                if t >= 21 {
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
        eprintln!("usage: {} FILE", args.first().map(String::as_str).unwrap_or("prog"));
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
            eprintln!("iorace-result {{\"answer\": {}, \"inner_ns\": {}}}", sum.to_json(), ns);
            exit(0);
        }
        Err(e) => {
            eprintln!("rdb: {}: offset {}: {}", path, e.offset, e.msg);
            exit(1);
        }
    }
}
