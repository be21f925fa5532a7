//! The Cap'n Proto side of the suite: the three cases (request generation in upstream's draw order, the
//! server's handling, the client's check and checksum) and the three modes (object, bytes, pipe), generic
//! over how a message is read back (`Reading`): the bins pick the reader strategy.

use std::io::{BufRead, BufReader, BufWriter, Write};

use capnp::message::{
    self, Allocator, HeapAllocator, ReaderOptions, ReaderSegments, ScratchSpaceHeapAllocator,
};
use capnp::serialize::{self, NoAllocBufferSegments, OwnedSegments};
use capnp::serialize_packed;
use capnp::traits::Owned;
use capnp::Word;

use crate::carsales_capnp::{car, parking_lot, total_value, Color};
use crate::catrank_capnp::{search_result, search_result_list};
use crate::eval_capnp::{evaluation_result, expression, Operation};
use crate::*;

// ---- the cases -----------------------------------------------------------------------------------------

pub trait TestCase {
    type Request: Owned;
    type Response: Owned;
    type Expectation: Copy;

    fn setup(
        &self,
        rng: &mut FastRand,
        request: <Self::Request as Owned>::Builder<'_>,
    ) -> Self::Expectation;
    fn handle(
        &self,
        request: <Self::Request as Owned>::Reader<'_>,
        response: <Self::Response as Owned>::Builder<'_>,
    ) -> Result<()>;
    /// Upstream's per-iteration check, then the response's share of the checksum.
    fn check(
        &self,
        response: <Self::Response as Owned>::Reader<'_>,
        expected: Self::Expectation,
        sum: &mut u64,
    ) -> Result<()>;
    fn format(&self, sum: u64) -> String {
        sum.to_string()
    }
}

pub struct CarSales;

fn car_value(car: car::Reader) -> Result<u64> {
    let mut result = car.get_seats() as u64 * 200 + car.get_doors() as u64 * 350;
    // an index loop, as upstream's (its comment: the list iterator was considerably slower here)
    let wheels = car.get_wheels()?;
    for i in 0..wheels.len() {
        let wheel = wheels.get(i);
        let d = wheel.get_diameter() as u64;
        result += d * d + if wheel.get_snow_tires() { 100 } else { 0 };
    }
    result += car.get_length() as u64 * car.get_width() as u64 * car.get_height() as u64 / 50;
    let engine = car.get_engine()?;
    result += engine.get_horsepower() as u64 * 40;
    if engine.get_uses_electric() {
        result += if engine.get_uses_gas() { 5000 } else { 3000 };
    }
    result += if car.get_has_power_windows() { 100 } else { 0 };
    result += if car.get_has_power_steering() { 200 } else { 0 };
    result += if car.get_has_cruise_control() { 400 } else { 0 };
    result += if car.get_has_nav_system() { 2000 } else { 0 };
    result += car.get_cup_holders() as u64 * 25;
    Ok(result)
}

/// car_value on the builder the client just filled (upstream prices the car through its builder too).
fn built_car_value(mut car: car::Builder) -> Result<u64> {
    let mut result =
        car.reborrow().get_seats() as u64 * 200 + car.reborrow().get_doors() as u64 * 350;
    {
        let mut wheels = car.reborrow().get_wheels()?;
        for i in 0..wheels.len() {
            let mut wheel = wheels.reborrow().get(i);
            let d = wheel.reborrow().get_diameter() as u64;
            result += d * d
                + if wheel.reborrow().get_snow_tires() {
                    100
                } else {
                    0
                };
        }
    }
    result += car.reborrow().get_length() as u64
        * car.reborrow().get_width() as u64
        * car.reborrow().get_height() as u64
        / 50;
    {
        let mut engine = car.reborrow().get_engine()?;
        result += engine.reborrow().get_horsepower() as u64 * 40;
        if engine.reborrow().get_uses_electric() {
            result += if engine.reborrow().get_uses_gas() {
                5000
            } else {
                3000
            };
        }
    }
    result += if car.reborrow().get_has_power_windows() {
        100
    } else {
        0
    };
    result += if car.reborrow().get_has_power_steering() {
        200
    } else {
        0
    };
    result += if car.reborrow().get_has_cruise_control() {
        400
    } else {
        0
    };
    result += if car.reborrow().get_has_nav_system() {
        2000
    } else {
        0
    };
    result += car.reborrow().get_cup_holders() as u64 * 25;
    Ok(result)
}

