// Protocol Buffers C++ (Debian libprotobuf 3.21) for the same three cases, as upstream's protobuf-* programs: varint length prefix on the pipe, reuse = keep the message objects and Clear() them.
//
// usage: protobuf CASE CONFIG ITERS_FILE
//   object: build the request message, handle it into a response message, check it.
//   bytes: SerializePartialToString / ParsePartialFromString through std::strings (no length prefix).
//   pipe: fork a server; each message is prefixed by its size as a varint (upstream's framing).
//   protobuf has no packed encoding: the -packed configs run the plain one (upstream does the same).
//   reuse: the message objects and strings are kept for the whole run and Clear()ed after each use;
//   otherwise each iteration constructs and destroys its own.
//   CAPNP_BENCH_FAULT=truncate|garbage spoils the first request's bytes (tests of the error path).
#include "common.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "carsales.pb.h"
#include "catrank.pb.h"
#include "eval.pb.h"

using namespace iorace;
namespace pbio = google::protobuf::io;

// ---- carsales ------------------------------------------------------------------------------------------

struct CarSales {
  using Request = benchpb::ParkingLot;
  using Response = benchpb::TotalValue;
  using Expectation = uint64_t;

  static uint64_t car_value(const benchpb::Car& car) {
    uint64_t result = car.seats() * 200 + car.doors() * 350;
    for (auto& wheel : car.wheel()) result += wheel.diameter() * wheel.diameter() + (wheel.snow_tires() ? 100 : 0);
    result += car.length() * car.width() * car.height() / 50;
    auto& engine = car.engine();
    result += engine.horsepower() * 40;
    if (engine.uses_electric()) result += engine.uses_gas() ? 5000 : 3000;
    result += car.has_power_windows() ? 100 : 0;
    result += car.has_power_steering() ? 200 : 0;
    result += car.has_cruise_control() ? 400 : 0;
    result += car.has_nav_system() ? 2000 : 0;
    result += car.cup_holders() * 25;
    return result;
  }

  static void random_car(FastRand& rng, benchpb::Car* car) {
    car->set_make(MAKES[rng.below(5)]);
    car->set_model(MODELS[rng.below(6)]);
    car->set_color((benchpb::Color)rng.below(benchpb::Color_MAX + 1));
    car->set_seats(2 + rng.below(6));
    car->set_doors(2 + rng.below(3));
    for (int i = 0; i < 4; i++) {
      auto* wheel = car->add_wheel();
      wheel->set_diameter(25 + rng.below(15));
      wheel->set_air_pressure(30 + rng.real(20));
      wheel->set_snow_tires(rng.below(16) == 0);
    }
    car->set_length(170 + rng.below(150));
    car->set_width(48 + rng.below(36));
    car->set_height(54 + rng.below(48));
    car->set_weight(car->length() * car->width() * car->height() / 200);
    auto* engine = car->mutable_engine();
    engine->set_horsepower(100 * rng.below(400));
    engine->set_cylinders(4 + 2 * rng.below(3));
    engine->set_cc(800 + rng.below(10000));
    engine->set_uses_gas(true);
    engine->set_uses_electric(rng.below(2));
    car->set_fuel_capacity(10.0 + rng.real(30.0));
    car->set_fuel_level(rng.real(car->fuel_capacity()));
    car->set_has_power_windows(rng.below(2));
    car->set_has_power_steering(rng.below(2));
    car->set_has_cruise_control(rng.below(2));
    car->set_cup_holders(rng.below(12));
    car->set_has_nav_system(rng.below(2));
  }

  static uint64_t setup(FastRand& rng, Request* request) {
    uint64_t total = 0;
    uint32_t count = rng.below(200);
    for (uint32_t i = 0; i < count; i++) {
      auto* car = request->add_car();
      random_car(rng, car);
      total += car_value(*car);
    }
    return total;
  }
  static void handle(const Request& request, Response* response) {
    uint64_t total = 0;
    for (auto& car : request.car()) total += car_value(car);
    response->set_amount(total);
  }
  static void check(const Response& response, uint64_t expected, uint64_t& sum) {
    if (response.amount() != expected)
      throw CheckFailed("carsales: expected amount " + std::to_string(expected) + ", got " +
                        std::to_string(response.amount()));
    sum += response.amount();
  }
  static std::string format(uint64_t sum) { return std::to_string(sum); }
};

// ---- catrank -------------------------------------------------------------------------------------------

