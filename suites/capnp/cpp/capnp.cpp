// Cap'n Proto C++ (Debian libcapnp) as upstream's capnproto-* benchmark programs (their case code, function by function), in every config; reuse = builders and readers take their first segment from a preallocated scratch buffer.
//
// usage: capnp CASE CONFIG ITERS_FILE
//   CASE carsales | catrank | eval; CONFIG object[-reuse] | bytes[-packed][-reuse] | pipe[-packed][-reuse];
//   ITERS_FILE holds lines `CASE COUNT`. Prints {"iterations", "checksum"} of what the client decoded.
//   object: build the request, handle it, check the response, all in memory.
//   bytes:  serialise the request into a byte array, read it back, handle it, serialise the response, read
//           it back, check it. pipe: fork a server process; requests and responses cross two pipes.
//   CAPNP_BENCH_FAULT=truncate|garbage spoils the first request's bytes (tests of the error path).
#include "common.hpp"

#include <algorithm>
#include <vector>

#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/exception.h>
#include <kj/io.h>

#include "carsales.capnp.h"
#include "catrank.capnp.h"
#include "eval.capnp.h"

using namespace iorace;

// ---- the generator ---------------------------------------------------------------------------------------

// Upstream's (benchmark/common.h nextFastRand): the state in static variables, drawn by every setup function
// directly. Their address is never taken, so no store into a message can alias them.
static inline uint32_t next_fast_rand() {
  static uint32_t x = 0x1d2acd47;
  static uint32_t y = 0x58ca3e14;
  static uint32_t z = 0xf563f232;
  static uint32_t w = 0x0bc76199;
  uint32_t tmp = x ^ (x << 11);
  x = y;
  y = z;
  z = w;
  w = w ^ (w >> 19) ^ tmp ^ (tmp >> 8);
  return w;
}
static inline uint32_t fast_rand(uint32_t range) { return next_fast_rand() % range; }
static inline double fast_rand_double(double range) {
  return next_fast_rand() * range / std::numeric_limits<uint32_t>::max();
}

// The case code is upstream's (capnproto-{carsales,catrank,eval}.c++ at v0.9.2), function by function: free
// functions with external linkage where upstream has them, so GCC compiles the same calls.
namespace cases {

// ---- carsales ------------------------------------------------------------------------------------------

template <typename CarReaderOrBuilder>
uint64_t car_value(CarReaderOrBuilder car) {
  uint64_t result = 0;
  result += car.getSeats() * 200;
  result += car.getDoors() * 350;
  for (auto wheel : car.getWheels()) {
    result += wheel.getDiameter() * wheel.getDiameter();
    result += wheel.getSnowTires() ? 100 : 0;
  }
  result += car.getLength() * car.getWidth() * car.getHeight() / 50;
  auto engine = car.getEngine();
  result += engine.getHorsepower() * 40;
  if (engine.getUsesElectric()) result += engine.getUsesGas() ? 5000 : 3000;
  result += car.getHasPowerWindows() ? 100 : 0;
  result += car.getHasPowerSteering() ? 200 : 0;
  result += car.getHasCruiseControl() ? 400 : 0;
  result += car.getHasNavSystem() ? 2000 : 0;
  result += car.getCupHolders() * 25;
  return result;
}

void random_car(bench::Car::Builder car) {
  car.setMake(MAKES[fast_rand(5)]);
  car.setModel(MODELS[fast_rand(6)]);
  car.setColor((bench::Color)fast_rand((uint32_t)bench::Color::SILVER + 1));
  car.setSeats(2 + fast_rand(6));
  car.setDoors(2 + fast_rand(3));
  for (auto wheel : car.initWheels(4)) {
    wheel.setDiameter(25 + fast_rand(15));
    wheel.setAirPressure(30 + fast_rand_double(20));
    wheel.setSnowTires(fast_rand(16) == 0);
  }
  car.setLength(170 + fast_rand(150));
  car.setWidth(48 + fast_rand(36));
  car.setHeight(54 + fast_rand(48));
  car.setWeight(car.getLength() * car.getWidth() * car.getHeight() / 200);
  auto engine = car.initEngine();
  engine.setHorsepower(100 * fast_rand(400));
  engine.setCylinders(4 + 2 * fast_rand(3));
  engine.setCc(800 + fast_rand(10000));
  engine.setUsesGas(true);
  engine.setUsesElectric(fast_rand(2));
  car.setFuelCapacity(10.0 + fast_rand_double(30.0));
  car.setFuelLevel(fast_rand_double(car.getFuelCapacity()));
  car.setHasPowerWindows(fast_rand(2));
  car.setHasPowerSteering(fast_rand(2));
  car.setHasCruiseControl(fast_rand(2));
  car.setCupHolders(fast_rand(12));
  car.setHasNavSystem(fast_rand(2));
}

}  // namespace cases