fn random_car(rng: &mut FastRand, mut car: car::Builder) {
    car.set_make(MAKES[rng.below(5) as usize]);
    car.set_model(MODELS[rng.below(6) as usize]);
    car.set_color(Color::try_from(rng.below(Color::Silver as u32 + 1) as u16).unwrap());
    car.set_seats(2 + rng.below(6) as u8);
    car.set_doors(2 + rng.below(3) as u8);
    {
        let mut wheels = car.reborrow().init_wheels(4);
        for i in 0..4 {
            let mut wheel = wheels.reborrow().get(i);
            wheel.set_diameter(25 + rng.below(15) as u16);
            wheel.set_air_pressure((30.0 + rng.real(20.0)) as f32);
            wheel.set_snow_tires(rng.below(16) == 0);
        }
    }
    let length = 170 + rng.below(150) as u16;
    let width = 48 + rng.below(36) as u16;
    let height = 54 + rng.below(48) as u16;
    car.set_length(length);
    car.set_width(width);
    car.set_height(height);
    car.set_weight(length as u32 * width as u32 * height as u32 / 200);
    {
        let mut engine = car.reborrow().init_engine();
        engine.set_horsepower(100 * rng.below(400) as u16);
        engine.set_cylinders(4 + 2 * rng.below(3) as u8);
        engine.set_cc(800 + rng.below(10000));
        engine.set_uses_gas(true);
        engine.set_uses_electric(rng.coin());
    }
    let fuel_capacity = (10.0 + rng.real(30.0)) as f32;
    car.set_fuel_capacity(fuel_capacity);
    car.set_fuel_level(rng.real(fuel_capacity as f64) as f32);
    car.set_has_power_windows(rng.coin());
    car.set_has_power_steering(rng.coin());
    car.set_has_cruise_control(rng.coin());
    car.set_cup_holders(rng.below(12) as u8);
    car.set_has_nav_system(rng.coin());
}

impl TestCase for CarSales {
    type Request = parking_lot::Owned;
    type Response = total_value::Owned;
    type Expectation = u64;

    fn setup(&self, rng: &mut FastRand, request: parking_lot::Builder) -> u64 {
        let mut total = 0;
        let mut cars = request.init_cars(rng.below(200));
        for i in 0..cars.len() {
            let mut car = cars.reborrow().get(i);
            random_car(rng, car.reborrow());
            total += built_car_value(car).expect("a car just built reads back");
        }
        total
    }

    fn handle(
        &self,
        request: parking_lot::Reader,
        mut response: total_value::Builder,
    ) -> Result<()> {
        let mut total = 0;
        for car in request.get_cars()? {
            total += car_value(car)?;
        }
        response.set_amount(total);
        Ok(())
    }

    /// checksum: the sum of the amounts (wrapping u64)
    fn check(&self, response: total_value::Reader, expected: u64, sum: &mut u64) -> Result<()> {
        let amount = response.get_amount();
        if amount != expected {
            return Err(Error(format!(
                "carsales: expected amount {expected}, got {amount}"
            )));
        }
        *sum = sum.wrapping_add(amount);
        Ok(())
    }
}

/// catrank; `validate_utf8: false` reads the snippets as str without checking them (what C++ does);
/// `reuse_snippet: true` builds every snippet in one `String` kept for the request, where upstream's Rust
/// allocates a fresh one per result (`" ".to_string()`).
pub struct CatRank {
    pub validate_utf8: bool,
    pub reuse_snippet: bool,
}

#[derive(Clone, Copy)]
struct Scored<'a> {
    score: f64,
    result: search_result::Reader<'a>,
}

impl TestCase for CatRank {
    type Request = search_result_list::Owned;
    type Response = search_result_list::Owned;
    type Expectation = i32;