struct CatRank {
  using Request = benchpb::SearchResultList;
  using Response = benchpb::SearchResultList;
  using Expectation = int;

  static int setup(FastRand& rng, Request* request) {
    int count = rng.below(1000);
    int good = 0;
    for (int i = 0; i < count; i++) {
      auto* result = request->add_result();
      result->set_score(1000 - i);
      int url_size = rng.below(100);
      std::string* url = result->mutable_url();
      url->reserve(sizeof(URL_PREFIX) - 1 + url_size);
      url->assign(URL_PREFIX);
      for (int j = 0; j < url_size; j++) url->push_back('a' + rng.below(26));

      bool is_cat = rng.below(8) == 0;
      bool is_dog = rng.below(8) == 0;
      good += is_cat && !is_dog;
      std::string* snippet = result->mutable_snippet();
      snippet->push_back(' ');
      int prefix = rng.below(20);
      for (int j = 0; j < prefix; j++) snippet->append(WORDS[rng.below(WORDS_COUNT)]);
      if (is_cat) snippet->append("cat ");
      if (is_dog) snippet->append("dog ");
      int suffix = rng.below(20);
      for (int j = 0; j < suffix; j++) snippet->append(WORDS[rng.below(WORDS_COUNT)]);
    }
    return good;
  }

  struct Scored {
    double score;
    const benchpb::SearchResult* result;
    bool operator<(const Scored& other) const { return score > other.score; }
  };

  static void handle(const Request& request, Response* response) {
    std::vector<Scored> scored;
    for (auto& result : request.result()) {
      double score = result.score();
      if (result.snippet().find(" cat ") != std::string::npos) score *= 10000;
      if (result.snippet().find(" dog ") != std::string::npos) score /= 10000;
      scored.push_back({score, &result});
    }
    std::sort(scored.begin(), scored.end());
    for (auto& s : scored) {
      auto* out = response->add_result();
      out->set_score(s.score);
      out->set_url(s.result->url());
      out->set_snippet(s.result->snippet());
    }
  }

