// y = W·x, W in INT4 with one BF16 scale per group of a row (gemv_int4's layout: 16 bytes per
// block of 32 weights, byte j = weight j low, weight j + 16 high, each stored as q + 8), x
// quantized to INT8 once per call, one FP32 scale d_g per group of the weights: reads half a byte
// per weight plus the scales, and x; writes y. y_i = Σ_g s_ig · d_g · Σ_{j∈g} (nib_ij − 8)·qx_j,
// the inner sum in integers over the whole group. Rows are walked as gemv_int8_dp walks them
// (GemvWalk: four long streams per thread, each prefetched 2 KiB ahead into L1 by default).
//
// The nibbles go in unsigned, as they are stored (0 … 15): no sign trick, and the offset 8 comes
// out exactly by starting each group's integer sum from −8·Σ qx_g (once per call, for all rows).
// Two blocks are one 32-byte load: its low nibbles are weights 0–15 of both blocks, its high
// nibbles weights 16–31, so x is stored in that order once per call, and one AND, one shift, one
// AND and two vpdpbusd (with AVX2: a vpmaddubsw and a vpmaddwd for each half) cover 64 weights.
// A group with an odd number of blocks ends with one block on its own.
#include <cmath>
#include <vector>

#include "kernels.hpp"
#if defined(RLK_ARM64)
#include <arm_neon.h>
#endif

