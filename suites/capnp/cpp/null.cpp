// LIMIT: plain C++ structs in a bump arena, no serialization and no I/O (upstream's null-* programs): the floor for building, handling and checking the messages.
//
// usage: null CASE CONFIG ITERS_FILE
//   Every CONFIG runs the same in-memory pass: upstream's null benchmark has object mode only (its bytes
//   and pipe modes refuse to run); here it answers every config so each table has its floor row, and
//   "x limit" shows what serialization and I/O cost. Reuse makes no difference: the arena is reset for
//   every iteration, as upstream's is. Strings are copied into the arena like the original's.
#include "common.hpp"

#include <algorithm>
#include <new>
#include <vector>

using namespace iorace;

// ---- the arena ---------------------------------------------------------------------------------------------

static uint64_t g_arena[1 << 20];  // 8 MiB
static uint64_t* g_arena_pos = g_arena;

template <typename T>
T* allocate(size_t count = 1) {
  T* result = reinterpret_cast<T*>(g_arena_pos);
  g_arena_pos += (sizeof(T) * count + 7) / 8;
  if (g_arena_pos > g_arena + sizeof(g_arena) / sizeof(g_arena[0])) throw std::bad_alloc();
  return result;
}

static const char* copy_string(const char* s, size_t len) {
  char* out = allocate<char>(len + 1);
  memcpy(out, s, len);
  out[len] = '\0';
  return out;
}

template <typename T>
struct List {
  size_t size = 0;
  T* items = nullptr;
  T* begin() const { return items; }
  T* end() const { return items + size; }
  void init(size_t n) {
    size = n;
    items = allocate<T>(n);
  }
};

// ---- carsales ----------------------------------------------------------------------------------------------

struct CarSales {
  struct Wheel {
    uint16_t diameter;
    float air_pressure;
    bool snow_tires;
  };
  struct Engine {
    uint16_t horsepower;
    uint8_t cylinders;
    uint32_t cc;
    bool uses_gas, uses_electric;
  };
  struct Car {
    const char* make;
    const char* model;
    uint8_t color, seats, doors;
    List<Wheel> wheels;
    uint16_t length, width, height;
    uint32_t weight;
    Engine engine;
    float fuel_capacity, fuel_level;
    bool has_power_windows, has_power_steering, has_cruise_control;
    uint8_t cup_holders;
    bool has_nav_system;
  };
  using Request = List<Car>;
  using Response = uint64_t;
  using Expectation = uint64_t;

  static uint64_t car_value(const Car& car) {
    uint64_t result = car.seats * 200 + car.doors * 350;
    for (auto& wheel : car.wheels) result += wheel.diameter * wheel.diameter + (wheel.snow_tires ? 100 : 0);
    result += car.length * car.width * car.height / 50;
    result += car.engine.horsepower * 40;
    if (car.engine.uses_electric) result += car.engine.uses_gas ? 5000 : 3000;
    result += car.has_power_windows ? 100 : 0;
    result += car.has_power_steering ? 200 : 0;
    result += car.has_cruise_control ? 400 : 0;
    result += car.has_nav_system ? 2000 : 0;
    result += car.cup_holders * 25;
    return result;
  }

  static void random_car(FastRand& rng, Car& car) {
    const char* make = MAKES[rng.below(5)];
    car.make = copy_string(make, strlen(make));
    const char* model = MODELS[rng.below(6)];
    car.model = copy_string(model, strlen(model));
    car.color = rng.below(9);
    car.seats = 2 + rng.below(6);
    car.doors = 2 + rng.below(3);
    car.wheels.init(4);
    for (auto& wheel : car.wheels) {
      wheel.diameter = 25 + rng.below(15);
      wheel.air_pressure = 30 + rng.real(20);
      wheel.snow_tires = rng.below(16) == 0;
    }
    car.length = 170 + rng.below(150);
    car.width = 48 + rng.below(36);
    car.height = 54 + rng.below(48);
    car.weight = car.length * car.width * car.height / 200;
    car.engine.horsepower = 100 * rng.below(400);
    car.engine.cylinders = 4 + 2 * rng.below(3);
    car.engine.cc = 800 + rng.below(10000);
    car.engine.uses_gas = true;
    car.engine.uses_electric = rng.below(2);
    car.fuel_capacity = 10.0 + rng.real(30.0);
    car.fuel_level = rng.real(car.fuel_capacity);
    car.has_power_windows = rng.below(2);
    car.has_power_steering = rng.below(2);
    car.has_cruise_control = rng.below(2);
    car.cup_holders = rng.below(12);
    car.has_nav_system = rng.below(2);
  }

