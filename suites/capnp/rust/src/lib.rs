//! Shared by the capnp suite's Rust programs: the generated schema code, the upstream benchmark's random
//! numbers, the command line, the iterations file, the client/server process pair of the pipe configs, the
//! clock and the result line. The Cap'n Proto cases and drivers are in `capnp_bench`.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

capnp::generated_code!(pub mod carsales_capnp);
capnp::generated_code!(pub mod catrank_capnp);
capnp::generated_code!(pub mod eval_capnp);

/// The protobuf twins of the schemas (prost).
pub mod pb {
    include!(concat!(env!("OUT_DIR"), "/benchpb.rs"));
}

pub mod capnp_bench;

// ---- random numbers: the upstream benchmark's 128-bit xorshift, fixed seeds ---------------------------

pub struct FastRand {
    x: u32,
    y: u32,
    z: u32,
    w: u32,
}

impl Default for FastRand {
    fn default() -> Self {
        Self {
            x: 0x1d2acd47,
            y: 0x58ca3e14,
            z: 0xf563f232,
            w: 0x0bc76199,
        }
    }
}

impl FastRand {
    // Named as the C++ peer's FastRand::next (cpp/common.hpp); an endless generator, not an Iterator.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn next(&mut self) -> u32 {
        let t = self.x ^ (self.x << 11);
        self.x = self.y;
        self.y = self.z;
        self.z = self.w;
        self.w = self.w ^ (self.w >> 19) ^ t ^ (t >> 8);
        self.w
    }

    /// fastRand(range): next % range.
    #[inline]
    pub fn below(&mut self, range: u32) -> u32 {
        self.next() % range
    }

    /// fastRand(2) as a bool.
    #[inline]
    pub fn coin(&mut self) -> bool {
        self.next() % 2 == 1
    }

    /// fastRandDouble(range): next * range / UINT32_MAX.
    #[inline]
    pub fn real(&mut self, range: f64) -> f64 {
        self.next() as f64 * range / u32::MAX as f64
    }
}

/// int32 division as upstream: i32::MAX for a zero divisor and for i32::MIN / -1.
#[inline]
pub fn div32(a: i32, b: i32) -> i32 {
    if b == 0 || (a == i32::MIN && b == -1) {
        i32::MAX
    } else {
        a / b
    }
}

/// int32 remainder as upstream: i32::MAX for a zero divisor and for i32::MIN % -1.
#[inline]
pub fn mod32(a: i32, b: i32) -> i32 {
    if b == 0 || (a == i32::MIN && b == -1) {
        i32::MAX
    } else {
        a % b
    }
}

pub const WORDS: [&str; 13] = [
    "foo ", "bar ", "baz ", "qux ", "quux ", "corge ", "grault ", "garply ", "waldo ", "fred ",
    "plugh ", "xyzzy ", "thud ",
];
pub const URL_PREFIX: &str = "http://example.com/";
pub const MAKES: [&str; 5] = ["Toyota", "GM", "Ford", "Honda", "Tesla"];
pub const MODELS: [&str; 6] = ["Camry", "Prius", "Volt", "Accord", "Leaf", "Model S"];

// ---- errors -------------------------------------------------------------------------------------------

/// Any failure of a run: one line for stderr.
#[derive(Debug)]
pub struct Error(pub String);

impl From<capnp::Error> for Error {
    fn from(e: capnp::Error) -> Self {
        Error(e.to_string())
    }
}

impl From<capnp::NotInSchema> for Error {
    fn from(e: capnp::NotInSchema) -> Self {
        Error(e.to_string())
    }
}

impl From<std::str::Utf8Error> for Error {
    fn from(e: std::str::Utf8Error) -> Self {
        Error(format!("text is not UTF-8: {e}"))
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error(e.to_string())
    }
}

impl From<prost::DecodeError> for Error {
    fn from(e: prost::DecodeError) -> Self {
        Error(format!("protobuf decode: {e}"))
    }
}