struct CarSales {
  using Request = bench::ParkingLot;
  using Response = bench::TotalValue;
  using Expectation = uint64_t;

  static uint64_t setup(Request::Builder request) {
    uint64_t total = 0;
    for (auto car : request.initCars(fast_rand(200))) {
      cases::random_car(car);
      total += cases::car_value(car);
    }
    return total;
  }

  static void handle(Request::Reader request, Response::Builder response) {
    uint64_t total = 0;
    for (auto car : request.getCars()) total += cases::car_value(car);
    response.setAmount(total);
  }

  // checksum: the sum of the amounts (wrapping uint64)
  static void check(Response::Reader response, uint64_t expected, uint64_t& sum) {
    uint64_t amount = response.getAmount();
    if (amount != expected)
      throw CheckFailed("carsales: expected amount " + std::to_string(expected) + ", got " + std::to_string(amount));
    sum += amount;
  }
  static std::string format(uint64_t sum) { return std::to_string(sum); }
};

// ---- catrank -------------------------------------------------------------------------------------------

struct CatRank {
  using Request = bench::SearchResultList;
  using Response = bench::SearchResultList;
  using Expectation = int;

  static int setup(Request::Builder request) {
    int count = fast_rand(1000);
    int good = 0;
    auto list = request.initResults(count);
    for (int i = 0; i < count; i++) {
      bench::SearchResult::Builder result = list[i];
      result.setScore(1000 - i);
      int url_size = fast_rand(100);
      size_t prefix_len = strlen(URL_PREFIX);
      auto url = result.initUrl(url_size + prefix_len);
      strcpy(url.begin(), URL_PREFIX);
      char* pos = url.begin() + prefix_len;
      for (int j = 0; j < url_size; j++) *pos++ = 'a' + fast_rand(26);

      bool is_cat = fast_rand(8) == 0;
      bool is_dog = fast_rand(8) == 0;
      good += is_cat && !is_dog;
      static std::string snippet;
      snippet.clear();
      snippet.push_back(' ');
      int prefix = fast_rand(20);
      for (int j = 0; j < prefix; j++) snippet.append(WORDS[fast_rand(WORDS_COUNT)]);
      if (is_cat) snippet.append("cat ");
      if (is_dog) snippet.append("dog ");
      int suffix = fast_rand(20);
      for (int j = 0; j < suffix; j++) snippet.append(WORDS[fast_rand(WORDS_COUNT)]);
      result.setSnippet(capnp::Text::Reader(snippet.c_str(), snippet.size()));
    }
    return good;
  }

  struct Scored {
    double score;
    bench::SearchResult::Reader result;
    bool operator<(const Scored& other) const { return score > other.score; }
  };

  static void handle(Request::Reader request, Response::Builder response) {
    std::vector<Scored> scored;
    for (auto result : request.getResults()) {
      double score = result.getScore();
      if (strstr(result.getSnippet().cStr(), " cat ") != nullptr) score *= 10000;
      if (strstr(result.getSnippet().cStr(), " dog ") != nullptr) score /= 10000;
      scored.push_back({score, result});
    }
    std::sort(scored.begin(), scored.end());
    auto list = response.initResults(scored.size());
    auto out = list.begin();
    for (auto& s : scored) {
      out->setScore(s.score);
      out->setUrl(s.result.getUrl());
      out->setSnippet(s.result.getSnippet());
      ++out;
    }
  }