    fn setup(&self, rng: &mut FastRand, request: search_result_list::Builder) -> i32 {
        let count = rng.below(1000);
        let mut good = 0;
        let mut list = request.init_results(count);
        let mut kept = String::new();
        for i in 0..count {
            let mut result = list.reborrow().get(i);
            result.set_score(1000.0 - i as f64);
            let url_size = rng.below(100);
            {
                let mut url = result
                    .reborrow()
                    .init_url(URL_PREFIX.len() as u32 + url_size);
                url.push_str(URL_PREFIX);
                for _ in 0..url_size {
                    url.push_ascii(b'a' + rng.below(26) as u8);
                }
            }
            let is_cat = rng.below(8) == 0;
            let is_dog = rng.below(8) == 0;
            if is_cat && !is_dog {
                good += 1;
            }
            let mut fresh;
            let snippet = if self.reuse_snippet {
                kept.clear();
                kept.push(' ');
                &mut kept
            } else {
                // upstream's: a fresh String per result, dropped at the end of the iteration
                fresh = " ".to_string();
                &mut fresh
            };
            for _ in 0..rng.below(20) {
                snippet.push_str(WORDS[rng.below(WORDS.len() as u32) as usize]);
            }
            if is_cat {
                snippet.push_str("cat ");
            }
            if is_dog {
                snippet.push_str("dog ");
            }
            for _ in 0..rng.below(20) {
                snippet.push_str(WORDS[rng.below(WORDS.len() as u32) as usize]);
            }
            result.set_snippet(&snippet[..]);
        }
        good
    }

    fn handle(
        &self,
        request: search_result_list::Reader,
        response: search_result_list::Builder,
    ) -> Result<()> {
        let results = request.get_results()?;
        let mut scored: Vec<Scored> = Vec::new(); // growing, as upstream's
        for result in results {
            let mut score = result.get_score();
            let bytes = result.get_snippet()?;
            let snippet: &str = if self.validate_utf8 {
                bytes.to_str()?
            } else {
                // SAFETY: none needed for correctness here: str::contains only compares bytes. This is the
                // seed's point: C++ reads Text without validating it, the Rust original validates it.
                unsafe { std::str::from_utf8_unchecked(bytes.as_bytes()) }
            };
            if snippet.contains(" cat ") {
                score *= 10000.0;
            }
            if snippet.contains(" dog ") {
                score /= 10000.0;
            }
            scored.push(Scored { score, result });
        }
        // upstream's comparator (decreasing; never Equal), so the sort does the same work
        scored.sort_by(|a, b| {
            if a.score < b.score {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Less
            }
        });
        let mut list = response.init_results(scored.len() as u32);
        for (i, s) in scored.iter().enumerate() {
            let mut item = list.reborrow().get(i as u32);
            item.set_score(s.score);
            item.set_url(s.result.get_url()?);
            item.set_snippet(s.result.get_snippet()?);
        }
        Ok(())
    }

    /// checksum: (leading results with score > 1001) << 32, plus the bytes of their urls and snippets; like
    /// upstream's check, it stops at the first result that is not good
    fn check(
        &self,
        response: search_result_list::Reader,
        expected: i32,
        sum: &mut u64,
    ) -> Result<()> {
        let mut good = 0;
        let mut text_bytes = 0u64;
        for result in response.get_results()? {
            if result.get_score() > 1001.0 {
                good += 1;
                text_bytes += (result.get_url()?.len() + result.get_snippet()?.len()) as u64;
            } else {
                break;
            }
        }
        if good != expected {
            return Err(Error(format!(
                "catrank: expected {expected} good results, got {good}"
            )));
        }
        *sum = sum.wrapping_add(((good as u64) << 32).wrapping_add(text_bytes));
        Ok(())
    }
}

pub struct Eval;

fn apply(op: Operation, left: i32, right: i32) -> i32 {
    match op {
        Operation::Add => left.wrapping_add(right),
        Operation::Subtract => left.wrapping_sub(right),
        Operation::Multiply => left.wrapping_mul(right),
        Operation::Divide => div32(left, right),
        Operation::Modulus => mod32(left, right),
    }
}

fn make_expression(rng: &mut FastRand, mut exp: expression::Builder, depth: u32) -> i32 {
    let op = Operation::try_from(rng.below(Operation::Modulus as u32 + 1) as u16).unwrap();
    exp.set_op(op);
    let left = if rng.below(8) < depth {
        let v = (rng.below(128) + 1) as i32;
        exp.reborrow().get_left().set_value(v);
        v
    } else {
        make_expression(rng, exp.reborrow().get_left().init_expression(), depth + 1)
    };
    let right = if rng.below(8) < depth {
        let v = (rng.below(128) + 1) as i32;
        exp.reborrow().get_right().set_value(v);
        v
    } else {
        make_expression(rng, exp.reborrow().get_right().init_expression(), depth + 1)
    };
    apply(op, left, right)
}