impl From<prost::EncodeError> for Error {
    fn from(e: prost::EncodeError) -> Self {
        Error(format!("protobuf encode: {e}"))
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// One line on stderr, exit 1.
pub fn die(prog: &str, msg: &str) -> ! {
    eprintln!("{prog}: {}", msg.replace('\n', " "));
    std::process::exit(1)
}

// ---- command line: CASE CONFIG ITERS_FILE (or, for the pipe's server process, --serve CASE CONFIG N) -----

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Case {
    CarSales,
    CatRank,
    Eval,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Object,
    Bytes,
    Pipe,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub case: Case,
    pub mode: Mode,
    pub packed: bool,
    pub reuse: bool,
    pub iters: u64,
    pub case_name: String,
    pub config_name: String,
    /// true in the server process that a pipe config spawns
    pub serve: bool,
}

pub const MAX_ITERATIONS: u64 = 1_000_000_000_000;

pub fn read_iterations(path: &str, case: &str) -> std::result::Result<u64, String> {
    let text = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let text = String::from_utf8_lossy(&text);
    let mut found = None;
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() || fields[0].starts_with('#') {
            continue;
        }
        if fields.len() != 2 {
            return Err(format!("{path}: expected lines `CASE COUNT`, got: {line}"));
        }
        if fields[0] != case {
            continue;
        }
        let n: u64 = fields[1]
            .parse()
            .ok()
            .filter(|n| *n <= MAX_ITERATIONS && fields[1].bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| format!("{path}: bad count for {case}: {}", fields[1]))?;
        found = Some(n);
    }
    found.ok_or_else(|| format!("{path}: no iteration count for {case}"))
}

fn usage(prog: &str) -> ! {
    eprintln!(
        "usage: {prog} CASE CONFIG ITERS_FILE [SCALE]\n  CASE: carsales | catrank | eval\n  \
         CONFIG: object[-reuse] | bytes[-packed][-reuse] | pipe[-packed][-reuse]\n  \
         ITERS_FILE: lines `CASE COUNT` (iterations per case)\n  \
         SCALE: percent of COUNT to run, ceil(COUNT * SCALE / 100) (default 100)\n  \
         (a pipe config re-runs this program as its server: {prog} --serve CASE CONFIG ITERATIONS)"
    );
    std::process::exit(2)
}

pub fn parse_args(prog: &str) -> Config {
    let args: Vec<String> = std::env::args().collect();
    let serve = args.len() == 5 && args[1] == "--serve";
    if (args.len() != 4 && args.len() != 5) && !serve {
        usage(prog);
    }
    let a = if serve { &args[2..] } else { &args[1..] };
    let case = match a[0].as_str() {
        "carsales" => Case::CarSales,
        "catrank" => Case::CatRank,
        "eval" => Case::Eval,
        other => die(
            prog,
            &format!("unknown case {other} (carsales, catrank, eval)"),
        ),
    };
    let mut rest = a[1].as_str();
    let reuse = rest.ends_with("-reuse");
    rest = rest.strip_suffix("-reuse").unwrap_or(rest);
    let packed = rest.ends_with("-packed");
    rest = rest.strip_suffix("-packed").unwrap_or(rest);
    let mode = match rest {
        "object" if !packed => Mode::Object,
        "bytes" => Mode::Bytes,
        "pipe" => Mode::Pipe,
        _ => die(prog, &format!("unknown config {}", a[1])),
    };
    let iters = if serve {
        a[2].parse()
            .unwrap_or_else(|_| die(prog, &format!("bad iteration count {}", a[2])))
    } else {
        let count = read_iterations(&a[2], &a[0]).unwrap_or_else(|e| die(prog, &e));
        match a.get(3) {
            // iorace's --target-ms sizes a run's work by this percentage (the suite's work_param)
            Some(text) => {
                let scale: u64 = text
                    .parse()
                    .ok()
                    .filter(|s| {
                        (1..=100_000).contains(s) && text.bytes().all(|b| b.is_ascii_digit())
                    })
                    .unwrap_or_else(|| {
                        die(
                            prog,
                            &format!("bad SCALE {text} (a percentage, 1 to 100000)"),
                        )
                    });
                (count * scale).div_ceil(100)
            }
            None => count,
        }
    };
    Config {
        case,
        mode,
        packed,
        reuse,
        iters,
        case_name: a[0].clone(),
        config_name: a[1].clone(),
        serve,
    }
}

// ---- fault injection (tests): CAPNP_BENCH_FAULT=truncate|garbage spoils the first request's bytes ------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fault {
    None,
    Truncate,
    Garbage,
}

pub fn fault_from_env(prog: &str) -> Fault {
    match std::env::var("CAPNP_BENCH_FAULT").as_deref() {
        Err(_) | Ok("") => Fault::None,
        Ok("truncate") => Fault::Truncate,
        Ok("garbage") => Fault::Garbage,
        Ok(other) => die(
            prog,
            &format!("CAPNP_BENCH_FAULT: unknown fault {other} (truncate, garbage)"),
        ),
    }
}

/// The first request's bytes, spoiled: truncate keeps the first half (whole words), garbage overwrites the
/// first word (the segment table) with 0xff.
pub fn spoil(bytes: &mut [u8], fault: Fault) -> &[u8] {
    match fault {
        Fault::None => bytes,
        Fault::Truncate => &bytes[..(bytes.len() / 2) & !7],
        Fault::Garbage => {
            let n = bytes.len().min(8);
            bytes[..n].fill(0xff);
            bytes
        }
    }
}

// ---- clock and result line ----------------------------------------------------------------------------

/// Total bytes of the requests and responses over all iterations (bytes and pipe configs).
#[derive(Default, Clone, Copy)]
pub struct Sizes {
    pub have: bool,
    pub request: u64,
    pub response: u64,
}

pub struct Timer(Instant);