  // checksum: (leading results with score > 1001) << 32, plus the bytes of their urls and snippets; like
  // upstream's check, it stops at the first result that is not good
  static void check(Response::Reader response, int expected, uint64_t& sum) {
    int good = 0;
    uint64_t text_bytes = 0;
    for (auto result : response.getResults()) {
      if (result.getScore() > 1001) {
        ++good;
        text_bytes += result.getUrl().size() + result.getSnippet().size();
      } else {
        break;
      }
    }
    if (good != expected)
      throw CheckFailed("catrank: expected " + std::to_string(expected) + " good results, got " + std::to_string(good));
    sum += ((uint64_t)good << 32) + text_bytes;
  }
  static std::string format(uint64_t sum) { return std::to_string(sum); }
};

// ---- eval ----------------------------------------------------------------------------------------------

namespace cases {

int32_t make_expression(bench::Expression::Builder exp, uint32_t depth) {
  exp.setOp((bench::Operation)fast_rand((uint32_t)bench::Operation::MODULUS + 1));
  uint32_t left, right;
  if (fast_rand(8) < depth) {
    left = fast_rand(128) + 1;
    exp.getLeft().setValue(left);
  } else {
    left = make_expression(exp.getLeft().initExpression(), depth + 1);
  }
  if (fast_rand(8) < depth) {
    right = fast_rand(128) + 1;
    exp.getRight().setValue(right);
  } else {
    right = make_expression(exp.getRight().initExpression(), depth + 1);
  }
  switch (exp.getOp()) {  // wrapping: uint32_t arithmetic, as upstream's generator
    case bench::Operation::ADD: return left + right;
    case bench::Operation::SUBTRACT: return left - right;
    case bench::Operation::MULTIPLY: return left * right;
    case bench::Operation::DIVIDE: return div32(left, right);
    case bench::Operation::MODULUS: return mod32(left, right);
  }
  throw std::logic_error("eval: unknown operation");
}

// The reader is passed by value to a function with external linkage, as upstream's evaluateExpression: the
// x86-64 ABI passes it in memory, a copy on the stack for every call. capnp_eval_local.cpp defines
// CAPNP_EVAL_LOCAL: internal linkage, and GCC's IPA-SRA passes the reader's fields in registers instead.
#ifdef CAPNP_EVAL_LOCAL
#define CAPNP_EVAL_LINKAGE static
#else
#define CAPNP_EVAL_LINKAGE
#endif
CAPNP_EVAL_LINKAGE int32_t evaluate(bench::Expression::Reader exp) {
  int32_t left = 0, right = 0;
  switch (exp.getLeft().which()) {
    case bench::Expression::Left::VALUE: left = exp.getLeft().getValue(); break;
    case bench::Expression::Left::EXPRESSION: left = evaluate(exp.getLeft().getExpression()); break;
  }
  switch (exp.getRight().which()) {
    case bench::Expression::Right::VALUE: right = exp.getRight().getValue(); break;
    case bench::Expression::Right::EXPRESSION: right = evaluate(exp.getRight().getExpression()); break;
  }
  switch (exp.getOp()) {
    case bench::Operation::ADD: return add32(left, right);
    case bench::Operation::SUBTRACT: return sub32(left, right);
    case bench::Operation::MULTIPLY: return mul32(left, right);
    case bench::Operation::DIVIDE: return div32(left, right);
    case bench::Operation::MODULUS: return mod32(left, right);
  }
  throw std::logic_error("eval: unknown operation");
}

}  // namespace cases

struct Eval {
  using Request = bench::Expression;
  using Response = bench::EvaluationResult;
  using Expectation = int32_t;