fn evaluate(exp: expression::Reader) -> Result<i32> {
    let left = match exp.get_left().which()? {
        expression::left::Value(v) => v,
        expression::left::Expression(e) => evaluate(e?)?,
    };
    let right = match exp.get_right().which()? {
        expression::right::Value(v) => v,
        expression::right::Expression(e) => evaluate(e?)?,
    };
    Ok(apply(exp.get_op()?, left, right))
}

impl TestCase for Eval {
    type Request = expression::Owned;
    type Response = evaluation_result::Owned;
    type Expectation = i32;

    fn setup(&self, rng: &mut FastRand, request: expression::Builder) -> i32 {
        make_expression(rng, request, 0)
    }

    fn handle(
        &self,
        request: expression::Reader,
        mut response: evaluation_result::Builder,
    ) -> Result<()> {
        response.set_value(evaluate(request)?);
        Ok(())
    }

    /// checksum: the sum of the values as a wrapping i64
    fn check(
        &self,
        response: evaluation_result::Reader,
        expected: i32,
        sum: &mut u64,
    ) -> Result<()> {
        let value = response.get_value();
        if value != expected {
            return Err(Error(format!("eval: expected {expected}, got {value}")));
        }
        *sum = sum.wrapping_add(value as i64 as u64);
        Ok(())
    }

    fn format(&self, sum: u64) -> String {
        (sum as i64).to_string()
    }
}

// ---- reading a message back ----------------------------------------------------------------------------

/// How a program reads a serialized message: from a byte array (bytes configs) or a buffered stream (pipe).
pub trait Reading {
    type Segments<'a>: ReaderSegments
    where
        Self: 'a;
    fn read_from_bytes<'a>(
        &'a mut self,
        bytes: &'a [u8],
        packed: bool,
    ) -> Result<message::Reader<Self::Segments<'a>>>;
    fn read_from_stream<'a, R: BufRead>(
        &'a mut self,
        input: &mut R,
        packed: bool,
    ) -> Result<message::Reader<Self::Segments<'a>>>;
}

/// As upstream: serialize::read_message / serialize_packed::read_message copy every message into segments
/// allocated for it (OwnedSegments), bytes configs included.
pub struct Copying;

impl Reading for Copying {
    type Segments<'a> = OwnedSegments;
    fn read_from_bytes<'a>(
        &'a mut self,
        mut bytes: &'a [u8],
        packed: bool,
    ) -> Result<message::Reader<OwnedSegments>> {
        Ok(if packed {
            serialize_packed::read_message(&mut bytes, ReaderOptions::new())?
        } else {
            serialize::read_message(&mut bytes, ReaderOptions::new())?
        })
    }
    fn read_from_stream<R: BufRead>(
        &mut self,
        input: &mut R,
        packed: bool,
    ) -> Result<message::Reader<OwnedSegments>> {
        Ok(if packed {
            serialize_packed::read_message(input, ReaderOptions::new())?
        } else {
            serialize::read_message(input, ReaderOptions::new())?
        })
    }
}

/// Readers that never allocate: an unpacked byte array is read in place (read_message_from_flat_slice, zero
/// copy); packed arrays and piped messages are unpacked / read into one flat buffer kept for the whole run.
pub struct Flat {
    buffer: Vec<Word>,
}

impl Default for Flat {
    fn default() -> Self {
        Flat {
            buffer: Word::allocate_zeroed_vec(SCRATCH_WORDS),
        }
    }
}

impl Reading for Flat {
    type Segments<'a> = NoAllocBufferSegments<&'a [u8]>;
    fn read_from_bytes<'a>(
        &'a mut self,
        mut bytes: &'a [u8],
        packed: bool,
    ) -> Result<message::Reader<NoAllocBufferSegments<&'a [u8]>>> {
        Ok(if packed {
            let buffer = Word::words_to_bytes_mut(&mut self.buffer);
            serialize_packed::read_message_no_alloc(&mut bytes, buffer, ReaderOptions::new())?
        } else {
            serialize::read_message_from_flat_slice_no_alloc(&mut bytes, ReaderOptions::new())?
        })
    }
    fn read_from_stream<'a, R: BufRead>(
        &'a mut self,
        input: &mut R,
        packed: bool,
    ) -> Result<message::Reader<NoAllocBufferSegments<&'a [u8]>>> {
        let buffer = Word::words_to_bytes_mut(&mut self.buffer);
        Ok(if packed {
            serialize_packed::read_message_no_alloc(input, buffer, ReaderOptions::new())?
        } else {
            serialize::read_message_no_alloc(input, buffer, ReaderOptions::new())?
        })
    }
}

