// Shared by the capnp suite's C++ programs: the upstream benchmark's random numbers, the command line,
// the iterations file, the client/server process pair of the pipe configs, the clock and the result line.
#pragma once

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <climits>
#include <limits>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

namespace iorace {

// ---- random numbers: the upstream benchmark's 128-bit xorshift, fixed seeds ---------------------------

struct FastRand {
  uint32_t x = 0x1d2acd47, y = 0x58ca3e14, z = 0xf563f232, w = 0x0bc76199;

  inline uint32_t next() {
    uint32_t t = x ^ (x << 11);
    x = y;
    y = z;
    z = w;
    w = w ^ (w >> 19) ^ t ^ (t >> 8);
    return w;
  }
  inline uint32_t below(uint32_t range) { return next() % range; }
  inline double real(double range) { return next() * range / std::numeric_limits<uint32_t>::max(); }
};

// int32 division and remainder as upstream: INT32_MAX for a zero divisor and for INT32_MIN / -1.
inline int32_t div32(int32_t a, int32_t b) {
  if (b == 0 || (a == std::numeric_limits<int32_t>::min() && b == -1)) return std::numeric_limits<int32_t>::max();
  return a / b;
}
inline int32_t mod32(int32_t a, int32_t b) {
  if (b == 0 || (a == std::numeric_limits<int32_t>::min() && b == -1)) return std::numeric_limits<int32_t>::max();
  return a % b;
}
// Wrapping int32 arithmetic (through uint32, as the upstream generator computes it).
inline int32_t add32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
inline int32_t sub32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
inline int32_t mul32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }

static const char* const WORDS[] = {"foo ",  "bar ",    "baz ",    "qux ",   "quux ", "corge ", "grault ",
                                    "garply ", "waldo ", "fred ", "plugh ", "xyzzy ", "thud "};
constexpr uint32_t WORDS_COUNT = sizeof(WORDS) / sizeof(WORDS[0]);
static const char URL_PREFIX[] = "http://example.com/";
static const char* const MAKES[] = {"Toyota", "GM", "Ford", "Honda", "Tesla"};
static const char* const MODELS[] = {"Camry", "Prius", "Volt", "Accord", "Leaf", "Model S"};

// ---- errors: one line on stderr, exit 1 ----------------------------------------------------------------

static const char* g_prog = "capnp";

[[noreturn]] inline void die(const std::string& msg) {
  std::string line = msg;
  for (char& c : line)
    if (c == '\n') c = ' ';
  fprintf(stderr, "%s: %s\n", g_prog, line.c_str());
  fflush(stderr);
  exit(1);
}

// A response that differs from what the client expects (upstream's per-iteration check).
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---- command line: CASE CONFIG ITERS_FILE -------------------------------------------------------------

enum class Case { carsales, catrank, eval };
enum class Mode { object, bytes, pipe };

struct Config {
  Case kase;
  Mode mode;
  bool packed;
  bool reuse;
  uint64_t iters;
  std::string case_name, config_name;
};

inline uint64_t read_iterations(const char* path, const std::string& kase) {
  FILE* f = fopen(path, "r");
  if (!f) die(std::string(path) + ": " + strerror(errno));
  char line[256];
  bool found = false;
  uint64_t count = 0;
  while (fgets(line, sizeof line, f)) {
    char name[64];
    char num[64];
    char extra;
    int n = sscanf(line, " %63s %63s %c", name, num, &extra);
    if (n <= 0 || name[0] == '#') continue;
    if (n != 2) die(std::string(path) + ": expected lines `CASE COUNT`, got: " + line);
    if (kase != name) continue;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = strtoull(num, &end, 10);
    if (num[0] < '0' || num[0] > '9' || *end || errno || v > 1000000000000ULL)
      die(std::string(path) + ": bad count for " + kase + ": " + num);
    found = true;
    count = v;
  }
  fclose(f);
  if (!found) die(std::string(path) + ": no iteration count for " + kase);
  return count;
}