namespace rlk::cpu {
namespace {

struct Activations {
  std::vector<std::int8_t> natural;  // codes in x's order (portable path)
  std::vector<std::int8_t> paired;   // codes in the kernels' nibble order (see above)
  std::vector<float> d;              // scale per group
  std::vector<int> sum;              // Σ qx per group
};

void quantize(const float* x, std::size_t k, std::size_t group, Activations& a) {
  const std::size_t groups = k / group, pairs = group / 64 * 64;
  a.natural.resize(k);
  a.paired.resize(k);
  a.d.resize(groups);
  a.sum.resize(groups);
  quantize_x_groups(x, k, group, a.natural.data(), a.d.data(), a.sum.data());
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t j0 = g * group;
    for (std::size_t j = j0; j < j0 + pairs; j += 2 * x_block) {
      const std::int8_t* q0 = a.natural.data() + j;
      std::int8_t* out = a.paired.data() + j;
      for (int t = 0; t < 16; ++t) {
        out[t] = q0[t];
        out[16 + t] = q0[x_block + t];
        out[32 + t] = q0[16 + t];
        out[48 + t] = q0[x_block + 16 + t];
      }
    }
    // a block on its own: codes in x's order
    std::copy(a.natural.data() + j0 + pairs, a.natural.data() + j0 + group, a.paired.data() + j0 + pairs);
  }
}

void rows_scalar(const QuantizedMatrix& w, const Activations& a, float* y, std::size_t r0, std::size_t r1) {
  const std::size_t k = w.cols, groups = k / w.group;
  for (std::size_t i = r0; i < r1; ++i) {
    const std::uint8_t* p = w.q4.data() + i * (k / 2);
    float acc = 0;
    for (std::size_t g = 0; g < groups; ++g) {
      std::int32_t dot = -8 * a.sum[g];
      for (std::size_t j = g * w.group; j < (g + 1) * w.group; j += x_block) {
        const std::uint8_t* bytes = p + j / 2;
        const std::int8_t* q = a.natural.data() + j;
        for (int t = 0; t < 16; ++t) dot += (bytes[t] & 15) * q[t] + (bytes[t] >> 4) * q[16 + t];
      }
      acc = std::fma(float(dot) * a.d[g], from_bf16(w.scales[i * groups + g]), acc);
    }
    y[i] = acc;
  }
}

#if defined(RLK_X86)
#define RLK_ALWAYS_INLINE(TARGET) __attribute__((target(TARGET), always_inline)) inline

// Adds to `sum` the products of 32 nibbles `v` (0 … 15) and 32 codes of x.
RLK_ALWAYS_INLINE("avx2,fma") __m256i dot_avx2(__m256i sum, __m256i v, __m256i xq) {
  // |pair of products| ≤ 2·15·127: no int16 saturation.
  return _mm256_add_epi32(_mm256_madd_epi16(_mm256_maddubs_epi16(v, xq), _mm256_set1_epi16(1)), sum);
}
RLK_ALWAYS_INLINE("avx2,fma,avxvnni") __m256i dot_vnni(__m256i sum, __m256i v, __m256i xq) {
  return _mm256_dpbusd_avx_epi32(sum, v, xq);
}
RLK_ALWAYS_INLINE("avx2,fma,avx512vnni,avx512vl") __m256i dot_vnni512(__m256i sum, __m256i v, __m256i xq) {
  return _mm256_dpbusd_epi32(sum, v, xq);
}

// One body for every instruction set (the target attribute cannot follow a template argument).
// Each row's int32 lanes start a group from −Σ qx_g (eight lanes: −8·Σ qx_g). (Two sets of lanes
// per row, so that the adds would not wait on each other's latency, ran slower: with 16
// registers they spill.)
#define RLK_INT4_ROWS(NAME, TARGET, DOT)                                                                              \
  __attribute__((target(TARGET))) void NAME(const QuantizedMatrix& w, const Activations& a, float* y, std::size_t r0, \
                                            std::size_t r1, RowPrefetch prefetch) {                                   \
    const std::size_t k = w.cols, groups = k / w.group, pairs_end = w.group / 64 * 64;                                \
    const __m256i low4 = _mm256_set1_epi8(15);                                                                        \
    std::size_t row[gemv_streams];                                                                                    \
    for (GemvWalk walk(r0, r1); walk.next(row);) {                                                                    \
      const std::uint8_t* p[gemv_streams];                                                                            \
      for (std::size_t r = 0; r < gemv_streams; ++r) p[r] = w.q4.data() + row[r] * (k / 2);                           \
      __m256 acc[gemv_streams];                                                                                       \
      for (auto& v : acc) v = _mm256_setzero_ps();                                                                    \
      for (std::size_t g = 0; g < groups; ++g) {                                                                      \
        const std::size_t j0 = g * w.group;                                                                           \
        __m256i sum[gemv_streams];                                                                                    \
        for (auto& v : sum) v = _mm256_set1_epi32(-a.sum[g]);                                                         \
        for (std::size_t j = j0; j < j0 + pairs_end; j += 64) {                                                       \
          const __m256i xa = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.paired.data() + j));               \
          const __m256i xb = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.paired.data() + j + 32));          \
          _Pragma("GCC unroll 4") for (std::size_t r = 0; r < gemv_streams; ++r) {                                    \
            if (prefetch == RowPrefetch::ahead && j % 128 == 0)                                                       \
              _mm_prefetch(reinterpret_cast<const char*>(p[r] + j / 2) + row_prefetch_ahead, _MM_HINT_T0);            \
            const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p[r] + j / 2));                 \
            sum[r] = DOT(DOT(sum[r], _mm256_and_si256(bytes, low4), xa),                                              \
                         _mm256_and_si256(_mm256_srli_epi16(bytes, 4), low4), xb);                                    \
          }                                                                                                           \
        }                                                                                                             \
        if (pairs_end < w.group) { /* a block on its own at the group's end */                                        \
          const std::size_t j = j0 + pairs_end;                                                                       \
          const __m256i xq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.paired.data() + j));               \
          for (std::size_t r = 0; r < gemv_streams; ++r) {                                                            \
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p[r] + j / 2));                        \
            sum[r] = DOT(sum[r], _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(b, 4), b), low4), xq);              \
          }                                                                                                           \
        }                                                                                                             \
        const __m256 d = _mm256_set1_ps(a.d[g]);                                                                      \
        for (std::size_t r = 0; r < gemv_streams; ++r)                                                                \
          acc[r] = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(sum[r]), d),                                      \
                                   _mm256_set1_ps(from_bf16(w.scales[row[r] * groups + g])), acc[r]);                 \
      }                                                                                                               \
      for (std::size_t r = 0; r < gemv_streams; ++r) {                                                                \
        y[row[r]] = hsum256(acc[r]);                                                                                  \
      }                                                                                                               \
    }                                                                                                                 \
  }