  static uint64_t setup(FastRand& rng, Request& request) {
    uint64_t total = 0;
    request.init(rng.below(200));
    for (auto& car : request) {
      random_car(rng, car);
      total += car_value(car);
    }
    return total;
  }
  static void handle(const Request& request, Response& response) {
    uint64_t total = 0;
    for (auto& car : request) total += car_value(car);
    response = total;
  }
  static void check(const Response& amount, uint64_t expected, uint64_t& sum) {
    if (amount != expected)
      throw CheckFailed("carsales: expected amount " + std::to_string(expected) + ", got " + std::to_string(amount));
    sum += amount;
  }
  static std::string format(uint64_t sum) { return std::to_string(sum); }
};

// ---- catrank -----------------------------------------------------------------------------------------------

struct CatRank {
  struct SearchResult {
    const char* url;
    size_t url_size;
    double score;
    const char* snippet;
    size_t snippet_size;
  };
  using Request = List<SearchResult>;
  using Response = List<SearchResult>;
  using Expectation = int;

  static int setup(FastRand& rng, Request& request) {
    int count = rng.below(1000);
    int good = 0;
    request.init(count);
    const size_t prefix_len = sizeof(URL_PREFIX) - 1;
    for (int i = 0; i < count; i++) {
      SearchResult& result = request.items[i];
      result.score = 1000 - i;
      int url_size = rng.below(100);
      char* url = allocate<char>(prefix_len + url_size + 1);
      memcpy(url, URL_PREFIX, prefix_len);
      for (int j = 0; j < url_size; j++) url[prefix_len + j] = 'a' + rng.below(26);
      url[prefix_len + url_size] = '\0';
      result.url = url;
      result.url_size = prefix_len + url_size;

      bool is_cat = rng.below(8) == 0;
      bool is_dog = rng.below(8) == 0;
      good += is_cat && !is_dog;
      // the snippet is written at the arena's end, then the space it used is taken (as upstream)
      char* start = reinterpret_cast<char*>(g_arena_pos);
      char* pos = start;
      *pos++ = ' ';
      auto words = [&](int n) {
        for (int j = 0; j < n; j++) {
          const char* word = WORDS[rng.below(WORDS_COUNT)];
          size_t len = strlen(word);
          memcpy(pos, word, len);
          pos += len;
        }
      };
      words(rng.below(20));
      if (is_cat) pos = (char*)memcpy(pos, "cat ", 4) + 4;
      if (is_dog) pos = (char*)memcpy(pos, "dog ", 4) + 4;
      words(rng.below(20));
      *pos++ = '\0';
      if (allocate<char>(pos - start) != start) throw std::bad_alloc();
      result.snippet = start;
      result.snippet_size = pos - start - 1;
    }
    return good;
  }

  struct Scored {
    double score;
    const SearchResult* result;
    bool operator<(const Scored& other) const { return score > other.score; }
  };

  static void handle(const Request& request, Response& response) {
    std::vector<Scored> scored;
    scored.reserve(request.size);
    for (auto& result : request) {
      double score = result.score;
      if (strstr(result.snippet, " cat ") != nullptr) score *= 10000;
      if (strstr(result.snippet, " dog ") != nullptr) score /= 10000;
      scored.push_back({score, &result});
    }
    std::sort(scored.begin(), scored.end());
    response.init(scored.size());
    SearchResult* out = response.items;
    for (auto& s : scored) {
      out->score = s.score;
      out->url = copy_string(s.result->url, s.result->url_size);
      out->url_size = s.result->url_size;
      out->snippet = copy_string(s.result->snippet, s.result->snippet_size);
      out->snippet_size = s.result->snippet_size;
      ++out;
    }
  }