inline Config parse_args(int argc, char** argv, const char* usage_extra = "") {
  if (argc != 4 && argc != 5) {
    fprintf(stderr,
            "usage: %s CASE CONFIG ITERS_FILE [SCALE]\n"
            "  CASE: carsales | catrank | eval\n"
            "  CONFIG: object[-reuse] | bytes[-packed][-reuse] | pipe[-packed][-reuse]\n"
            "  ITERS_FILE: lines `CASE COUNT` (iterations per case)\n"
            "  SCALE: percent of COUNT to run, ceil(COUNT * SCALE / 100) (default 100)\n%s",
            argv[0], usage_extra);
    exit(2);
  }
  Config c;
  c.case_name = argv[1];
  c.config_name = argv[2];
  if (c.case_name == "carsales") c.kase = Case::carsales;
  else if (c.case_name == "catrank") c.kase = Case::catrank;
  else if (c.case_name == "eval") c.kase = Case::eval;
  else die("unknown case " + c.case_name + " (carsales, catrank, eval)");
  std::string s = c.config_name;
  auto strip = [&s](const char* suffix) {
    size_t n = strlen(suffix);
    if (s.size() >= n && s.compare(s.size() - n, n, suffix) == 0) {
      s.resize(s.size() - n);
      return true;
    }
    return false;
  };
  c.reuse = strip("-reuse");
  c.packed = strip("-packed");
  if (s == "object" && !c.packed) c.mode = Mode::object;
  else if (s == "bytes") c.mode = Mode::bytes;
  else if (s == "pipe") c.mode = Mode::pipe;
  else die("unknown config " + c.config_name);
  c.iters = read_iterations(argv[3], c.case_name);
  if (argc == 5) {  // iorace's --target-ms sizes a run's work by this percentage (the suite's work_param)
    char* end = nullptr;
    errno = 0;
    unsigned long long scale = strtoull(argv[4], &end, 10);
    if (argv[4][0] < '0' || argv[4][0] > '9' || *end || errno || scale < 1 || scale > 100000)
      die(std::string("bad SCALE ") + argv[4] + " (a percentage, 1 to 100000)");
    c.iters = (c.iters * scale + 99) / 100;
  }
  return c;
}

// ---- fault injection (tests): CAPNP_BENCH_FAULT=truncate|garbage spoils the first request's bytes ----

enum class Fault { none, truncate, garbage };
inline Fault fault_from_env() {
  const char* f = getenv("CAPNP_BENCH_FAULT");
  if (!f || !*f) return Fault::none;
  if (!strcmp(f, "truncate")) return Fault::truncate;
  if (!strcmp(f, "garbage")) return Fault::garbage;
  die(std::string("CAPNP_BENCH_FAULT: unknown fault ") + f + " (truncate, garbage)");
}

// ---- clock and result line ----------------------------------------------------------------------------

inline int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct Sizes {
  bool have = false;
  uint64_t request = 0, response = 0;  // total bytes over all iterations
};

inline void print_result(const Config& c, const std::string& checksum, int64_t ns, const Sizes& sizes) {
  fprintf(stdout, "%s %s: %llu iterations, checksum %s\n", c.case_name.c_str(), c.config_name.c_str(),
          (unsigned long long)c.iters, checksum.c_str());
  fflush(stdout);
  std::string extra;
  if (sizes.have && c.iters > 0) {
    char buf[160];
    snprintf(buf, sizeof buf, ", \"extra\": {\"request_bytes\": %.1f, \"response_bytes\": %.1f}",
             (double)sizes.request / c.iters, (double)sizes.response / c.iters);
    extra = buf;
  }
  fprintf(stderr, "iorace-result {\"answer\": {\"iterations\": %llu, \"checksum\": %s}, \"inner_ns\": %lld%s}\n",
          (unsigned long long)c.iters, checksum.c_str(), (long long)ns, extra.c_str());
}