  static int32_t setup(Request::Builder request) { return cases::make_expression(request, 0); }
  static void handle(Request::Reader request, Response::Builder response) {
    response.setValue(cases::evaluate(request));
  }

  // checksum: the sum of the values as a wrapping int64
  static void check(Response::Reader response, int32_t expected, uint64_t& sum) {
    int32_t value = response.getValue();
    if (value != expected)
      throw CheckFailed("eval: expected " + std::to_string(expected) + ", got " + std::to_string(value));
    sum += (uint64_t)(int64_t)value;
  }
  static std::string format(uint64_t sum) { return std::to_string((int64_t)sum); }
};

// ---- scratch space (reuse) -------------------------------------------------------------------------------

constexpr size_t SCRATCH_WORDS = 128 * 1024;  // 1 MiB each, as upstream
static capnp::word g_scratch[6][SCRATCH_WORDS];  // zeroed (bss), as MallocMessageBuilder requires
static int g_scratch_used = 0;

static kj::ArrayPtr<capnp::word> take_scratch() {
  if (g_scratch_used == 6) throw std::logic_error("too many scratch spaces");
  return kj::arrayPtr(g_scratch[g_scratch_used++], SCRATCH_WORDS);
}

// With Reuse, a builder's first segment and a reader's buffer are one scratch area kept for the whole run;
// without it they are allocated (and freed) for every message.
template <bool Reuse>
struct Space {
  kj::ArrayPtr<capnp::word> words = Reuse ? take_scratch() : nullptr;
};

template <bool Reuse>
struct Builder;
template <>
struct Builder<true> : capnp::MallocMessageBuilder {
  explicit Builder(Space<true>& s) : capnp::MallocMessageBuilder(s.words) {}
};
template <>
struct Builder<false> : capnp::MallocMessageBuilder {
  explicit Builder(Space<false>&) {}
};

static void write_message(kj::OutputStream& out, capnp::MessageBuilder& message, bool packed) {
  if (packed) {
    capnp::writePackedMessage(out, message);
  } else {
    capnp::writeMessage(out, message);
  }
}

static kj::ArrayPtr<kj::byte> spoil(kj::ArrayPtr<kj::byte> bytes, Fault fault) {
  if (fault == Fault::truncate) return bytes.slice(0, (bytes.size() / 2) & ~size_t(7));
  if (fault == Fault::garbage) memset(bytes.begin(), 0xff, std::min<size_t>(8, bytes.size()));
  return bytes;
}

// ---- object ----------------------------------------------------------------------------------------------

template <typename C, bool Reuse>
uint64_t by_object(uint64_t iters, Sizes&) {
  uint64_t sum = 0;
  Space<Reuse> request_space, response_space;
  for (uint64_t i = 0; i < iters; i++) {
    Builder<Reuse> request_message(request_space);
    auto request = request_message.template initRoot<typename C::Request>();
    auto expected = C::setup(request);
    Builder<Reuse> response_message(response_space);
    auto response = response_message.template initRoot<typename C::Response>();
    C::handle(request.asReader(), response);
    C::check(response.asReader(), expected, sum);
  }
  return sum;
}

// ---- bytes -----------------------------------------------------------------------------------------------

// A message read back from a byte array, as upstream's Compression::ArrayMessageReader: in place when
// unpacked, unpacked into `scratch` (or an allocated buffer) when packed.
template <bool Packed>
struct ArrayReader;
template <>
struct ArrayReader<false> : capnp::FlatArrayMessageReader {
  ArrayReader(kj::ArrayPtr<kj::byte> bytes, kj::ArrayPtr<capnp::word>)
      : capnp::FlatArrayMessageReader(
            kj::arrayPtr(reinterpret_cast<const capnp::word*>(bytes.begin()), bytes.size() / sizeof(capnp::word))) {}
};
template <>
struct ArrayReader<true> : private kj::ArrayInputStream, public capnp::PackedMessageReader {
  ArrayReader(kj::ArrayPtr<kj::byte> bytes, kj::ArrayPtr<capnp::word> scratch)
      : kj::ArrayInputStream(bytes), capnp::PackedMessageReader(*this, capnp::ReaderOptions(), scratch) {}
};