impl Timer {
    pub fn start() -> Self {
        Timer(Instant::now())
    }
    pub fn ns(&self) -> u128 {
        self.0.elapsed().as_nanos()
    }
}

pub fn print_result(c: &Config, checksum: &str, ns: u128, sizes: Sizes) {
    println!(
        "{} {}: {} iterations, checksum {checksum}",
        c.case_name, c.config_name, c.iters
    );
    let extra = if sizes.have && c.iters > 0 {
        format!(
            ", \"extra\": {{\"request_bytes\": {:.1}, \"response_bytes\": {:.1}}}",
            sizes.request as f64 / c.iters as f64,
            sizes.response as f64 / c.iters as f64
        )
    } else {
        String::new()
    };
    eprintln!(
        "iorace-result {{\"answer\": {{\"iterations\": {}, \"checksum\": {checksum}}}, \"inner_ns\": {ns}{extra}}}",
        c.iters
    );
}

// ---- pipe: the client spawns this very program as its server ------------------------------------------

/// Set when the other process went away (EOF, broken pipe): the client then reports the server's fate.
static PEER_GONE: AtomicBool = AtomicBool::new(false);

/// The client's (or server's) input end, counting the bytes it reads.
pub struct PipeReader<R: Read> {
    inner: R,
    pub bytes: u64,
}

impl<R: Read> PipeReader<R> {
    pub fn new(inner: R) -> Self {
        PipeReader { inner, bytes: 0 }
    }
}

impl<R: Read> Read for PipeReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(0) if !buf.is_empty() => {
                PEER_GONE.store(true, Ordering::Relaxed);
                Ok(0)
            }
            Ok(n) => {
                self.bytes += n as u64;
                Ok(n)
            }
            Err(e) => {
                PEER_GONE.store(true, Ordering::Relaxed);
                Err(e)
            }
        }
    }
}

/// The output end, counting the bytes it writes.
pub struct PipeWriter<W: Write> {
    inner: W,
    pub bytes: u64,
}

impl<W: Write> PipeWriter<W> {
    pub fn new(inner: W) -> Self {
        PipeWriter { inner, bytes: 0 }
    }
}

impl<W: Write> Write for PipeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.inner.write(buf) {
            Ok(n) => {
                self.bytes += n as u64;
                Ok(n)
            }
            Err(e) => {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    PEER_GONE.store(true, Ordering::Relaxed);
                }
                Err(e)
            }
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The pipe configs: a real second process. This program re-runs itself as the server
/// (`--serve CASE CONFIG N`: N requests on its stdin, N responses on its stdout); the calling process is the
/// client, which times the run and computes the checksum from the responses it decodes. The client always
/// reaps the server. If the server fails it prints its own one-line reason and the client exits 1 quietly;
/// if the client fails it kills the server first and prints its reason.
pub fn run_pipe<F>(prog: &str, c: &Config, client: F)
where
    F: FnOnce(&mut PipeReader<ChildStdout>, Option<PipeWriter<ChildStdin>>) -> Result<()>,
{
    let exe = std::env::current_exe().unwrap_or_else(|e| die(prog, &format!("current_exe: {e}")));
    let mut child: Child = Command::new(exe)
        .args([
            "--serve",
            &c.case_name,
            &c.config_name,
            &c.iters.to_string(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| die(prog, &format!("could not start the server process: {e}")));
    let to_server = PipeWriter::new(child.stdin.take().unwrap());
    let mut from_server = PipeReader::new(child.stdout.take().unwrap());
    // the client owns (and drops, closing the pipe) the request end; it may drop it early (truncate fault)
    let result = client(&mut from_server, Some(to_server));
    drop(from_server);
    let peer_gone = PEER_GONE.load(Ordering::Relaxed);
    if result.is_err() && !peer_gone {
        let _ = child.kill(); // the client's own failure
    }
    let status = child
        .wait()
        .unwrap_or_else(|e| die(prog, &format!("waiting for the server: {e}")));
    use std::os::unix::process::ExitStatusExt;
    match result {
        Err(Error(msg)) => {
            if peer_gone && status.code().is_some_and(|code| code != 0) {
                std::process::exit(1); // the server said why
            }
            if let (true, Some(sig)) = (peer_gone, status.signal()) {
                die(prog, &format!("server killed by signal {sig} ({msg})"));
            }
            die(prog, &msg);
        }
        Ok(()) => {
            if let Some(sig) = status.signal() {
                die(prog, &format!("server killed by signal {sig}"));
            }
            if !status.success() {
                std::process::exit(1); // the server printed its reason
            }
        }
    }
}

/// The server process's ends: its stdin and stdout as plain files (std's Stdout is line-buffered and Stdin has
/// a buffer of its own; the callers add exactly the buffering they want).
pub fn server_streams() -> io::Result<(PipeReader<File>, PipeWriter<File>)> {
    let input = File::from(io::stdin().as_fd().try_clone_to_owned()?);
    let output = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    Ok((PipeReader::new(input), PipeWriter::new(output)))
}
