/* LIMIT row, not a byte-at-a-time strategy: bulk read(2) of 128 KiB blocks + a SIMD byte sum (AVX2 or SSE2). */
#include <fcntl.h>
#include <unistd.h>

#include "common.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* SSE2 is part of x86-64: psadbw sums 8 bytes into one 64-bit lane. */
static uint64_t sum_sse2(const unsigned char *p, size_t n) {
  __m128i acc = _mm_setzero_si128(), zero = _mm_setzero_si128();
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)(p + i)), zero));
  uint64_t lanes[2];
  _mm_storeu_si128((__m128i *)lanes, acc);
  uint64_t s = lanes[0] + lanes[1];
  for (; i < n; ++i) s += p[i];
  return s;
}

__attribute__((target("avx2"))) static uint64_t sum_avx2(const unsigned char *p, size_t n) {
  __m256i acc = _mm256_setzero_si256(), zero = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    acc = _mm256_add_epi64(acc, _mm256_sad_epu8(_mm256_loadu_si256((const __m256i *)(p + i)), zero));
  uint64_t lanes[4];
  _mm256_storeu_si256((__m256i *)lanes, acc);
  uint64_t s = lanes[0] + lanes[1] + lanes[2] + lanes[3];
  for (; i < n; ++i) s += p[i];
  return s;
}

static uint64_t (*pick_sum(void))(const unsigned char *, size_t) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? sum_avx2 : sum_sse2;
}
#else
static uint64_t sum_plain(const unsigned char *p, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; ++i) s += p[i];
  return s;
}
static uint64_t (*pick_sum(void))(const unsigned char *, size_t) { return sum_plain; }
#endif

int main(int argc, char **argv) {
  struct args a = parse_args(argc, argv);
  static unsigned char buffer[1 << 17];
  uint64_t (*sum_bytes)(const unsigned char *, size_t) = pick_sum();
  uint64_t count = 0, sum = 0;
  int64_t t0 = now_ns();
  for (long pass = 0; pass < a.passes; ++pass) {
    int fd = open(a.path, O_RDONLY);
    if (fd < 0) io_error("cannot open", a.path);
    for (;;) {
      ssize_t n = read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) io_error("cannot read", a.path);
      if (n == 0) break;
      count += (uint64_t)n;
      if (a.sum) sum += sum_bytes(buffer, (size_t)n);
    }
    close(fd);
  }
  report(argv[0], &a, a.sum ? sum + count : count, now_ns() - t0);
  return 0;
}