  static void check(const Response& response, int expected, uint64_t& sum) {
    int good = 0;
    uint64_t text_bytes = 0;
    for (auto& result : response) {  // upstream's check: stops at the first result that is not good
      if (result.score > 1001) {
        ++good;
        text_bytes += strlen(result.url) + strlen(result.snippet);
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

// ---- eval --------------------------------------------------------------------------------------------------

struct Eval {
  enum Op : uint8_t { ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULUS };
  struct Expression {
    Op op;
    bool left_is_value, right_is_value;
    union {
      int32_t left_value;
      Expression* left_expression;
    };
    union {
      int32_t right_value;
      Expression* right_expression;
    };
  };
  using Request = Expression;
  using Response = int32_t;
  using Expectation = int32_t;

  static int32_t apply(Op op, int32_t left, int32_t right) {
    switch (op) {
      case ADD: return add32(left, right);
      case SUBTRACT: return sub32(left, right);
      case MULTIPLY: return mul32(left, right);
      case DIVIDE: return div32(left, right);
      case MODULUS: return mod32(left, right);
    }
    throw std::runtime_error("eval: unknown operation");
  }

  static int32_t make(FastRand& rng, Expression* exp, uint32_t depth) {
    exp->op = (Op)rng.below(MODULUS + 1);
    int32_t left, right;
    exp->left_is_value = rng.below(8) < depth;
    if (exp->left_is_value) {
      left = exp->left_value = rng.below(128) + 1;
    } else {
      exp->left_expression = allocate<Expression>();
      left = make(rng, exp->left_expression, depth + 1);
    }
    exp->right_is_value = rng.below(8) < depth;
    if (exp->right_is_value) {
      right = exp->right_value = rng.below(128) + 1;
    } else {
      exp->right_expression = allocate<Expression>();
      right = make(rng, exp->right_expression, depth + 1);
    }
    return apply(exp->op, left, right);
  }

  static int32_t evaluate(const Expression& exp) {
    int32_t left = exp.left_is_value ? exp.left_value : evaluate(*exp.left_expression);
    int32_t right = exp.right_is_value ? exp.right_value : evaluate(*exp.right_expression);
    return apply(exp.op, left, right);
  }

  static int32_t setup(FastRand& rng, Request& request) { return make(rng, &request, 0); }
  static void handle(const Request& request, Response& response) { response = evaluate(request); }
  static void check(const Response& value, int32_t expected, uint64_t& sum) {
    if (value != expected)
      throw CheckFailed("eval: expected " + std::to_string(expected) + ", got " + std::to_string(value));
    sum += (uint64_t)(int64_t)value;
  }
  static std::string format(uint64_t sum) { return std::to_string((int64_t)sum); }
};

// ---- main ----------------------------------------------------------------------------------------------------

template <typename C>
void main_case(const Config& c) {
  int64_t start = now_ns();
  FastRand rng;
  uint64_t sum = 0;
  try {
    for (uint64_t i = 0; i < c.iters; i++) {
      g_arena_pos = g_arena;
      typename C::Request request;
      auto expected = C::setup(rng, request);
      typename C::Response response;
      C::handle(request, response);
      C::check(response, expected, sum);
    }
  } catch (const std::exception& e) {
    die(e.what());
  }
  int64_t elapsed = now_ns() - start;
  print_result(c, C::format(sum), elapsed, Sizes{});
}

int main(int argc, char** argv) {
  g_prog = "null";
  Config c = parse_args(argc, argv);
  switch (c.kase) {
    case Case::carsales: main_case<CarSales>(c); break;
    case Case::catrank: main_case<CatRank>(c); break;
    case Case::eval: main_case<Eval>(c); break;
  }
  return 0;
}
