// y = W·x, W in INT8 with one BF16 scale per group of a row (gemv_int8's layout), x quantized to
// INT8 once per call, one FP32 scale d_g per group of the weights (numeric.hpp): reads 1 byte per
// weight plus the scales, and x; writes y. y_i = Σ_g s_ig · d_g · Σ_{j∈g} q_ij·qx_j, the inner
// sum in integers: 32 weights meet 32 codes of x in one vpdpbusd (or vpmaddubsw + vpmaddwd) into
// int32 lanes that run over the whole group, then per group and row one convert, one multiply
// by d_g and one FMA by s_ig.
//
// Rows are walked as kernels.hpp says (GemvWalk): four long streams per thread, each prefetched
// 2 KiB ahead into L1 (RowPrefetch::ahead, the default).
//
// vpdpbusd and vpmaddubsw multiply unsigned bytes by signed bytes. vpdpbusd (AVX-VNNI or AVX-512
// VNNI): the weights go in as q + 128 (an XOR with 0x80), and the sum starts from −128·Σ qx_g,
// which takes the offset back out exactly (int32, no saturation). AVX2: vpmaddubsw adds pairs into
// int16 with saturation, so the weights go in as |q| and x as qx·sign(q): |pair| ≤ 2·128·127 < 2^15.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels.hpp"
#if defined(RLK_ARM64)
#include <arm_neon.h>
#endif

namespace rlk::cpu {

const char* row_prefetch_name(RowPrefetch p) {
  if (p == RowPrefetch::none) return "none (hardware only)";
  static const std::string name = std::to_string(row_prefetch_ahead) + " B ahead in each stream, into L1";
  return name.c_str();
}

void check_int_dot(const QuantizedMatrix& w, IntDot isa, const char* kernel) {
  if (!int_dot_available(isa))
    throw std::invalid_argument(std::string(kernel) + ": this CPU has no " + int_dot_name(isa));
  // at most 1,024: a group's integer sums (|q·qx| ≤ 128·127 each) then stay below 2^24, exact in FP32
  if (w.group == 0 || w.group % x_block != 0 || w.group > 1024 || w.cols % w.group != 0)
    throw std::invalid_argument(std::string(kernel) + ": the group size (" + std::to_string(w.group) +
                                ") must be a multiple of 32, at most 1,024, that divides the columns (" +
                                std::to_string(w.cols) + ")");
}

#if defined(RLK_X86)
namespace {
// One group (a multiple of 32 values) as quantize_x_block quantizes it, 32 values per step:
// vcvtps2dq rounds x·(127 ÷ max|x|) to nearest even, as lrintf does. A NaN goes the scalar way,
// which keeps it (max with a NaN would drop it).
__attribute__((target("avx2,fma"))) float quantize_group_avx2(const float* x, std::size_t n, std::int8_t* q, int& sum) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  __m256 amax = _mm256_setzero_ps(), nan = _mm256_setzero_ps();
  for (std::size_t j = 0; j < n; j += 8) {
    const __m256 v = _mm256_loadu_ps(x + j);
    amax = _mm256_max_ps(amax, _mm256_andnot_ps(sign, v));
    nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
  }
  if (!_mm256_testz_ps(nan, nan)) return quantize_x_block(x, q, sum, n);
  float lanes[8];
  _mm256_storeu_ps(lanes, amax);
  float m = 0;
  for (float l : lanes) m = l > m ? l : m;
  const float d = m / 127.0f, inv = m > 0 ? 127.0f / m : 0.0f;
  const __m256 scale = _mm256_set1_ps(inv);
  __m256i total = _mm256_setzero_si256();
  for (std::size_t j = 0; j < n; j += 32) {
    __m256i c[4];
    for (int t = 0; t < 4; ++t) {
      c[t] = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(x + j + 8 * t), scale));
      total = _mm256_add_epi32(total, c[t]);
    }
    // packs interleave the 128-bit lanes; the permutation puts the 32 codes back in order
    const __m256i bytes = _mm256_packs_epi16(_mm256_packs_epi32(c[0], c[1]), _mm256_packs_epi32(c[2], c[3]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + j),
                        _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
  }
  int t[8];
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t), total);
  sum = t[0] + t[1] + t[2] + t[3] + t[4] + t[5] + t[6] + t[7];
  return d;
}
}  // namespace
#endif

