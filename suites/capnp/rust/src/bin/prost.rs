// Protocol Buffers in Rust with prost 0.14 for the same three cases, as upstream's protobuf programs: varint length prefix on the pipe, reuse = keep the messages and buffers and clear() them.
//
// usage: prost CASE CONFIG ITERS_FILE   (see capnprace::parse_args)
//   object: build the request struct, handle it into a response struct, check it.
//   bytes: Message::encode into a Vec<u8>, merge (decode) it back, both ways.
//   pipe: re-run this program as the server; each message is prefixed by its size as a varint.
//   protobuf has no packed encoding: the -packed configs run the plain one (upstream's C++ does the same).
//   reuse: messages and byte buffers are kept for the whole run and cleared after each use; otherwise
//   each iteration allocates its own.
//   CAPNP_BENCH_FAULT=truncate|garbage spoils the first request's bytes (tests of the error path).

use std::io::{BufRead, BufReader, BufWriter, Write};

use capnprace::pb::{self, Car, Engine, Wheel};
use capnprace::*;
use prost::Message;

const PROG: &str = "prost";

trait TestCase {
    type Request: Message + Default;
    type Response: Message + Default;
    type Expectation: Copy;
    fn setup(&self, rng: &mut FastRand, request: &mut Self::Request) -> Self::Expectation;
    fn handle(&self, request: &Self::Request, response: &mut Self::Response);
    fn check(
        &self,
        response: &Self::Response,
        expected: Self::Expectation,
        sum: &mut u64,
    ) -> Result<()>;
    fn format(&self, sum: u64) -> String {
        sum.to_string()
    }
}

// ---- carsales ------------------------------------------------------------------------------------------

struct CarSales;

fn car_value(car: &Car) -> u64 {
    let mut result = car.seats() as u64 * 200 + car.doors() as u64 * 350;
    for wheel in &car.wheel {
        let d = wheel.diameter() as u64;
        result += d * d + if wheel.snow_tires() { 100 } else { 0 };
    }
    result += car.length() as u64 * car.width() as u64 * car.height() as u64 / 50;
    let default_engine = Engine::default();
    let engine = car.engine.as_ref().unwrap_or(&default_engine);
    result += engine.horsepower() as u64 * 40;
    if engine.uses_electric() {
        result += if engine.uses_gas() { 5000 } else { 3000 };
    }
    result += if car.has_power_windows() { 100 } else { 0 };
    result += if car.has_power_steering() { 200 } else { 0 };
    result += if car.has_cruise_control() { 400 } else { 0 };
    result += if car.has_nav_system() { 2000 } else { 0 };
    result += car.cup_holders() as u64 * 25;
    result
}

fn random_car(rng: &mut FastRand) -> Car {
    let mut car = Car {
        make: Some(MAKES[rng.below(5) as usize].to_string()),
        model: Some(MODELS[rng.below(6) as usize].to_string()),
        color: Some(rng.below(pb::Color::Silver as u32 + 1) as i32),
        seats: Some(2 + rng.below(6)),
        doors: Some(2 + rng.below(3)),
        ..Default::default()
    };
    car.wheel.reserve(4);
    for _ in 0..4 {
        car.wheel.push(Wheel {
            diameter: Some(25 + rng.below(15)),
            air_pressure: Some((30.0 + rng.real(20.0)) as f32),
            snow_tires: Some(rng.below(16) == 0),
        });
    }
    let (length, width, height) = (170 + rng.below(150), 48 + rng.below(36), 54 + rng.below(48));
    car.length = Some(length);
    car.width = Some(width);
    car.height = Some(height);
    car.weight = Some(length * width * height / 200);
    car.engine = Some(Engine {
        horsepower: Some(100 * rng.below(400)),
        cylinders: Some(4 + 2 * rng.below(3)),
        cc: Some(800 + rng.below(10000)),
        uses_gas: Some(true),
        uses_electric: Some(rng.coin()),
    });
    let fuel_capacity = (10.0 + rng.real(30.0)) as f32;
    car.fuel_capacity = Some(fuel_capacity);
    car.fuel_level = Some(rng.real(fuel_capacity as f64) as f32);
    car.has_power_windows = Some(rng.coin());
    car.has_power_steering = Some(rng.coin());
    car.has_cruise_control = Some(rng.coin());
    car.cup_holders = Some(rng.below(12));
    car.has_nav_system = Some(rng.coin());
    car
}

impl TestCase for CarSales {
    type Request = pb::ParkingLot;
    type Response = pb::TotalValue;
    type Expectation = u64;

