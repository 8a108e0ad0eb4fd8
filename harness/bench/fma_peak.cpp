// The machine's f32 FMA peak on one core, the ceiling every MAC/s of a bench report is compared
// with: FMAs on the widest vectors the host has (16 lanes with AVX-512F, else 8 with AVX2 + FMA),
// ten independent accumulators (more than FMA latency × ports on current x86 cores) so the loop is
// throughput-bound, not latency-bound. A narrower probe on an AVX-512 host halves the peak and
// doubles every "× peak" ratio.
#include "harness/bench/bench_runner.h"

#include <immintrin.h>

namespace tujit::bench {

namespace {

constexpr std::uint64_t kAccumulators = 10; // c0 … c9 below
constexpr std::uint64_t kLanes = 8;         // one __m256 of f32
constexpr std::uint64_t kWideLanes = 16;    // one __m512 of f32

// The same loop as fma_loop below on zmm registers.
__attribute__((target("avx512f"))) float fma_loop_wide(std::uint64_t rounds) {
  __m512 c0 = _mm512_set1_ps(0.0f), c1 = _mm512_set1_ps(1.0f), c2 = _mm512_set1_ps(2.0f),
         c3 = _mm512_set1_ps(3.0f), c4 = _mm512_set1_ps(4.0f), c5 = _mm512_set1_ps(5.0f),
         c6 = _mm512_set1_ps(6.0f), c7 = _mm512_set1_ps(7.0f), c8 = _mm512_set1_ps(8.0f),
         c9 = _mm512_set1_ps(9.0f);
  const __m512 a = _mm512_set1_ps(0.999f), b = _mm512_set1_ps(0.001f);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    c0 = _mm512_fmadd_ps(c0, a, b);
    c1 = _mm512_fmadd_ps(c1, a, b);
    c2 = _mm512_fmadd_ps(c2, a, b);
    c3 = _mm512_fmadd_ps(c3, a, b);
    c4 = _mm512_fmadd_ps(c4, a, b);
    c5 = _mm512_fmadd_ps(c5, a, b);
    c6 = _mm512_fmadd_ps(c6, a, b);
    c7 = _mm512_fmadd_ps(c7, a, b);
    c8 = _mm512_fmadd_ps(c8, a, b);
    c9 = _mm512_fmadd_ps(c9, a, b);
  }
  const __m512 sum =
      _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
                                  _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7))),
                    _mm512_add_ps(c8, c9));
  float out[kWideLanes];
  _mm512_storeu_ps(out, sum);
  return out[0];
}

__attribute__((target("avx2,fma"))) float fma_loop(std::uint64_t rounds) {
  // Named accumulators (not an array) so they live in registers: an array indexed in a loop is
  // kept in memory at -O2 and the loop would time loads and stores instead of FMAs.
  __m256 c0 = _mm256_set1_ps(0.0f), c1 = _mm256_set1_ps(1.0f), c2 = _mm256_set1_ps(2.0f),
         c3 = _mm256_set1_ps(3.0f), c4 = _mm256_set1_ps(4.0f), c5 = _mm256_set1_ps(5.0f),
         c6 = _mm256_set1_ps(6.0f), c7 = _mm256_set1_ps(7.0f), c8 = _mm256_set1_ps(8.0f),
         c9 = _mm256_set1_ps(9.0f);
  // x·a + b with |a| < 1 keeps every accumulator finite for any number of rounds.
  const __m256 a = _mm256_set1_ps(0.999f), b = _mm256_set1_ps(0.001f);
  for (std::uint64_t r = 0; r < rounds; ++r) {
    c0 = _mm256_fmadd_ps(c0, a, b);
    c1 = _mm256_fmadd_ps(c1, a, b);
    c2 = _mm256_fmadd_ps(c2, a, b);
    c3 = _mm256_fmadd_ps(c3, a, b);
    c4 = _mm256_fmadd_ps(c4, a, b);
    c5 = _mm256_fmadd_ps(c5, a, b);
    c6 = _mm256_fmadd_ps(c6, a, b);
    c7 = _mm256_fmadd_ps(c7, a, b);
    c8 = _mm256_fmadd_ps(c8, a, b);
    c9 = _mm256_fmadd_ps(c9, a, b);
  }
  const __m256 sum =
      _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)),
                                  _mm256_add_ps(_mm256_add_ps(c4, c5), _mm256_add_ps(c6, c7))),
                    _mm256_add_ps(c8, c9));
  float out[kLanes];
  _mm256_storeu_ps(out, sum);
  return out[0];
}

} // namespace

std::uint64_t fma_burst(std::uint64_t rounds) {
  if (__builtin_cpu_supports("avx512f")) {
    volatile float sink = fma_loop_wide(rounds);
    (void)sink;
    return rounds * kAccumulators * kWideLanes;
  }
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return 0;
  volatile float sink = fma_loop(rounds);
  (void)sink;
  return rounds * kAccumulators * kLanes;
}

} // namespace tujit::bench
