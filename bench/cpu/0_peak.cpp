// acc = acc·a + b on 12 independent vectors per thread, reads nothing, writes one float: the
// most FP32 FLOP/s the cores deliver (two FMA pipes × 4-cycle latency need ≥ 8 chains in flight).
// The integer ceiling the same way: 12 int32 accumulators per thread, each taking 32 INT8
// multiply-adds per step with the instruction the integer-dot GEMVs use (vpdpbusd, AVX-VNNI or
// AVX-512 VNNI): the most INT8 OPS it delivers. (AVX2's vpmaddubsw + vpmaddwd would compute the
// same product for every chain; with 12 chains of their own operands the 16 registers run out: no
// ceiling is measured there.)
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels.hpp"

namespace rlk::cpu {

namespace {

template <class Isa>
RLK_INLINE float fma_chains(long iterations, unsigned t) {
  const float seed = 0.001f * float(t + 1);
  v8f c0 = splat(seed), c1 = c0 + 1, c2 = c0 + 2, c3 = c0 + 3, c4 = c0 + 4, c5 = c0 + 5, c6 = c0 + 6, c7 = c0 + 7,
      c8 = c0 + 8, c9 = c0 + 9, c10 = c0 + 10, c11 = c0 + 11;
  const v8f a = splat(0.999999f), b = splat(1e-7f);
  for (long it = 0; it < iterations; ++it) {
    c0 = c0 * a + b;
    c1 = c1 * a + b;
    c2 = c2 * a + b;
    c3 = c3 * a + b;
    c4 = c4 * a + b;
    c5 = c5 * a + b;
    c6 = c6 * a + b;
    c7 = c7 * a + b;
    c8 = c8 * a + b;
    c9 = c9 * a + b;
    c10 = c10 * a + b;
    c11 = c11 * a + b;
  }
  return hsum(((c0 + c1) + (c2 + c3)) + ((c4 + c5) + (c6 + c7)) + ((c8 + c9) + (c10 + c11)));
}
RLK_VEC_VARIANTS(fma_chains, (long iterations, unsigned t), (iterations, t))

}  // namespace

float peak_fma(ThreadPool& pool, long iterations) {
  std::vector<float> sums(pool.size());
  pool.run([&](unsigned t, unsigned) { sums[t] = RLK_VEC_CALL(fma_chains, (iterations, t)); });
  float total = 0;
  for (float s : sums) total += s;
  return total;
}

namespace {

#if defined(RLK_X86)
// Every step adds 4·a·b = 4 to each int32 lane of each accumulator: the result is exact and known.
// The empty asm makes `a` look changed each step, so the compiler cannot hoist the products out of
// the loop (nor sum the loop in closed form).
#define RLK_PEAK_INT8(NAME, TARGET, STEP)                                                                             \
  __attribute__((target(TARGET))) std::int64_t NAME(long iterations, int seed) {                                      \
    __m256i c0 = _mm256_set1_epi32(seed), c1 = _mm256_set1_epi32(seed + 1), c2 = _mm256_set1_epi32(seed + 2),         \
            c3 = _mm256_set1_epi32(seed + 3), c4 = _mm256_set1_epi32(seed + 4), c5 = _mm256_set1_epi32(seed + 5),     \
            c6 = _mm256_set1_epi32(seed + 6), c7 = _mm256_set1_epi32(seed + 7), c8 = _mm256_set1_epi32(seed + 8),     \
            c9 = _mm256_set1_epi32(seed + 9), c10 = _mm256_set1_epi32(seed + 10), c11 = _mm256_set1_epi32(seed + 11); \
    __m256i a = _mm256_set1_epi8(1);                                                                                  \
    const __m256i b = _mm256_set1_epi8(1);                                                                            \
    for (long it = 0; it < iterations; ++it) {                                                                        \
      asm volatile("" : "+x"(a));                                                                                     \
      c0 = STEP(c0);                                                                                                  \
      c1 = STEP(c1);                                                                                                  \
      c2 = STEP(c2);                                                                                                  \
      c3 = STEP(c3);                                                                                                  \
      c4 = STEP(c4);                                                                                                  \
      c5 = STEP(c5);                                                                                                  \
      c6 = STEP(c6);                                                                                                  \
      c7 = STEP(c7);                                                                                                  \
      c8 = STEP(c8);                                                                                                  \
      c9 = STEP(c9);                                                                                                  \
      c10 = STEP(c10);                                                                                                \
      c11 = STEP(c11);                                                                                                \
    }                                                                                                                 \
    const __m256i all[12] = {c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11};                                       \
    alignas(32) std::int32_t lanes[8];                                                                                \
    std::int64_t sum = 0;                                                                                             \
    for (const __m256i& v : all) {                                                                                    \
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), v);                                                       \
      for (std::int32_t x : lanes) sum += x;                                                                          \
    }                                                                                                                 \
    return sum;                                                                                                       \
  }
#define RLK_STEP_VNNI(c) _mm256_dpbusd_avx_epi32(c, a, b)
#define RLK_STEP_VNNI512(c) _mm256_dpbusd_epi32(c, a, b)
RLK_PEAK_INT8(peak_vnni, "avx2,avxvnni", RLK_STEP_VNNI)
RLK_PEAK_INT8(peak_vnni512, "avx2,avx512vnni,avx512vl", RLK_STEP_VNNI512)
#undef RLK_STEP_VNNI
#undef RLK_STEP_VNNI512
#undef RLK_PEAK_INT8
#endif

}  // namespace

// (No INT8 ceiling on aarch64 yet: sdot takes 16 multiply-adds per instruction, not 32, and the
// count above is vpdpbusd's.)
bool peak_int8_dot_available(IntDot isa) {
  return (isa == IntDot::avx_vnni || isa == IntDot::avx512_vnni) && int_dot_available(isa);
}

std::int64_t peak_int8_dot(ThreadPool& pool, [[maybe_unused]] long iterations, IntDot isa) {
  if (!peak_int8_dot_available(isa))
    throw std::invalid_argument(std::string("peak_int8_dot: no vpdpbusd in ") + int_dot_name(isa));
  std::vector<std::int64_t> sums(pool.size());
  pool.run([&](unsigned t, unsigned) {
    [[maybe_unused]] const int seed = int(t) * 12;
    switch (isa) {
#if defined(RLK_X86)
      case IntDot::avx_vnni: sums[t] = peak_vnni(iterations, seed); break;
      case IntDot::avx512_vnni: sums[t] = peak_vnni512(iterations, seed); break;
#endif
      default: break;
    }
  });
  std::int64_t total = 0;
  for (std::int64_t s : sums) total += s;
  return total;
}

std::int64_t peak_int8_dot_expected(const ThreadPool& pool, long iterations) {
  std::int64_t total = 0;
  for (unsigned t = 0; t < pool.size(); ++t)
    for (int c = 0; c < 12; ++c) total += 8 * (std::int64_t(t) * 12 + c + 4 * std::int64_t(iterations));
  return total;
}

}  // namespace rlk::cpu
