// y = W·x, W in INT4 with one BF16 scale per group of a row (gemv_int4's layout: 16 bytes per
// block of 32 weights, byte j = weight j low, weight j + 16 high, each stored as q + 8), x
// quantized to INT8 once per call in blocks of 32 (scale d_b): reads half a byte per weight plus
// the scales, and x; writes y. y_i = Σ_g s_ig · Σ_{b∈g} d_b · Σ_{j∈b} (nib_ij − 8)·qx_j, the
// inner sum in integers.
//
// The nibbles go in unsigned, as they are stored (0 … 15): no sign trick, and the offset 8 comes
// out exactly by starting each block's integer sum from −8·Σ qx_b (once per call, for all rows).
// Two blocks are one 32-byte load: its low nibbles are weights 0–15 of both blocks, its high
// nibbles weights 16–31, so x is stored in that order once per call, and one AND, one shift, one
// AND and two vpdpbusd (or two vpmaddubsw, an add and a vpmaddwd) cover 64 weights; int32 lanes
// 0–3 hold the first block's sum, 4–7 the second's, each converted once and scaled by its d_b.
// A group with an odd number of blocks ends with one block on its own.
#include <cmath>
#include <vector>

#include "kernels.hpp"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RLK_X86 1
#endif

namespace rlk::cpu {
namespace {

constexpr std::size_t R = 4;  // rows at a time share each load of x

struct Activations {
  std::vector<std::int8_t> natural;  // codes in x's order (portable path)
  std::vector<std::int8_t> paired;   // codes in the kernels' nibble order (see above)
  std::vector<float> d;              // 8 lanes per block index: the scale of the lane's block
  std::vector<std::int32_t> start;   // 8 lanes per block index: −8·Σ qx_b spread over the lanes
  std::vector<float> d_block;        // one per block (portable path)
  std::vector<int> sum;              // Σ qx per block (portable path)
};

void quantize(const float* x, std::size_t k, std::size_t group, Activations& a) {
  const std::size_t blocks = k / x_block;
  a.natural.resize(k);
  a.paired.resize(k);
  a.d.resize(blocks * 8);
  a.start.resize(blocks * 8);
  a.d_block.resize(blocks);
  a.sum.resize(blocks);
  for (std::size_t b = 0; b < blocks; ++b)
    a.d_block[b] = quantize_x_block(x + b * x_block, a.natural.data() + b * x_block, a.sum[b]);
  const std::size_t per_group = group / x_block;
  for (std::size_t g0 = 0; g0 < blocks; g0 += per_group) {
    const std::size_t pairs_end = g0 + per_group / 2 * 2;
    for (std::size_t b = g0; b < pairs_end; b += 2) {
      const std::int8_t* q0 = a.natural.data() + b * x_block;
      std::int8_t* out = a.paired.data() + b * x_block;
      for (int j = 0; j < 16; ++j) {
        out[j] = q0[j];
        out[16 + j] = q0[x_block + j];
        out[32 + j] = q0[16 + j];
        out[48 + j] = q0[x_block + 16 + j];
      }
      for (int l = 0; l < 8; ++l) {
        a.d[b * 8 + l] = a.d_block[b + l / 4];
        a.start[b * 8 + l] = -2 * a.sum[b + l / 4];
      }
    }
    if (pairs_end < g0 + per_group) {  // one block on its own: codes in x's order
      const std::size_t b = pairs_end;
      std::copy_n(a.natural.data() + b * x_block, x_block, a.paired.data() + b * x_block);
      for (int l = 0; l < 8; ++l) {
        a.d[b * 8 + l] = a.d_block[b];
        a.start[b * 8 + l] = -a.sum[b];
      }
    }
  }
}

void rows_scalar(const QuantizedMatrix& w, const Activations& a, float* y, std::size_t r0, std::size_t r1) {
  const std::size_t k = w.cols, groups = k / w.group;
  for (std::size_t i = r0; i < r1; ++i) {
    const std::uint8_t* p = w.q4.data() + i * (k / 2);
    float acc = 0;
    for (std::size_t g = 0; g < groups; ++g) {
      float part = 0;
      for (std::size_t j = g * w.group; j < (g + 1) * w.group; j += x_block) {
        const std::uint8_t* bytes = p + j / 2;
        const std::int8_t* q = a.natural.data() + j;
        std::int32_t dot = -8 * a.sum[j / x_block];
        for (int t = 0; t < 16; ++t) dot += (bytes[t] & 15) * q[t] + (bytes[t] >> 4) * q[16 + t];
        part = std::fma(float(dot), a.d_block[j / x_block], part);
      }
      acc = std::fma(part, from_bf16(w.scales[i * groups + g]), acc);
    }
    y[i] = acc;
  }
}

#if defined(RLK_X86)
#define RLK_ALWAYS_INLINE(TARGET) __attribute__((target(TARGET), always_inline)) inline

// Σ over two blocks (lo, hi: the nibbles of one 32-byte load; xa, xb: the paired codes) and over
// one block (v: its low nibbles, then its high ones), added to `start`.
RLK_ALWAYS_INLINE("avx2,fma") __m256i pair_avx2(__m256i lo, __m256i hi, __m256i xa, __m256i xb, __m256i start) {
  // |pair of products| ≤ 2·15·127, two of them ≤ 7,620: no int16 saturation.
  const __m256i s16 = _mm256_add_epi16(_mm256_maddubs_epi16(lo, xa), _mm256_maddubs_epi16(hi, xb));
  return _mm256_add_epi32(_mm256_madd_epi16(s16, _mm256_set1_epi16(1)), start);
}
RLK_ALWAYS_INLINE("avx2,fma") __m256i single_avx2(__m256i v, __m256i xq, __m256i start) {
  return _mm256_add_epi32(_mm256_madd_epi16(_mm256_maddubs_epi16(v, xq), _mm256_set1_epi16(1)), start);
}
RLK_ALWAYS_INLINE("avx2,fma,avxvnni") __m256i pair_vnni(__m256i lo, __m256i hi, __m256i xa, __m256i xb, __m256i start) {
  return _mm256_dpbusd_avx_epi32(_mm256_dpbusd_avx_epi32(start, lo, xa), hi, xb);
}
RLK_ALWAYS_INLINE("avx2,fma,avxvnni") __m256i single_vnni(__m256i v, __m256i xq, __m256i start) {
  return _mm256_dpbusd_avx_epi32(start, v, xq);
}
RLK_ALWAYS_INLINE("avx2,fma,avx512vnni,avx512vl") __m256i pair_vnni512(__m256i lo, __m256i hi, __m256i xa, __m256i xb, __m256i start) {
  return _mm256_dpbusd_epi32(_mm256_dpbusd_epi32(start, lo, xa), hi, xb);
}
RLK_ALWAYS_INLINE("avx2,fma,avx512vnni,avx512vl") __m256i single_vnni512(__m256i v, __m256i xq, __m256i start) {
  return _mm256_dpbusd_epi32(start, v, xq);
}

// One body for every instruction set (the target attribute cannot follow a template argument).
#define RLK_INT4_ROWS(NAME, TARGET, PAIR, SINGLE)                                                        \
  __attribute__((target(TARGET))) void NAME(const QuantizedMatrix& w, const Activations& a, float* y,     \
                                            std::size_t r0, std::size_t r1, RowPrefetch prefetch) {       \
    const std::size_t k = w.cols, groups = k / w.group, pairs_end = w.group / 64 * 64;                  \
    const __m256i low4 = _mm256_set1_epi8(15);                                                           \
    for (std::size_t i = r0; i < r1; i += R) {                                                           \
      const std::uint8_t* rows[R];                                                                       \
      for (std::size_t r = 0; r < R; ++r) rows[r] = w.q4.data() + std::min(i + r, r1 - 1) * (k / 2);     \
      const std::uint8_t* next = w.q4.data() + (i + R) * (k / 2);  /* the next R rows, prefetched */     \
      __m256 acc[R];                                                                                     \
      for (std::size_t r = 0; r < R; ++r) acc[r] = _mm256_setzero_ps();                                  \
      for (std::size_t g = 0; g < groups; ++g) {                                                         \
        const std::size_t j0 = g * w.group;                                                              \
        __m256 part[R];                                                                                  \
        for (std::size_t r = 0; r < R; ++r) part[r] = _mm256_setzero_ps();                               \
        for (std::size_t j = j0; j < j0 + pairs_end; j += 64) {                                          \
          if (prefetch == RowPrefetch::next_rows) {                                                      \
            /* as many bytes of the next R rows as this step reads of these (2 lines), in order */      \
            const char* ahead = reinterpret_cast<const char*>(next) + j / 64 * (R * 32);                 \
            _mm_prefetch(ahead, _MM_HINT_T0);                                                            \
            _mm_prefetch(ahead + 64, _MM_HINT_T0);                                                       \
          } else if (prefetch == RowPrefetch::ahead && j % 128 == 0) {                                   \
            for (std::size_t r = 0; r < R; ++r)                                                          \
              _mm_prefetch(reinterpret_cast<const char*>(rows[r] + j / 2) + row_prefetch_ahead, _MM_HINT_T0); \
          }                                                                                              \
          const __m256i xa = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.paired.data() + j));  \
          const __m256i xb = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.paired.data() + j + 32)); \
          const __m256 d = _mm256_loadu_ps(a.d.data() + j / x_block * 8);                               \
          const __m256i start = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.start.data() + j / x_block * 8)); \
          _Pragma("GCC unroll 4") for (std::size_t r = 0; r < R; ++r) {                                  \
            const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[r] + j / 2)); \
            const __m256i lo = _mm256_and_si256(bytes, low4);                                            \
            const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(bytes, 4), low4);                      \
            part[r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(PAIR(lo, hi, xa, xb, start)), d, part[r]);      \
          }                                                                                              \
        }                                                                                                \
        if (pairs_end < w.group) {                                                                       \
          const std::size_t j = j0 + pairs_end;                                                          \
          const __m256i xq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.paired.data() + j));  \
          const __m256 d = _mm256_loadu_ps(a.d.data() + j / x_block * 8);                               \
          const __m256i start = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.start.data() + j / x_block * 8)); \
          for (std::size_t r = 0; r < R; ++r) {                                                          \
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[r] + j / 2));        \
            const __m256i v = _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(b, 4), b), low4);         \
            part[r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(SINGLE(v, xq, start)), d, part[r]);             \
          }                                                                                              \
        }                                                                                                \
        for (std::size_t r = 0; r < R; ++r) {                                                            \
          const std::size_t row = std::min(i + r, r1 - 1);                                               \
          acc[r] = _mm256_fmadd_ps(part[r], _mm256_set1_ps(from_bf16(w.scales[row * groups + g])), acc[r]); \
        }                                                                                                \
      }                                                                                                  \
      for (std::size_t r = 0; r < R && i + r < r1; ++r) {                                                \
        v8f v;                                                                                           \
        std::memcpy(&v, &acc[r], sizeof v);                                                              \
        y[i + r] = hsum(v);                                                                              \
      }                                                                                                  \
    }                                                                                                    \
  }

