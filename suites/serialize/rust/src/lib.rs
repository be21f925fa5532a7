//! Shared by every Rust serialize binary: the record, Cerealed's wire format over a byte sink or
//! source (each binary picks the sink/source type: that is its design), the timed loops, the
//! allocation counter and the result line.

use std::alloc::{GlobalAlloc, Layout, System};
use std::process;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The suite's record; field order = wire order. `name` borrows the bytes it was decoded from,
/// so decoding allocates nothing (as Cerealed's Decerealiser, which slices the caller's array).
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    pub id: u32,
    pub kind: u8,
    pub delta: i16,
    pub stamp: i64,
    pub active: bool,
    pub ratio: f32,
    pub value: f64,
    pub dims: [u16; 4],
    pub name: &'a [u8],
}

// ---- writing: Cerealed's format over any byte sink -------------------------------------------

/// Where the serializer puts bytes, one at a time (Cerealed's `grainUByte` / output range `put`).
pub trait Sink {
    fn put(&mut self, byte: u8);
    fn bytes(&self) -> &[u8];
}

impl Sink for Vec<u8> {
    #[inline]
    fn put(&mut self, byte: u8) {
        self.push(byte);
    }
    fn bytes(&self) -> &[u8] {
        self
    }
}

impl<A: smallvec::Array<Item = u8>> Sink for smallvec::SmallVec<A> {
    #[inline]
    fn put(&mut self, byte: u8) {
        self.push(byte);
    }
    fn bytes(&self) -> &[u8] {
        self
    }
}

/// Big-endian, byte by byte. With `S = dyn Sink` every byte is a virtual call; with a concrete
/// sink the calls are inlined (the generic `grain` of Cerealed v0.5.0).
#[inline]
fn put_be<S: Sink + ?Sized, const N: usize>(sink: &mut S, bytes: [u8; N]) {
    for b in bytes {
        sink.put(b);
    }
}

/// Writes one record in Cerealed's format: 38 + name.len() bytes.
#[inline]
pub fn cerealise<S: Sink + ?Sized>(sink: &mut S, r: &Record) {
    put_be(sink, r.id.to_be_bytes());
    sink.put(r.kind);
    put_be(sink, r.delta.to_be_bytes());
    put_be(sink, r.stamp.to_be_bytes());
    sink.put(u8::from(r.active));
    put_be(sink, r.ratio.to_bits().to_be_bytes());
    put_be(sink, r.value.to_bits().to_be_bytes());
    for d in r.dims {
        put_be(sink, d.to_be_bytes());
    }
    let len =
        u16::try_from(r.name.len()).unwrap_or_else(|_| fail("a name longer than 65535 bytes", 1));
    put_be(sink, len.to_be_bytes());
    for &b in r.name {
        sink.put(b);
    }
}

// ---- reading ---------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy)]
pub enum DecodeError {
    Truncated,
    BadBool(u8),
}

/// Where the deserializer takes bytes from, one at a time (Cerealed's `grainUByte` when reading).
pub trait Source<'a> {
    fn take(&mut self) -> Result<u8, DecodeError>;
    fn take_slice(&mut self, len: usize) -> Result<&'a [u8], DecodeError>;
    /// Bytes consumed so far.
    fn consumed(&self) -> usize;
}

/// Reads the caller's slice at a cursor; allocates nothing.
pub struct SliceSource<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> SliceSource<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        SliceSource { bytes, pos: 0 }
    }
}

impl<'a> Source<'a> for SliceSource<'a> {
    #[inline]
    fn take(&mut self) -> Result<u8, DecodeError> {
        let b = *self.bytes.get(self.pos).ok_or(DecodeError::Truncated)?;
        self.pos += 1;
        Ok(b)
    }
    #[inline]
    fn take_slice(&mut self, len: usize) -> Result<&'a [u8], DecodeError> {
        let s = self
            .bytes
            .get(self.pos..self.pos + len)
            .ok_or(DecodeError::Truncated)?;
        self.pos += len;
        Ok(s)
    }
    fn consumed(&self) -> usize {
        self.pos
    }
}