    fn setup(&self, rng: &mut FastRand, request: &mut pb::ParkingLot) -> u64 {
        let count = rng.below(200);
        let mut total = 0;
        for _ in 0..count {
            let car = random_car(rng);
            total += car_value(&car);
            request.car.push(car);
        }
        total
    }
    fn handle(&self, request: &pb::ParkingLot, response: &mut pb::TotalValue) {
        response.amount = request.car.iter().map(car_value).sum();
    }
    fn check(&self, response: &pb::TotalValue, expected: u64, sum: &mut u64) -> Result<()> {
        if response.amount != expected {
            return Err(Error(format!(
                "carsales: expected amount {expected}, got {}",
                response.amount
            )));
        }
        *sum = sum.wrapping_add(response.amount);
        Ok(())
    }
}

// ---- catrank -------------------------------------------------------------------------------------------

struct CatRank;

impl TestCase for CatRank {
    type Request = pb::SearchResultList;
    type Response = pb::SearchResultList;
    type Expectation = i32;

    fn setup(&self, rng: &mut FastRand, request: &mut pb::SearchResultList) -> i32 {
        let count = rng.below(1000);
        let mut good = 0;
        for i in 0..count {
            let url_size = rng.below(100) as usize;
            let mut url = String::with_capacity(URL_PREFIX.len() + url_size);
            url.push_str(URL_PREFIX);
            for _ in 0..url_size {
                url.push((b'a' + rng.below(26) as u8) as char);
            }
            let is_cat = rng.below(8) == 0;
            let is_dog = rng.below(8) == 0;
            if is_cat && !is_dog {
                good += 1;
            }
            let mut snippet = String::from(" ");
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
            request.result.push(pb::SearchResult {
                url: Some(url),
                score: Some(1000.0 - i as f64),
                snippet: Some(snippet),
            });
        }
        good
    }