RLK_INT4_ROWS(rows_avx2, "avx2,fma", dot_avx2)
RLK_INT4_ROWS(rows_vnni, "avx2,fma,avxvnni", dot_vnni)
RLK_INT4_ROWS(rows_vnni512, "avx2,fma,avx512vnni,avx512vl", dot_vnni512)
#undef RLK_INT4_ROWS
#undef RLK_ALWAYS_INLINE
#endif

#if defined(RLK_ARM64)
// aarch64: one row at a time, a block of 32 weights (16 bytes) a step against x in its natural
// order: the low nibbles are weights 0–15, the high ones 16–31, each 0 … 15 as a signed byte.
// The group's sum starts from −8·Σ qx_g, which takes the stored offset back out exactly.
RLK_INLINE int32x4_t dot16_neon4(int32x4_t sum, int8x16_t w, int8x16_t x) {
  sum = vpadalq_s16(sum, vmull_s8(vget_low_s8(w), vget_low_s8(x)));
  return vpadalq_s16(sum, vmull_high_s8(w, x));
}
#define RLK_INT4_ROWS_ARM(NAME, ATTR, DOT)                                                                 \
  ATTR void NAME(const QuantizedMatrix& w, const Activations& a, float* y, std::size_t r0, std::size_t r1, \
                 RowPrefetch prefetch) {                                                                   \
    const std::size_t k = w.cols, groups = k / w.group;                                                    \
    const uint8x16_t low4 = vdupq_n_u8(15);                                                                \
    for (std::size_t i = r0; i < r1; ++i) {                                                                \
      const std::uint8_t* p = w.q4.data() + i * (k / 2);                                                   \
      float acc = 0;                                                                                       \
      for (std::size_t g = 0; g < groups; ++g) {                                                           \
        int32x4_t sum = vdupq_n_s32(0);                                                                    \
        for (std::size_t j = g * w.group; j < (g + 1) * w.group; j += x_block) {                           \
          if (prefetch == RowPrefetch::ahead && j % 128 == 0)                                              \
            __builtin_prefetch(p + j / 2 + row_prefetch_ahead, 0, 3);                                      \
          const uint8x16_t bytes = vld1q_u8(p + j / 2);                                                    \
          sum = DOT(sum, vreinterpretq_s8_u8(vandq_u8(bytes, low4)), vld1q_s8(a.natural.data() + j));      \
          sum = DOT(sum, vreinterpretq_s8_u8(vshrq_n_u8(bytes, 4)), vld1q_s8(a.natural.data() + j + 16));  \
        }                                                                                                  \
        const std::int32_t dot = vaddvq_s32(sum) - 8 * a.sum[g];                                           \
        acc = std::fma(float(dot) * a.d[g], from_bf16(w.scales[i * groups + g]), acc);                     \
      }                                                                                                    \
      y[i] = acc;                                                                                          \
    }                                                                                                      \
  }
RLK_INT4_ROWS_ARM(rows_neon, , dot16_neon4)
RLK_INT4_ROWS_ARM(rows_sdot, RLK_TARGET_DOTPROD, vdotq_s32)
#undef RLK_INT4_ROWS_ARM
#endif
// The rows routines, for run_int_dot_gemv.
struct Rows {
  using Activations = cpu::Activations;
  static constexpr auto quantize = cpu::quantize;
  static constexpr auto scalar = rows_scalar;
#if defined(RLK_X86)
  static constexpr auto avx2 = rows_avx2;
  static constexpr auto vnni = rows_vnni;
  static constexpr auto vnni512 = rows_vnni512;
#endif
#if defined(RLK_ARM64)
  static constexpr auto neon = rows_neon;
  static constexpr auto sdot = rows_sdot;
#endif
};

}  // namespace

void gemv_int4_dp(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y, IntDot isa,
                  RowPrefetch prefetch) {
  run_int_dot_gemv<Rows>(pool, w, x, y, isa, prefetch, "gemv_int4_dp");
}

}  // namespace rlk::cpu