#[inline]
fn take_be<'a, S: Source<'a> + ?Sized, const N: usize>(
    src: &mut S,
) -> Result<[u8; N], DecodeError> {
    let mut bytes = [0u8; N];
    for b in &mut bytes {
        *b = src.take()?;
    }
    Ok(bytes)
}

/// Reads one record in Cerealed's format.
#[inline]
pub fn decerealise<'a, S: Source<'a> + ?Sized>(src: &mut S) -> Result<Record<'a>, DecodeError> {
    let id = u32::from_be_bytes(take_be(src)?);
    let kind = src.take()?;
    let delta = i16::from_be_bytes(take_be(src)?);
    let stamp = i64::from_be_bytes(take_be(src)?);
    let active = match src.take()? {
        0 => false,
        1 => true,
        b => return Err(DecodeError::BadBool(b)),
    };
    let ratio = f32::from_bits(u32::from_be_bytes(take_be(src)?));
    let value = f64::from_bits(u64::from_be_bytes(take_be(src)?));
    let mut dims = [0u16; 4];
    for d in &mut dims {
        *d = u16::from_be_bytes(take_be(src)?);
    }
    let len = u16::from_be_bytes(take_be(src)?);
    let name = src.take_slice(usize::from(len))?;
    Ok(Record {
        id,
        kind,
        delta,
        stamp,
        active,
        ratio,
        value,
        dims,
        name,
    })
}

/// The deser/roundtrip checksum of the spec: every field, the name's length and bytes included.
#[inline]
pub fn fold(checksum: u64, r: &Record) -> u64 {
    let mut s = u64::from(r.id)
        .wrapping_add(u64::from(r.kind))
        .wrapping_add(i64::from(r.delta) as u64)
        .wrapping_add(r.stamp as u64)
        .wrapping_add(u64::from(r.active))
        .wrapping_add(u64::from(r.ratio.to_bits()))
        .wrapping_add(r.value.to_bits());
    for d in r.dims {
        s = s.wrapping_add(u64::from(d));
    }
    s = s.wrapping_add(r.name.len() as u64);
    for &b in r.name {
        s = s.wrapping_add(u64::from(b));
    }
    checksum.wrapping_mul(1_000_003).wrapping_add(s)
}

// ---- the job ---------------------------------------------------------------------------------

/// One line on stderr, then exit (status 2 for a usage error, 1 otherwise). No panic, no backtrace.
pub fn fail(message: &str, status: i32) -> ! {
    eprintln!("serialize: {message}");
    process::exit(status);
}

/// `prog FILE OPS`: the file's bytes, its records (decoded once, untimed: this validates it) and
/// the number of operations to time.
pub struct Job {
    pub data: Vec<u8>,
    pub ops: u64,
}

impl Job {
    pub fn from_args() -> Job {
        let args: Vec<String> = std::env::args().collect();
        if args.len() != 3 {
            let program = args.first().map(String::as_str).unwrap_or("serialize");
            fail(&format!("usage: {program} FILE OPS"), 2);
        }
        let ops = match args[2].parse::<u64>() {
            Ok(n) if n > 0 => n,
            _ => fail(
                &format!("OPS must be a positive integer, not '{}'", args[2]),
                2,
            ),
        };
        let data =
            std::fs::read(&args[1]).unwrap_or_else(|e| fail(&format!("{}: {e}", args[1]), 1));
        Job { data, ops }
    }

    /// Every record of the file, with the plain (generic) decoder; one line and exit 1 if the
    /// file is empty, truncated or corrupt.
    pub fn records(&self) -> Vec<Record<'_>> {
        if self.data.is_empty() {
            fail("empty file: no records", 1);
        }
        let mut records = Vec::new();
        let mut pos = 0;
        while pos < self.data.len() {
            let mut src = SliceSource::new(&self.data[pos..]);
            match decerealise(&mut src) {
                Ok(r) => records.push(r),
                Err(e) => fail(&corrupt(records.len(), pos, e), 1),
            }
            pos += src.consumed();
        }
        records
    }
}