// ---- builders: scratch space (reuse) or the heap ---------------------------------------------------------

pub const SCRATCH_WORDS: usize = 128 * 1024; // 1 MiB, as upstream

fn scratch() -> Vec<Word> {
    Word::allocate_zeroed_vec(SCRATCH_WORDS)
}

fn write_message<W: Write, A: Allocator>(
    out: &mut W,
    message: &message::Builder<A>,
    packed: bool,
) -> Result<()> {
    if packed {
        serialize_packed::write_message(out, message)?;
    } else {
        serialize::write_message(out, message)?;
    }
    Ok(())
}

// ---- object --------------------------------------------------------------------------------------------

fn by_object<T: TestCase, A: Allocator>(
    t: &T,
    iters: u64,
    mut request_alloc: A,
    mut response_alloc: A,
) -> Result<u64> {
    let mut rng = FastRand::default();
    let mut sum = 0u64;
    for _ in 0..iters {
        let mut request = message::Builder::new(&mut request_alloc);
        let mut response = message::Builder::new(&mut response_alloc);
        let expected = t.setup(&mut rng, request.init_root());
        t.handle(request.get_root_as_reader()?, response.init_root())?;
        t.check(response.get_root_as_reader()?, expected, &mut sum)?;
    }
    Ok(sum)
}

// ---- bytes ---------------------------------------------------------------------------------------------

/// Writes `message` into `buffer`, returns the bytes written.
fn write_into<A: Allocator>(
    buffer: &mut [u8],
    message: &message::Builder<A>,
    packed: bool,
) -> Result<usize> {
    let capacity = buffer.len();
    let mut writer: &mut [u8] = buffer;
    write_message(&mut writer, message, packed)?;
    Ok(capacity - writer.len())
}

#[allow(clippy::too_many_arguments)]
fn by_bytes<T: TestCase, A: Allocator, R: Reading>(
    t: &T,
    iters: u64,
    packed: bool,
    fault: Fault,
    reading: &mut R,
    mut request_alloc: A,
    mut response_alloc: A,
    sizes: &mut Sizes,
) -> Result<u64> {
    let mut rng = FastRand::default();
    let mut sum = 0u64;
    let mut request_words = scratch();
    let mut response_words = scratch();
    sizes.have = true;
    for i in 0..iters {
        let mut request = message::Builder::new(&mut request_alloc);
        let mut response = message::Builder::new(&mut response_alloc);
        let expected = t.setup(&mut rng, request.init_root());

        let request_bytes = Word::words_to_bytes_mut(&mut request_words);
        let n = write_into(request_bytes, &request, packed)?;
        sizes.request += n as u64;
        let request_bytes = if i == 0 && fault != Fault::None {
            spoil(&mut request_bytes[..n], fault)
        } else {
            &request_bytes[..n]
        };
        {
            let reader = reading.read_from_bytes(request_bytes, packed)?;
            t.handle(reader.get_root()?, response.init_root())?;
        }

        let response_bytes = Word::words_to_bytes_mut(&mut response_words);
        let n = write_into(response_bytes, &response, packed)?;
        sizes.response += n as u64;
        let reader = reading.read_from_bytes(&response_bytes[..n], packed)?;
        t.check(reader.get_root()?, expected, &mut sum)?;
    }
    Ok(sum)
}

// ---- pipe ----------------------------------------------------------------------------------------------

/// The server process: `iters` requests from stdin, each answered on stdout (buffered, flushed per response).
fn serve<T: TestCase, A: Allocator, R: Reading>(
    t: &T,
    iters: u64,
    packed: bool,
    reading: &mut R,
    mut response_alloc: A,
) -> Result<()> {
    let (input, output) = server_streams()?;
    let mut input = BufReader::new(input);
    let mut output = BufWriter::new(output);
    for _ in 0..iters {
        let mut response = message::Builder::new(&mut response_alloc);
        {
            let reader = reading.read_from_stream(&mut input, packed)?;
            t.handle(reader.get_root()?, response.init_root())?;
        }
        write_message(&mut output, &response, packed)?;
        output.flush()?;
    }
    Ok(())
}