// ---- pipe I/O: every read and write of the client/server pair goes through these ----------------------

// Set when the other process went away (EOF, EPIPE): the client then reports the server's fate.
static bool g_peer_gone = false;

// read(2) up to `max` bytes; 0 at EOF (and marks the peer gone).
inline size_t fd_read_some(int fd, void* buf, size_t max) {
  for (;;) {
    ssize_t n = ::read(fd, buf, max);
    if (n > 0) return (size_t)n;
    if (n == 0) {
      g_peer_gone = true;
      return 0;
    }
    if (errno == EINTR) continue;
    g_peer_gone = true;
    throw std::runtime_error(std::string("read from pipe: ") + strerror(errno));
  }
}

inline void fd_writev_all(int fd, struct iovec* iov, int count) {
  while (count > 0) {
    ssize_t n = ::writev(fd, iov, count > IOV_MAX ? IOV_MAX : count);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE) g_peer_gone = true;
      throw std::runtime_error(std::string("write to pipe: ") + strerror(errno));
    }
    while (count > 0 && (size_t)n >= iov->iov_len) {
      n -= iov->iov_len;
      ++iov;
      --count;
    }
    if (count > 0) {
      iov->iov_base = (char*)iov->iov_base + n;
      iov->iov_len -= n;
    }
  }
}

inline void fd_write_all(int fd, const void* buf, size_t size) {
  struct iovec v = {const_cast<void*>(buf), size};
  fd_writev_all(fd, &v, 1);
}

// Close the write end of a pipe early (fault injection) while keeping the descriptor number valid.
inline void close_pipe(int fd) {
  int null_fd = open("/dev/null", O_WRONLY);
  if (null_fd < 0 || dup2(null_fd, fd) < 0) throw std::runtime_error(std::string("/dev/null: ") + strerror(errno));
  close(null_fd);
}

// The pipe configs: a real second process. fork(); the child is the server (reads requests on `in`, writes
// responses on `out`, exactly `iters` of them), the parent is the client, which times the run and computes
// the checksum from the responses it decodes. The client always reaps the server. If the server fails it
// prints its own one-line reason and the client exits 1 quietly; if the client fails it kills the server
// first and prints its reason.
template <typename Server, typename Client>
void run_pipe(const char* prog, Server server, Client client) {
  signal(SIGPIPE, SIG_IGN);  // a dead peer is an EPIPE error, not a silent death
  int to_server[2], to_client[2];
  if (pipe(to_server) < 0 || pipe(to_client) < 0) die(std::string("pipe: ") + strerror(errno));
  fflush(stdout);
  fflush(stderr);
  pid_t child = fork();
  if (child < 0) die(std::string("fork: ") + strerror(errno));
  if (child == 0) {
    close(to_server[1]);
    close(to_client[0]);
    std::string name = std::string(prog) + " server";
    g_prog = name.c_str();
    try {
      server(to_server[0], to_client[1]);
    } catch (const std::exception& e) {
      die(e.what());
    }
    _exit(0);
  }
  close(to_server[0]);
  close(to_client[1]);
  std::string failure;
  try {
    client(to_client[0], to_server[1]);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  close(to_server[1]);
  close(to_client[0]);
  if (!failure.empty() && !g_peer_gone) kill(child, SIGKILL);  // the client's own failure
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) die(std::string("waitpid: ") + strerror(errno));
  }
  if (!failure.empty()) {
    if (g_peer_gone && WIFEXITED(status) && WEXITSTATUS(status) != 0) exit(1);  // the server said why
    if (g_peer_gone && WIFSIGNALED(status))
      die("server killed by signal " + std::to_string(WTERMSIG(status)) + " (" + failure + ")");
    die(failure);
  }
  if (WIFSIGNALED(status)) die("server killed by signal " + std::to_string(WTERMSIG(status)));
  if (WEXITSTATUS(status) != 0) exit(1);  // the server printed its reason
}

}  // namespace iorace