fn corrupt(index: usize, pos: usize, e: DecodeError) -> String {
    format!("record {index} at byte {pos}: {}", describe(e))
}

fn describe(e: DecodeError) -> String {
    match e {
        DecodeError::Truncated => "truncated".to_string(),
        DecodeError::BadBool(b) => format!("corrupt: bool byte {b} (not 0 or 1)"),
    }
}

// ---- allocation counter ----------------------------------------------------------------------

/// Counts the bytes every allocation asks for (a grow by realloc counts its new size, as a new
/// block plus a copy would). The programs are single-threaded: a relaxed load and store, no
/// locked instruction, so counting costs about nothing.
struct CountingAlloc;

static ALLOCATED: AtomicU64 = AtomicU64::new(0);

#[inline]
fn count(bytes: usize) {
    ALLOCATED.store(ALLOCATED.load(Relaxed) + bytes as u64, Relaxed);
}

// SAFETY: forwards every call to the system allocator unchanged.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// The loop's time and the bytes it allocated.
struct Timer {
    start: Instant,
    allocated: u64,
}

impl Timer {
    fn start() -> Timer {
        Timer {
            allocated: ALLOCATED.load(Relaxed),
            start: Instant::now(),
        }
    }
    fn stop(self) -> (Duration, u64) {
        let inner = self.start.elapsed();
        (inner, ALLOCATED.load(Relaxed) - self.allocated)
    }
}

// ---- the timed loops -------------------------------------------------------------------------

/// What a ser loop does with each output: its length, one byte at a varying position, and an
/// FNV-1a hash of every 64th output.
#[derive(Default)]
pub struct Tally {
    bytes: u64,
    xor: u8,
    hash: Option<u64>,
}

impl Tally {
    // `n % 64 == 0` kept: in the timed loop, and is_multiple_of needs Rust 1.87 (the dependencies, 1.85).
    #[allow(clippy::manual_is_multiple_of)]
    #[inline]
    pub fn consume(&mut self, n: u64, out: &[u8]) {
        self.bytes += out.len() as u64;
        self.xor ^= out[(n & 31) as usize];
        if n % 64 == 0 {
            let mut h = self.hash.unwrap_or(0xcbf2_9ce4_8422_2325);
            for &b in out {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
            self.hash = Some(h);
        }
    }
}

/// Times `ops` serializations: op n serializes record n mod K with `serialize(record, n, tally)`,
/// which hands its output to `tally.consume(n, bytes)`.
pub fn time_ser(job: &Job, mut serialize: impl FnMut(&Record, u64, &mut Tally)) {
    let records = job.records();
    let mut tally = Tally::default();
    let mut i = 0;
    let timer = Timer::start();
    for n in 0..job.ops {
        serialize(&records[i], n, &mut tally);
        i += 1;
        if i == records.len() {
            i = 0;
        }
    }
    let (inner, allocated) = timer.stop();
    let digest = tally.hash.unwrap_or(0xcbf2_9ce4_8422_2325);
    let answer = format!(
        "{{\"ops\": {}, \"bytes\": {}, \"xor\": {}, \"digest\": \"{digest:016x}\"}}",
        job.ops, tally.bytes, tally.xor
    );
    report(job, &answer, inner, allocated, &[]);
}

/// Times `ops` deserializations walking the file record by record (back to the start after the
/// last one): `decode(bytes from here)` returns the record and the number of bytes it used.
pub fn time_deser<'a>(
    job: &'a Job,
    mut decode: impl FnMut(&'a [u8]) -> Result<(Record<'a>, usize), DecodeError>,
) {
    job.records(); // validates the whole file first, untimed
    let mut checksum = 0u64;
    let mut pos = 0;
    let timer = Timer::start();
    for _ in 0..job.ops {
        let (record, used) = decode(&job.data[pos..])
            .unwrap_or_else(|e| fail(&format!("byte {pos}: {}", describe(e)), 1));
        checksum = fold(checksum, &record);
        pos += used;
        if pos == job.data.len() {
            pos = 0;
        }
    }
    let (inner, allocated) = timer.stop();
    let answer = format!("{{\"ops\": {}, \"checksum\": {checksum}}}", job.ops);
    report(job, &answer, inner, allocated, &[]);
}