void quantize_x_groups(const float* x, std::size_t k, std::size_t group, std::int8_t* q, float* d, int* sums) {
#if defined(RLK_X86)
  if (int_dot_available(IntDot::avx2)) {
    for (std::size_t g = 0; g < k / group; ++g)
      d[g] = quantize_group_avx2(x + g * group, group, q + g * group, sums[g]);
    return;
  }
#endif
  for (std::size_t g = 0; g < k / group; ++g) d[g] = quantize_x_block(x + g * group, q + g * group, sums[g], group);
}

namespace {

struct Activations {
  std::vector<std::int8_t> q;  // codes, in x's order
  std::vector<float> d;        // scale per group
  std::vector<int> sum;        // Σ qx per group
};

void quantize(const float* x, std::size_t k, std::size_t group, Activations& a) {
  a.q.resize(k);
  a.d.resize(k / group);
  a.sum.resize(k / group);
  quantize_x_groups(x, k, group, a.q.data(), a.d.data(), a.sum.data());
}

void rows_scalar(const QuantizedMatrix& w, const Activations& a, float* y, std::size_t r0, std::size_t r1) {
  const std::size_t k = w.cols, groups = k / w.group;
  for (std::size_t i = r0; i < r1; ++i) {
    const std::int8_t* q = w.q8.data() + i * k;
    float acc = 0;
    for (std::size_t g = 0; g < groups; ++g) {
      std::int32_t dot = 0;
      for (std::size_t j = g * w.group; j < (g + 1) * w.group; ++j) dot += std::int32_t(q[j]) * a.q[j];
      acc = std::fma(float(dot) * a.d[g], from_bf16(w.scales[i * groups + g]), acc);
    }
    y[i] = acc;
  }
}

#if defined(RLK_X86)
#define RLK_ALWAYS_INLINE(TARGET) __attribute__((target(TARGET), always_inline)) inline

// Adds one block's products to the int32 lanes `sum` (wq: 32 weights, xq: x's 32 codes).
RLK_ALWAYS_INLINE("avx2,fma") __m256i dot_avx2(__m256i sum, __m256i wq, __m256i xq) {
  const __m256i pairs = _mm256_maddubs_epi16(_mm256_abs_epi8(wq), _mm256_sign_epi8(xq, wq));
  return _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
}
RLK_ALWAYS_INLINE("avx2,fma,avxvnni") __m256i dot_vnni(__m256i sum, __m256i wq, __m256i xq) {
  return _mm256_dpbusd_avx_epi32(sum, _mm256_xor_si256(wq, _mm256_set1_epi8(char(0x80))), xq);
}
RLK_ALWAYS_INLINE("avx2,fma,avx512vnni,avx512vl") __m256i dot_vnni512(__m256i sum, __m256i wq, __m256i xq) {
  return _mm256_dpbusd_epi32(sum, _mm256_xor_si256(wq, _mm256_set1_epi8(char(0x80))), xq);
}

// One body for every instruction set, as a macro: a target attribute cannot follow a template
// argument. START is a group's first int32 lanes (`start`, or zero for AVX2). (Two sets of lanes
// per row, so that the adds would not wait on each other's latency, ran no faster: with 16
// registers they spill.)
#define RLK_INT8_ROWS(NAME, TARGET, START, DOT)                                                                       \
  __attribute__((target(TARGET))) void NAME(const QuantizedMatrix& w, const Activations& a, float* y, std::size_t r0, \
                                            std::size_t r1, RowPrefetch prefetch) {                                   \
    const std::size_t k = w.cols, groups = k / w.group;                                                               \
    std::size_t row[gemv_streams];                                                                                    \
    for (GemvWalk walk(r0, r1); walk.next(row);) {                                                                    \
      const std::int8_t* p[gemv_streams];                                                                             \
      for (std::size_t r = 0; r < gemv_streams; ++r) p[r] = w.q8.data() + row[r] * k;                                 \
      __m256 acc[gemv_streams];                                                                                       \
      for (auto& v : acc) v = _mm256_setzero_ps();                                                                    \
      for (std::size_t g = 0; g < groups; ++g) {                                                                      \
        /* vpdpbusd's offset out: −16·Σ qx_g per int32 lane, −128·Σ qx_g over the eight */                    \
        [[maybe_unused]] const __m256i start = _mm256_set1_epi32(-16 * a.sum[g]);                                     \
        __m256i sum[gemv_streams];                                                                                    \
        for (auto& v : sum) v = START;                                                                                \
        for (std::size_t j = g * w.group; j < (g + 1) * w.group; j += x_block) {                                      \
          const __m256i xq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.q.data() + j));                    \
          _Pragma("GCC unroll 4") for (std::size_t r = 0; r < gemv_streams; ++r) {                                    \
            if (prefetch == RowPrefetch::ahead && j % 64 == 0)                                                        \
              _mm_prefetch(reinterpret_cast<const char*>(p[r] + j) + row_prefetch_ahead, _MM_HINT_T0);                \
            sum[r] = DOT(sum[r], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p[r] + j)), xq);                 \
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

RLK_INT8_ROWS(rows_avx2, "avx2,fma", _mm256_setzero_si256(), dot_avx2)
RLK_INT8_ROWS(rows_vnni, "avx2,fma,avxvnni", start, dot_vnni)
RLK_INT8_ROWS(rows_vnni512, "avx2,fma,avx512vnni,avx512vl", start, dot_vnni512)
#undef RLK_INT8_ROWS
#undef RLK_ALWAYS_INLINE
#endif

#if defined(RLK_ARM64)
// aarch64: one row at a time, 16 weights a step, the group's integer sum in four int32 lanes.
// NEON multiplies signed bytes into 16-bit products (|q·qx| ≤ 128·127 < 2^15) and adds them in
// pairs into the 32-bit lanes (smull, sadalp); sdot multiplies four pairs into each lane at once.
// Both signed × signed: the weights go in as they are, no offset.
RLK_INLINE int32x4_t dot16_neon(int32x4_t sum, int8x16_t w, int8x16_t x) {
  sum = vpadalq_s16(sum, vmull_s8(vget_low_s8(w), vget_low_s8(x)));
  return vpadalq_s16(sum, vmull_high_s8(w, x));
}
#define RLK_INT8_ROWS_ARM(NAME, ATTR, DOT)                                                                         \
  ATTR void NAME(const QuantizedMatrix& w, const Activations& a, float* y, std::size_t r0, std::size_t r1,         \
                 RowPrefetch prefetch) {                                                                           \
    const std::size_t k = w.cols, groups = k / w.group;                                                            \
    for (std::size_t i = r0; i < r1; ++i) {                                                                        \
      const std::int8_t* q = w.q8.data() + i * k;                                                                  \
      float acc = 0;                                                                                               \
      for (std::size_t g = 0; g < groups; ++g) {                                                                   \
        int32x4_t sum = vdupq_n_s32(0);                                                                            \
        for (std::size_t j = g * w.group; j < (g + 1) * w.group; j += 16) {                                        \
          if (prefetch == RowPrefetch::ahead && j % 64 == 0) __builtin_prefetch(q + j + row_prefetch_ahead, 0, 3); \
          sum = DOT(sum, vld1q_s8(q + j), vld1q_s8(a.q.data() + j));                                               \
        }                                                                                                          \
        acc = std::fma(float(vaddvq_s32(sum)) * a.d[g], from_bf16(w.scales[i * groups + g]), acc);                 \
      }                                                                                                            \
      y[i] = acc;                                                                                                  \
    }                                                                                                              \
  }
RLK_INT8_ROWS_ARM(rows_neon, , dot16_neon)
RLK_INT8_ROWS_ARM(rows_sdot, RLK_TARGET_DOTPROD, vdotq_s32)
#undef RLK_INT8_ROWS_ARM
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

void gemv_int8_dp(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y, IntDot isa,
                  RowPrefetch prefetch) {
  run_int_dot_gemv<Rows>(pool, w, x, y, isa, prefetch, "gemv_int8_dp");
}

}  // namespace rlk::cpu