RLK_INT4_ROWS(rows_avx2, "avx2,fma", pair_avx2, single_avx2)
RLK_INT4_ROWS(rows_vnni, "avx2,fma,avxvnni", pair_vnni, single_vnni)
RLK_INT4_ROWS(rows_vnni512, "avx2,fma,avx512vnni,avx512vl", pair_vnni512, single_vnni512)
#undef RLK_INT4_ROWS
#undef RLK_ALWAYS_INLINE
#endif

}  // namespace

void gemv_int4_dp(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y, IntDot isa, RowPrefetch prefetch) {
  check_int_dot(w, isa, "gemv_int4_dp");
  thread_local Activations codes;  // the caller's; a lambda would see each worker's own
  quantize(x, w.cols, w.group, codes);
  const Activations& a = codes;
  parallel_for(pool, w.rows, R, [&](std::size_t r0, std::size_t r1) {
    switch (isa) {
#if defined(RLK_X86)
      case IntDot::avx_vnni: rows_vnni(w, a, y, r0, r1, prefetch); break;
      case IntDot::avx512_vnni: rows_vnni512(w, a, y, r0, r1, prefetch); break;
      case IntDot::avx2: rows_avx2(w, a, y, r0, r1, prefetch); break;
#endif
      default: rows_scalar(w, a, y, r0, r1); break;
    }
  });
}

}  // namespace rlk::cpu