// upstream's passByBytes, step by step: the same objects made in the same order and alive as long (both
// readers until the end of the iteration), so the heap sees the same allocations and frees
template <typename C, bool Reuse, bool Packed>
uint64_t by_bytes(uint64_t iters, Fault fault, Sizes& sizes) {
  uint64_t sum = 0;
  Space<Reuse> client_request;
  Space<true> request_bytes;  // the byte arrays are always preallocated, as upstream
  Space<Reuse> server_request, server_response;
  Space<true> response_bytes;
  Space<Reuse> client_response;
  sizes.have = true;
  for (uint64_t i = 0; i < iters; i++) {
    Builder<Reuse> request_builder(client_request);
    auto expected = C::setup(request_builder.template initRoot<typename C::Request>());
    kj::ArrayOutputStream request_out(request_bytes.words.asBytes());
    write_message(request_out, request_builder, Packed);
    auto request_array = request_out.getArray();
    sizes.request += request_array.size();
    if (i == 0 && fault != Fault::none) request_array = spoil(request_array, fault);
    ArrayReader<Packed> request_reader(request_array, server_request.words);

    Builder<Reuse> response_builder(server_response);
    C::handle(request_reader.template getRoot<typename C::Request>(),
              response_builder.template initRoot<typename C::Response>());

    kj::ArrayOutputStream response_out(response_bytes.words.asBytes());
    write_message(response_out, response_builder, Packed);
    auto response_array = response_out.getArray();
    sizes.response += response_array.size();
    ArrayReader<Packed> response_reader(response_array, client_response.words);
    C::check(response_reader.template getRoot<typename C::Response>(), expected, sum);
  }
  return sum;
}

// ---- pipe ------------------------------------------------------------------------------------------------

// Unbuffered pipe ends (as upstream's kj::FdInputStream / FdOutputStream) that count the bytes they move.
class PipeInput : public kj::InputStream {
 public:
  explicit PipeInput(int fd) : fd_(fd) {}
  size_t tryRead(void* buffer, size_t min_bytes, size_t max_bytes) override {
    size_t total = 0;
    while (total < min_bytes) {
      size_t n = fd_read_some(fd_, static_cast<char*>(buffer) + total, max_bytes - total);
      if (n == 0) break;
      total += n;
    }
    bytes += total;
    return total;
  }
  uint64_t bytes = 0;

 private:
  int fd_;
};

class PipeOutput : public kj::OutputStream {
 public:
  explicit PipeOutput(int fd) : fd_(fd) {}
  void write(const void* buffer, size_t size) override {
    fd_write_all(fd_, buffer, size);
    bytes += size;
  }
  void write(kj::ArrayPtr<const kj::ArrayPtr<const kj::byte>> pieces) override {
    std::vector<struct iovec> iov;
    iov.reserve(pieces.size());
    for (auto& p : pieces) {
      iov.push_back({const_cast<kj::byte*>(p.begin()), p.size()});
      bytes += p.size();
    }
    fd_writev_all(fd_, iov.data(), (int)iov.size());
  }
  uint64_t bytes = 0;

 private:
  int fd_;
};

// kj's exceptions carry a file:line and a stack trace; the error line keeps the description only.
template <typename F>
void kj_guard(F f) {
  try {
    f();
  } catch (const kj::Exception& e) {
    throw std::runtime_error(e.getDescription().cStr());
  }
}

template <typename C, bool Reuse>
void serve(int in_fd, int out_fd, uint64_t iters, bool packed) {
  kj_guard([&] {
    PipeInput raw_in(in_fd);
    kj::BufferedInputStreamWrapper buffered_in(raw_in);
    PipeOutput out(out_fd);
    Space<Reuse> reader_space, builder_space;
    capnp::ReaderOptions options;
    for (uint64_t i = 0; i < iters; i++) {
      Builder<Reuse> response(builder_space);
      if (packed) {
        capnp::PackedMessageReader reader(buffered_in, options, reader_space.words);
        C::handle(reader.getRoot<typename C::Request>(), response.template initRoot<typename C::Response>());
      } else {
        capnp::InputStreamMessageReader reader(raw_in, options, reader_space.words);
        C::handle(reader.getRoot<typename C::Request>(), response.template initRoot<typename C::Response>());
      }
      write_message(out, response, packed);
    }
  });
}