  static void check(const Response& response, int expected, uint64_t& sum) {
    int good = 0;
    uint64_t text_bytes = 0;
    for (auto& result : response.result()) {  // upstream's check: stops at the first result that is not good
      if (result.score() > 1001) {
        ++good;
        text_bytes += result.url().size() + result.snippet().size();
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

struct Eval {
  using Request = benchpb::Expression;
  using Response = benchpb::EvaluationResult;
  using Expectation = int32_t;

  static int32_t apply(benchpb::Operation op, int32_t left, int32_t right) {
    switch (op) {
      case benchpb::ADD: return add32(left, right);
      case benchpb::SUBTRACT: return sub32(left, right);
      case benchpb::MULTIPLY: return mul32(left, right);
      case benchpb::DIVIDE: return div32(left, right);
      case benchpb::MODULUS: return mod32(left, right);
    }
    throw std::runtime_error("eval: unknown operation");
  }

  static int32_t make(FastRand& rng, benchpb::Expression* exp, uint32_t depth) {
    exp->set_op((benchpb::Operation)rng.below(benchpb::Operation_MAX + 1));
    int32_t left, right;
    if (rng.below(8) < depth) {
      left = rng.below(128) + 1;
      exp->set_left_value(left);
    } else {
      left = make(rng, exp->mutable_left_expression(), depth + 1);
    }
    if (rng.below(8) < depth) {
      right = rng.below(128) + 1;
      exp->set_right_value(right);
    } else {
      right = make(rng, exp->mutable_right_expression(), depth + 1);
    }
    return apply(exp->op(), left, right);
  }

  static int32_t evaluate(const benchpb::Expression& exp) {
    int32_t left = exp.has_left_value() ? exp.left_value() : evaluate(exp.left_expression());
    int32_t right = exp.has_right_value() ? exp.right_value() : evaluate(exp.right_expression());
    return apply(exp.op(), left, right);
  }

  static int32_t setup(FastRand& rng, Request* request) { return make(rng, request, 0); }
  static void handle(const Request& request, Response* response) { response->set_value(evaluate(request)); }
  static void check(const Response& response, int32_t expected, uint64_t& sum) {
    if (response.value() != expected)
      throw CheckFailed("eval: expected " + std::to_string(expected) + ", got " + std::to_string(response.value()));
    sum += (uint64_t)(int64_t)response.value();
  }
  static std::string format(uint64_t sum) { return std::to_string((int64_t)sum); }
};

// ---- reuse: one object kept and cleared, or a fresh one per use ---------------------------------------------

inline void clear(google::protobuf::MessageLite& m) { m.Clear(); }
inline void clear(std::string& s) { s.clear(); }

template <typename M>
struct Slot {
  bool reuse;
  M kept;
  std::optional<M> fresh;
  explicit Slot(bool r) : reuse(r) {}
  M& start() {
    if (reuse) return kept;
    fresh.emplace();
    return *fresh;
  }
  void done() {
    if (reuse) {
      clear(kept);
    } else {
      fresh.reset();
    }
  }
};

static void spoil(std::string& bytes, Fault fault) {
  if (fault == Fault::truncate) bytes.resize(bytes.size() / 2);
  if (fault == Fault::garbage) memset(&bytes[0], 0xff, std::min<size_t>(8, bytes.size()));
}

// ---- object and bytes ----------------------------------------------------------------------------------

template <typename C>
uint64_t by_object(uint64_t iters, bool reuse) {
  FastRand rng;
  uint64_t sum = 0;
  Slot<typename C::Request> request_slot(reuse);
  Slot<typename C::Response> response_slot(reuse);
  for (uint64_t i = 0; i < iters; i++) {
    auto& request = request_slot.start();
    auto expected = C::setup(rng, &request);
    auto& response = response_slot.start();
    C::handle(request, &response);
    request_slot.done();
    C::check(response, expected, sum);
    response_slot.done();
  }
  return sum;
}

template <typename C>
uint64_t by_bytes(uint64_t iters, bool reuse, Fault fault, Sizes& sizes) {
  FastRand rng;
  uint64_t sum = 0;
  Slot<typename C::Request> client_request(reuse), server_request(reuse);
  Slot<typename C::Response> server_response(reuse), client_response(reuse);
  Slot<std::string> request_bytes(reuse), response_bytes(reuse);
  sizes.have = true;
  for (uint64_t i = 0; i < iters; i++) {
    auto& request = client_request.start();
    auto expected = C::setup(rng, &request);
    auto& request_string = request_bytes.start();
    request.SerializePartialToString(&request_string);
    sizes.request += request_string.size();
    client_request.done();
    if (i == 0 && fault != Fault::none) spoil(request_string, fault);

    auto& server_in = server_request.start();
    if (!server_in.ParsePartialFromString(request_string)) throw std::runtime_error("the request does not parse");
    request_bytes.done();
    auto& server_out = server_response.start();
    C::handle(server_in, &server_out);
    server_request.done();

    auto& response_string = response_bytes.start();
    server_out.SerializePartialToString(&response_string);
    sizes.response += response_string.size();
    server_response.done();

    auto& response = client_response.start();
    if (!response.ParsePartialFromString(response_string)) throw std::runtime_error("the response does not parse");
    response_bytes.done();
    C::check(response, expected, sum);
    client_response.done();
  }
  return sum;
}

// ---- pipe: varint-prefixed messages over two pipes -----------------------------------------------------------

// protobuf's copying streams over the pipe ends, through the shared fd helpers (EOF / EPIPE bookkeeping).
// They report errors the protobuf way (-1, false), never by throwing: the adaptors call them from their
// destructors too.
class PipeIn : public pbio::CopyingInputStream {
 public:
  explicit PipeIn(int fd) : fd_(fd) {}
  int Read(void* buffer, int size) override {
    try {
      size_t n = fd_read_some(fd_, buffer, size);
      bytes += n;
      return (int)n;
    } catch (const std::exception&) {
      return -1;
    }
  }
  uint64_t bytes = 0;

 private:
  int fd_;
};

class PipeOut : public pbio::CopyingOutputStream {
 public:
  explicit PipeOut(int fd) : fd_(fd) {}
  bool Write(const void* buffer, int size) override {
    try {
      fd_write_all(fd_, buffer, size);
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }

 private:
  int fd_;
};

// Upstream's framing: the size as a varint, then the message, written straight into the stream's buffer.
static uint64_t write_delimited(const google::protobuf::MessageLite& message, pbio::CopyingOutputStreamAdaptor* raw) {
  pbio::CodedOutputStream out(raw);
  const size_t size = message.ByteSizeLong();
  out.WriteVarint32((uint32_t)size);
  uint8_t* buffer = out.GetDirectBufferForNBytesAndAdvance((int)size);
  if (buffer != nullptr) {
    message.SerializeWithCachedSizesToArray(buffer);
  } else {
    message.SerializeWithCachedSizes(&out);
  }
  if (out.HadError()) throw std::runtime_error("write to pipe failed");
  return pbio::CodedOutputStream::VarintSize32((uint32_t)size) + size;
}

static void read_delimited(pbio::ZeroCopyInputStream* raw, google::protobuf::MessageLite* message, const char* what) {
  pbio::CodedInputStream in(raw);
  uint32_t size;
  if (!in.ReadVarint32(&size)) throw std::runtime_error(std::string("no ") + what + " size (premature EOF or garbage)");
  auto limit = in.PushLimit((int)size);
  if (!message->MergePartialFromCodedStream(&in) || !in.ConsumedEntireMessage())
    throw std::runtime_error(std::string("the ") + what + " does not parse (truncated or corrupt)");
  in.PopLimit(limit);
}

template <typename C>
void serve(int in_fd, int out_fd, uint64_t iters, bool reuse) {
  PipeIn in_raw(in_fd);
  pbio::CopyingInputStreamAdaptor in(&in_raw);
  PipeOut out_raw(out_fd);
  pbio::CopyingOutputStreamAdaptor out(&out_raw);
  Slot<typename C::Request> request_slot(reuse);
  Slot<typename C::Response> response_slot(reuse);
  for (uint64_t i = 0; i < iters; i++) {
    auto& request = request_slot.start();
    read_delimited(&in, &request, "request");
    auto& response = response_slot.start();
    C::handle(request, &response);
    request_slot.done();
    write_delimited(response, &out);
    if (!out.Flush()) throw std::runtime_error("write to pipe failed");
    response_slot.done();
  }
}

template <typename C>
uint64_t by_pipe(uint64_t iters, bool reuse, Fault fault, Sizes& sizes) {
  uint64_t sum = 0;
  sizes.have = true;
  auto server = [&](int in, int out) { serve<C>(in, out, iters, reuse); };
  auto client = [&](int in_fd, int out_fd) {
    FastRand rng;
    PipeIn in_raw(in_fd);
    pbio::CopyingInputStreamAdaptor in(&in_raw);
    PipeOut out_raw(out_fd);
    pbio::CopyingOutputStreamAdaptor out(&out_raw);
    Slot<typename C::Request> request_slot(reuse);
    Slot<typename C::Response> response_slot(reuse);
    for (uint64_t i = 0; i < iters; i++) {
      auto& request = request_slot.start();
      auto expected = C::setup(rng, &request);
      if (i == 0 && fault != Fault::none) {
        std::string framed;
        {
          pbio::StringOutputStream s(&framed);
          pbio::CodedOutputStream coded(&s);
          coded.WriteVarint32((uint32_t)request.ByteSizeLong());
          request.SerializeWithCachedSizes(&coded);
        }
        spoil(framed, fault);
        fd_write_all(out_fd, framed.data(), framed.size());
        if (fault == Fault::truncate) close_pipe(out_fd);  // the server sees the message end early
      } else {
        sizes.request += write_delimited(request, &out);
        if (!out.Flush()) throw std::runtime_error("write to pipe failed");
      }
      request_slot.done();
      auto& response = response_slot.start();
      read_delimited(&in, &response, "response");
      C::check(response, expected, sum);
      response_slot.done();
    }
    sizes.response = in_raw.bytes;
  };
  run_pipe("protobuf", server, client);
  return sum;
}

// ---- main ----------------------------------------------------------------------------------------------------

template <typename C>
void main_case(const Config& c, Fault fault) {
  Sizes sizes;
  int64_t start = now_ns();
  uint64_t sum = 0;
  try {
    switch (c.mode) {
      case Mode::object: sum = by_object<C>(c.iters, c.reuse); break;
      case Mode::bytes: sum = by_bytes<C>(c.iters, c.reuse, fault, sizes); break;
      case Mode::pipe: sum = by_pipe<C>(c.iters, c.reuse, fault, sizes); break;
    }
  } catch (const std::exception& e) {
    die(e.what());
  }
  int64_t elapsed = now_ns() - start;
  print_result(c, C::format(sum), elapsed, sizes);
}

int main(int argc, char** argv) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  g_prog = "protobuf";
  Config c = parse_args(argc, argv);
  Fault fault = fault_from_env();
  switch (c.kase) {
    case Case::carsales: main_case<CarSales>(c, fault); break;
    case Case::catrank: main_case<CatRank>(c, fault); break;
    case Case::eval: main_case<Eval>(c, fault); break;
  }
  return 0;
}