    fn handle(&self, request: &pb::SearchResultList, response: &mut pb::SearchResultList) {
        let mut scored: Vec<(f64, &pb::SearchResult)> = Vec::with_capacity(request.result.len());
        for result in &request.result {
            let mut score = result.score();
            if result.snippet().contains(" cat ") {
                score *= 10000.0;
            }
            if result.snippet().contains(" dog ") {
                score /= 10000.0;
            }
            scored.push((score, result));
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        response.result.reserve(scored.len());
        for (score, result) in scored {
            response.result.push(pb::SearchResult {
                url: result.url.clone(),
                score: Some(score),
                snippet: result.snippet.clone(),
            });
        }
    }

    fn check(&self, response: &pb::SearchResultList, expected: i32, sum: &mut u64) -> Result<()> {
        let mut good = 0;
        let mut text_bytes = 0u64;
        // upstream's check: stops at the first result that is not good
        for result in &response.result {
            if result.score() > 1001.0 {
                good += 1;
                text_bytes += (result.url().len() + result.snippet().len()) as u64;
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

// ---- eval ----------------------------------------------------------------------------------------------

struct Eval;

fn apply(op: i32, left: i32, right: i32) -> i32 {
    match pb::Operation::try_from(op).unwrap_or(pb::Operation::Add) {
        pb::Operation::Add => left.wrapping_add(right),
        pb::Operation::Subtract => left.wrapping_sub(right),
        pb::Operation::Multiply => left.wrapping_mul(right),
        pb::Operation::Divide => div32(left, right),
        pb::Operation::Modulus => mod32(left, right),
    }
}

fn make_expression(rng: &mut FastRand, exp: &mut pb::Expression, depth: u32) -> i32 {
    exp.op = rng.below(pb::Operation::Modulus as u32 + 1) as i32;
    let left = if rng.below(8) < depth {
        let v = (rng.below(128) + 1) as i32;
        exp.left_value = Some(v);
        v
    } else {
        let mut sub = Box::<pb::Expression>::default();
        let v = make_expression(rng, &mut sub, depth + 1);
        exp.left_expression = Some(sub);
        v
    };
    let right = if rng.below(8) < depth {
        let v = (rng.below(128) + 1) as i32;
        exp.right_value = Some(v);
        v
    } else {
        let mut sub = Box::<pb::Expression>::default();
        let v = make_expression(rng, &mut sub, depth + 1);
        exp.right_expression = Some(sub);
        v
    };
    apply(exp.op, left, right)
}

fn evaluate(exp: &pb::Expression) -> i32 {
    let side = |value: Option<i32>, sub: &Option<Box<pb::Expression>>| match (value, sub) {
        (Some(v), _) => v,
        (None, Some(e)) => evaluate(e),
        (None, None) => 0,
    };
    let left = side(exp.left_value, &exp.left_expression);
    let right = side(exp.right_value, &exp.right_expression);
    apply(exp.op, left, right)
}

impl TestCase for Eval {
    type Request = pb::Expression;
    type Response = pb::EvaluationResult;
    type Expectation = i32;

    fn setup(&self, rng: &mut FastRand, request: &mut pb::Expression) -> i32 {
        make_expression(rng, request, 0)
    }
    fn handle(&self, request: &pb::Expression, response: &mut pb::EvaluationResult) {
        response.value = evaluate(request);
    }
    fn check(&self, response: &pb::EvaluationResult, expected: i32, sum: &mut u64) -> Result<()> {
        if response.value != expected {
            return Err(Error(format!(
                "eval: expected {expected}, got {}",
                response.value
            )));
        }
        *sum = sum.wrapping_add(response.value as i64 as u64);
        Ok(())
    }
    fn format(&self, sum: u64) -> String {
        (sum as i64).to_string()
    }
}

// ---- reuse: one value kept and cleared, or a fresh one per use ---------------------------------------------

trait Clear {
    fn clear_all(&mut self);
}
impl<M: Message> Clear for M {
    fn clear_all(&mut self) {
        self.clear();
    }
}

struct Slot<M: Clear + Default> {
    reuse: bool,
    value: M,
}

impl<M: Clear + Default> Slot<M> {
    fn new(reuse: bool) -> Self {
        Slot {
            reuse,
            value: M::default(),
        }
    }
    /// The value to fill: the kept one (cleared after its last use), or a fresh one.
    fn start(&mut self) -> &mut M {
        if !self.reuse {
            self.value = M::default();
        }
        &mut self.value
    }
    fn done(&mut self) {
        if self.reuse {
            self.value.clear_all();
        } else {
            self.value = M::default();
        }
    }
}

/// A byte buffer kept (cleared, capacity kept) or allocated per use.
struct Bytes {
    reuse: bool,
    buf: Vec<u8>,
}

impl Bytes {
    /// `m` encoded (with a varint size prefix when `delimited`): into the kept buffer, or into a new one of
    /// exactly the right size (Message::encode_to_vec).
    fn encode<M: Message>(&mut self, m: &M, delimited: bool) -> Result<&mut Vec<u8>> {
        if self.reuse {
            self.buf.clear();
            if delimited {
                m.encode_length_delimited(&mut self.buf)?;
            } else {
                m.encode(&mut self.buf)?;
            }
        } else {
            self.buf = if delimited {
                m.encode_length_delimited_to_vec()
            } else {
                m.encode_to_vec()
            };
        }
        Ok(&mut self.buf)
    }

    fn start(&mut self) -> &mut Vec<u8> {
        if self.reuse {
            self.buf.clear();
        } else {
            self.buf = Vec::new();
        }
        &mut self.buf
    }
}

// ---- object and bytes ----------------------------------------------------------------------------------

fn by_object<T: TestCase>(t: &T, iters: u64, reuse: bool) -> Result<u64> {
    let mut rng = FastRand::default();
    let mut sum = 0;
    let mut request = Slot::<T::Request>::new(reuse);
    let mut response = Slot::<T::Response>::new(reuse);
    for _ in 0..iters {
        let expected = t.setup(&mut rng, request.start());
        t.handle(&request.value, response.start());
        request.done();
        t.check(&response.value, expected, &mut sum)?;
        response.done();
    }
    Ok(sum)
}

fn by_bytes<T: TestCase>(
    t: &T,
    iters: u64,
    reuse: bool,
    fault: Fault,
    sizes: &mut Sizes,
) -> Result<u64> {
    let mut rng = FastRand::default();
    let mut sum = 0;
    let (mut client_request, mut server_request) = (
        Slot::<T::Request>::new(reuse),
        Slot::<T::Request>::new(reuse),
    );
    let (mut server_response, mut client_response) = (
        Slot::<T::Response>::new(reuse),
        Slot::<T::Response>::new(reuse),
    );
    let mut request_bytes = Bytes {
        reuse,
        buf: Vec::new(),
    };
    let mut response_bytes = Bytes {
        reuse,
        buf: Vec::new(),
    };
    sizes.have = true;
    for i in 0..iters {
        let expected = t.setup(&mut rng, client_request.start());
        let buf = request_bytes.encode(&client_request.value, false)?;
        sizes.request += buf.len() as u64;
        client_request.done();
        let request = if i == 0 && fault != Fault::None {
            spoil(buf, fault)
        } else {
            &buf[..]
        };
        server_request.start().merge(request)?;
        t.handle(&server_request.value, server_response.start());
        server_request.done();

        let buf = response_bytes.encode(&server_response.value, false)?;
        sizes.response += buf.len() as u64;
        server_response.done();
        client_response.start().merge(&buf[..])?;
        t.check(&client_response.value, expected, &mut sum)?;
        client_response.done();
    }
    Ok(sum)
}

// ---- pipe: varint-prefixed messages -------------------------------------------------------------------------

/// Reads one varint-prefixed message into `buf`; Err on EOF, a bad prefix or a short message.
fn read_delimited<R: BufRead>(input: &mut R, buf: &mut Vec<u8>, what: &str) -> Result<()> {
    let mut size: u64 = 0;
    for shift in (0..64).step_by(7) {
        let mut byte = [0u8];
        input
            .read_exact(&mut byte)
            .map_err(|e| Error(format!("no {what} size: {e}")))?;
        size |= ((byte[0] & 0x7f) as u64) << shift;
        if byte[0] < 0x80 {
            break;
        }
        if shift >= 28 {
            return Err(Error(format!("bad {what} size prefix")));
        }
    }
    if size > u32::MAX as u64 {
        return Err(Error(format!("bad {what} size prefix")));
    }
    buf.resize(size as usize, 0);
    input
        .read_exact(buf)
        .map_err(|e| Error(format!("{what} ends early: {e}")))?;
    Ok(())
}

fn serve<T: TestCase>(t: &T, iters: u64, reuse: bool) -> Result<()> {
    let (input, output) = server_streams()?;
    let mut input = BufReader::new(input);
    let mut output = BufWriter::new(output);
    let mut request = Slot::<T::Request>::new(reuse);
    let mut response = Slot::<T::Response>::new(reuse);
    let mut in_bytes = Bytes {
        reuse,
        buf: Vec::new(),
    };
    let mut out_bytes = Bytes {
        reuse,
        buf: Vec::new(),
    };
    for _ in 0..iters {
        let buf = in_bytes.start();
        read_delimited(&mut input, buf, "request")?;
        request.start().merge(&buf[..])?;
        t.handle(&request.value, response.start());
        request.done();
        let buf = out_bytes.encode(&response.value, true)?;
        output.write_all(buf)?;
        output.flush()?;
        response.done();
    }
    Ok(())
}

fn by_pipe<T: TestCase>(c: &Config, t: &T, fault: Fault, sizes: &mut Sizes) -> u64 {
    let mut sum = 0;
    sizes.have = true;
    run_pipe(PROG, c, |from_server, to_server| {
        let mut rng = FastRand::default();
        let mut input = BufReader::new(from_server);
        let mut output = to_server.map(BufWriter::new);
        let mut request = Slot::<T::Request>::new(c.reuse);
        let mut response = Slot::<T::Response>::new(c.reuse);
        let mut out_bytes = Bytes {
            reuse: c.reuse,
            buf: Vec::new(),
        };
        let mut in_bytes = Bytes {
            reuse: c.reuse,
            buf: Vec::new(),
        };
        for i in 0..c.iters {
            let expected = t.setup(&mut rng, request.start());
            let buf = out_bytes.encode(&request.value, true)?;
            request.done();
            let out = output
                .as_mut()
                .ok_or_else(|| Error("request pipe closed".into()))?;
            if i == 0 && fault != Fault::None {
                out.write_all(spoil(buf, fault))?;
                out.flush()?;
                if fault == Fault::Truncate {
                    output = None; // closes the pipe: the server sees the message end early
                }
            } else {
                sizes.request += buf.len() as u64;
                out.write_all(buf)?;
                out.flush()?;
            }
            let buf = in_bytes.start();
            read_delimited(&mut input, buf, "response")?;
            response.start().merge(&buf[..])?;
            t.check(&response.value, expected, &mut sum)?;
            response.done();
        }
        sizes.response = input.get_ref().bytes;
        Ok(())
    });
    sum
}

// ---- main ----------------------------------------------------------------------------------------------------

fn run_case<T: TestCase>(c: &Config, t: &T) {
    let fault = fault_from_env(PROG);
    if c.serve {
        if let Err(Error(msg)) = serve(t, c.iters, c.reuse) {
            die(&format!("{PROG} server"), &msg);
        }
        return;
    }
    let mut sizes = Sizes::default();
    let timer = Timer::start();
    let sum = match c.mode {
        Mode::Object => by_object(t, c.iters, c.reuse),
        Mode::Bytes => by_bytes(t, c.iters, c.reuse, fault, &mut sizes),
        Mode::Pipe => Ok(by_pipe(c, t, fault, &mut sizes)),
    }
    .unwrap_or_else(|Error(msg)| die(PROG, &msg));
    let ns = timer.ns();
    print_result(c, &t.format(sum), ns, sizes);
}

fn main() {
    let c = parse_args(PROG);
    match c.case {
        Case::CarSales => run_case(&c, &CarSales),
        Case::CatRank => run_case(&c, &CatRank),
        Case::Eval => run_case(&c, &Eval),
    }
}