/// Times `ops` round trips: op n hands record n mod K (as a serde user's struct) to `roundtrip`,
/// which encodes it with a library, decodes it back, folds the decoded record into the checksum
/// and returns the size of the library's encoding.
pub fn time_roundtrip(job: &Job, mut roundtrip: impl FnMut(&OwnedRecord, &mut u64) -> usize) {
    let records: Vec<OwnedRecord> = job.records().iter().map(OwnedRecord::from).collect();
    let (mut checksum, mut wire) = (0u64, 0u64);
    let mut i = 0;
    let timer = Timer::start();
    for _ in 0..job.ops {
        wire += roundtrip(&records[i], &mut checksum) as u64;
        i += 1;
        if i == records.len() {
            i = 0;
        }
    }
    let (inner, allocated) = timer.stop();
    let answer = format!("{{\"ops\": {}, \"checksum\": {checksum}}}", job.ops);
    report(
        job,
        &answer,
        inner,
        allocated,
        &[("wire_bytes_per_op", wire as f64 / job.ops as f64)],
    );
}

/// The human line on stdout, then the machine line, last, on stderr.
fn report(job: &Job, answer: &str, inner: Duration, allocated: u64, extra: &[(&str, f64)]) {
    let per_op = allocated as f64 / job.ops as f64;
    let mut extras = format!("\"alloc_bytes_per_op\": {per_op}");
    for (name, value) in extra {
        extras += &format!(", \"{name}\": {value}");
    }
    println!(
        "{} ops in {:.1} ms ({:.1} ns/op, {per_op:.1} bytes allocated/op): {answer}",
        job.ops,
        inner.as_secs_f64() * 1e3,
        inner.as_nanos() as f64 / job.ops as f64
    );
    eprintln!(
        "iorace-result {{\"answer\": {answer}, \"inner_ns\": {}, \"extra\": {{{extras}}}}}",
        inner.as_nanos()
    );
}

// ---- the serde peers -------------------------------------------------------------------------

/// The record as a library user writes it (an owned String name), with serde's derives and
/// bitcode's own; the peers encode and decode it with their own formats.
#[derive(serde::Serialize, serde::Deserialize, bitcode::Encode, bitcode::Decode, Clone, Debug)]
pub struct OwnedRecord {
    pub id: u32,
    pub kind: u8,
    pub delta: i16,
    pub stamp: i64,
    pub active: bool,
    pub ratio: f32,
    pub value: f64,
    pub dims: [u16; 4],
    pub name: String,
}

impl OwnedRecord {
    /// Built once, untimed, from the file's record (one line and exit 1 if its name is not UTF-8).
    pub fn from(r: &Record) -> OwnedRecord {
        let name = std::str::from_utf8(r.name)
            .unwrap_or_else(|_| fail("a name is not UTF-8 (serde peers carry it as a String)", 1));
        OwnedRecord {
            id: r.id,
            kind: r.kind,
            delta: r.delta,
            stamp: r.stamp,
            active: r.active,
            ratio: r.ratio,
            value: r.value,
            dims: r.dims,
            name: name.to_string(),
        }
    }

    pub fn view(&self) -> Record<'_> {
        Record {
            id: self.id,
            kind: self.kind,
            delta: self.delta,
            stamp: self.stamp,
            active: self.active,
            ratio: self.ratio,
            value: self.value,
            dims: self.dims,
            name: self.name.as_bytes(),
        }
    }
}