fn by_pipe<T: TestCase, A: Allocator, R: Reading>(
    prog: &str,
    c: &Config,
    t: &T,
    fault: Fault,
    reading: &mut R,
    mut request_alloc: A,
    sizes: &mut Sizes,
) -> u64 {
    let mut sum = 0u64;
    sizes.have = true;
    run_pipe(prog, c, |from_server, to_server| {
        let mut rng = FastRand::default();
        let mut input = BufReader::new(from_server);
        let mut output = to_server.map(BufWriter::new);
        for i in 0..c.iters {
            let mut request = message::Builder::new(&mut request_alloc);
            let expected = t.setup(&mut rng, request.init_root());
            let out = output
                .as_mut()
                .ok_or_else(|| Error("request pipe closed".into()))?;
            if i == 0 && fault != Fault::None {
                let mut encoded = Vec::new();
                write_message(&mut encoded, &request, c.packed)?;
                out.write_all(spoil(&mut encoded, fault))?;
                out.flush()?;
                if fault == Fault::Truncate {
                    sizes.request += out.get_ref().bytes;
                    output = None; // closes the pipe: the server sees the message end early
                }
            } else {
                write_message(out, &request, c.packed)?;
                out.flush()?;
            }
            let reader = reading.read_from_stream(&mut input, c.packed)?;
            t.check(reader.get_root()?, expected, &mut sum)?;
        }
        if let Some(out) = &output {
            sizes.request += out.get_ref().bytes;
        }
        sizes.response = input.get_ref().bytes;
        Ok(())
    });
    sum
}

// ---- main ----------------------------------------------------------------------------------------------

fn run_with<T: TestCase, A: Allocator, R: Reading>(
    prog: &str,
    c: &Config,
    t: &T,
    reading: &mut R,
    (request_alloc, response_alloc): (A, A),
) {
    let fault = fault_from_env(prog);
    if c.serve {
        if let Err(Error(msg)) = serve(t, c.iters, c.packed, reading, response_alloc) {
            die(&format!("{prog} server"), &msg);
        }
        return;
    }
    let mut sizes = Sizes::default();
    let timer = Timer::start();
    let sum = match c.mode {
        Mode::Object => by_object(t, c.iters, request_alloc, response_alloc),
        Mode::Bytes => by_bytes(
            t,
            c.iters,
            c.packed,
            fault,
            reading,
            request_alloc,
            response_alloc,
            &mut sizes,
        ),
        Mode::Pipe => Ok(by_pipe(
            prog,
            c,
            t,
            fault,
            reading,
            request_alloc,
            &mut sizes,
        )),
    }
    .unwrap_or_else(|Error(msg)| die(prog, &msg));
    let ns = timer.ns();
    print_result(c, &t.format(sum), ns, sizes);
}

fn run_case<T: TestCase, R: Reading>(prog: &str, c: &Config, t: &T, reading: &mut R) {
    if c.reuse {
        // builders take their first segment from scratch space kept for the run (upstream's UseScratch)
        let (mut a, mut b) = (scratch(), scratch());
        let allocators = (
            ScratchSpaceHeapAllocator::new(Word::words_to_bytes_mut(&mut a)),
            ScratchSpaceHeapAllocator::new(Word::words_to_bytes_mut(&mut b)),
        );
        run_with(prog, c, t, reading, allocators);
    } else {
        run_with(
            prog,
            c,
            t,
            reading,
            (HeapAllocator::new(), HeapAllocator::new()),
        );
    }
}

/// A whole program: parse the command line, run the case in its config, print the result line.
pub fn main_with<R: Reading>(prog: &str, reading: &mut R, validate_utf8: bool) {
    main_with_snippets(prog, reading, validate_utf8, false)
}

/// `main_with`, choosing how catrank builds its snippets (`reuse_snippet`: one kept `String`).
pub fn main_with_snippets<R: Reading>(
    prog: &str,
    reading: &mut R,
    validate_utf8: bool,
    reuse_snippet: bool,
) {
    let c = parse_args(prog);
    let catrank = CatRank {
        validate_utf8,
        reuse_snippet,
    };
    match c.case {
        Case::CarSales => run_case(prog, &c, &CarSales, reading),
        Case::CatRank => run_case(prog, &c, &catrank, reading),
        Case::Eval => run_case(prog, &c, &Eval, reading),
    }
}