template <typename C, bool Reuse>
uint64_t by_pipe(uint64_t iters, bool packed, Fault fault, Sizes& sizes) {
  uint64_t sum = 0;
  sizes.have = true;
  auto server = [&](int in, int out) { serve<C, Reuse>(in, out, iters, packed); };
  auto client = [&](int in_fd, int out_fd) {
    kj_guard([&] {
          PipeInput raw_in(in_fd);
      kj::BufferedInputStreamWrapper buffered_in(raw_in);
      PipeOutput out(out_fd);
      Space<Reuse> builder_space, reader_space;
      capnp::ReaderOptions options;
      for (uint64_t i = 0; i < iters; i++) {
        Builder<Reuse> request(builder_space);
        auto expected = C::setup(request.template initRoot<typename C::Request>());
        if (i == 0 && fault != Fault::none) {
          kj::VectorOutputStream encoded;
          write_message(encoded, request, packed);
          auto bytes = spoil(encoded.getArray(), fault);
          out.write(bytes.begin(), bytes.size());
          if (fault == Fault::truncate) close_pipe(out_fd);  // the server sees the message end early
        } else {
          write_message(out, request, packed);
        }
        if (packed) {
          capnp::PackedMessageReader reader(buffered_in, options, reader_space.words);
          C::check(reader.getRoot<typename C::Response>(), expected, sum);
        } else {
          capnp::InputStreamMessageReader reader(raw_in, options, reader_space.words);
          C::check(reader.getRoot<typename C::Response>(), expected, sum);
        }
      }
      sizes.request = out.bytes;
      sizes.response = raw_in.bytes;
    });
  };
  run_pipe("capnp", server, client);
  return sum;
}

// ---- main ------------------------------------------------------------------------------------------------

// kj logs an exception raised while another one unwinds (a reader's destructor skipping the rest of a
// truncated message) with a stack trace; the program's error is the single line it prints itself.
class QuietKj : public kj::ExceptionCallback {
 public:
  void logMessage(kj::LogSeverity, const char*, int, int, kj::String&&) override {}
};

template <typename C, bool Reuse>
uint64_t run(const Config& c, Fault fault, Sizes& sizes) {
  switch (c.mode) {
    case Mode::object: return by_object<C, Reuse>(c.iters, sizes);
    case Mode::bytes:
      return c.packed ? by_bytes<C, Reuse, true>(c.iters, fault, sizes) : by_bytes<C, Reuse, false>(c.iters, fault, sizes);
    case Mode::pipe: return by_pipe<C, Reuse>(c.iters, c.packed, fault, sizes);
  }
  return 0;
}

template <typename C>
void main_case(const Config& c, Fault fault) {
  Sizes sizes;
  int64_t start = now_ns();
  uint64_t sum = 0;
  try {
    kj_guard([&] { sum = c.reuse ? run<C, true>(c, fault, sizes) : run<C, false>(c, fault, sizes); });
  } catch (const std::exception& e) {
    die(e.what());
  }
  int64_t elapsed = now_ns() - start;
  print_result(c, C::format(sum), elapsed, sizes);
}

int main(int argc, char** argv) {
  QuietKj quiet;
  g_prog = "capnp";
  Config c = parse_args(argc, argv);
  Fault fault = fault_from_env();
  switch (c.kase) {
    case Case::carsales: main_case<CarSales>(c, fault); break;
    case Case::catrank: main_case<CatRank>(c, fault); break;
    case Case::eval: main_case<Eval>(c, fault); break;
  }
  return 0;
}
