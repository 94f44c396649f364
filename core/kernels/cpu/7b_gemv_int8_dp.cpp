// y = W·x, W in INT8 with one BF16 scale per group of a row (gemv_int8's layout), x quantized
// to INT8 once per call in blocks of 32 (scale d_b): reads 1 byte per weight plus the scales,
// and x; writes y. y_i = Σ_g s_ig · Σ_{b∈g} d_b · Σ_{j∈b} q_ij·qx_j, the inner sum in integers:
// 32 weights meet 32 codes of x in one vpdpbusd (or vpmaddubsw + vpmaddwd), then one convert and
// one FMA by d_b per block and row, one FMA by s_ig per group and row.
//
// vpdpbusd and vpmaddubsw multiply unsigned bytes by signed bytes. vpdpbusd (AVX-VNNI or AVX-512 VNNI): the weights go in
// as q + 128 (an XOR with 0x80), and the sum starts from −128·Σ qx_b, which takes the offset
// back out exactly (int32, no saturation). AVX2: vpmaddubsw adds pairs into int16 with
// saturation, so the weights go in as |q| and x as qx·sign(q): |pair| ≤ 2·128·127 < 2^15.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels.hpp"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define RLK_X86 1
#endif

namespace rlk::cpu {

bool int_dot_available(IntDot isa) {
  switch (isa) {
    case IntDot::scalar: return true;
#if defined(RLK_X86)
    case IntDot::avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case IntDot::avx_vnni:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("avxvnni");
    case IntDot::avx512_vnni:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
             __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vl");
#endif
    default: return false;
  }
}

IntDot best_int_dot() {
  static const IntDot best = int_dot_available(IntDot::avx_vnni)      ? IntDot::avx_vnni
                             : int_dot_available(IntDot::avx512_vnni) ? IntDot::avx512_vnni
                             : int_dot_available(IntDot::avx2)        ? IntDot::avx2
                                                                      : IntDot::scalar;
  return best;
}

#if defined(RLK_X86)
namespace {
int x86_family() {  // CPUID leaf 1: the base family, plus the extended one where the base is 15
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const unsigned base = (a >> 8) & 0xf;
  return int(base == 0xf ? base + ((a >> 20) & 0xff) : base);
}
}  // namespace
#endif

RowPrefetch best_row_prefetch() {
#if defined(RLK_X86)
  static const RowPrefetch best = !__builtin_cpu_is("amd") ? RowPrefetch::ahead
                                  : x86_family() >= 26     ? RowPrefetch::next_rows
                                                           : RowPrefetch::none;
  return best;
#else
  return RowPrefetch::none;
#endif
}

const char* row_prefetch_name(RowPrefetch p) {
  switch (p) {
    case RowPrefetch::next_rows: return "next rows";
    case RowPrefetch::ahead: {
      static const std::string name = std::to_string(row_prefetch_ahead) + " B ahead in the rows";
      return name.c_str();
    }
    default: return "none (hardware only)";
  }
}

const char* int_dot_name(IntDot isa) {
  switch (isa) {
    case IntDot::avx2: return "AVX2 (vpmaddubsw)";
    case IntDot::avx_vnni: return "AVX-VNNI (vpdpbusd)";
    case IntDot::avx512_vnni: return "AVX-512 VNNI (vpdpbusd, 256-bit)";
    default: return "scalar";
  }
}

void check_int_dot(const QuantizedMatrix& w, IntDot isa, const char* kernel) {
  if (!int_dot_available(isa))
    throw std::invalid_argument(std::string(kernel) + ": this CPU has no " + int_dot_name(isa));
  if (w.group == 0 || w.group % x_block != 0 || w.cols % w.group != 0)
    throw std::invalid_argument(std::string(kernel) + ": the group size (" + std::to_string(w.group) +
                                ") must be a multiple of 32 that divides the columns (" + std::to_string(w.cols) + ")");
}

namespace {

constexpr std::size_t R = 4;  // rows at a time share each load of x

struct Activations {
  std::vector<std::int8_t> q;    // codes, in x's order
  std::vector<float> d;          // scale per block of 32
  std::vector<std::int32_t> vnni_start;  // −16·Σ qx_b per int32 lane (8 lanes: −128·Σ qx_b)
};

void quantize(const float* x, std::size_t k, Activations& a) {
  a.q.resize(k);
  a.d.resize(k / x_block);
  a.vnni_start.resize(k / x_block);
  for (std::size_t b = 0; b < k / x_block; ++b) {
    int sum;
    a.d[b] = quantize_x_block(x + b * x_block, a.q.data() + b * x_block, sum);
    a.vnni_start[b] = -16 * sum;
  }
}

void rows_scalar(const QuantizedMatrix& w, const Activations& a, float* y, std::size_t r0, std::size_t r1) {
  const std::size_t k = w.cols, groups = k / w.group;
  for (std::size_t i = r0; i < r1; ++i) {
    const std::int8_t* q = w.q8.data() + i * k;
    float acc = 0;
    for (std::size_t g = 0; g < groups; ++g) {
      float part = 0;
      for (std::size_t j = g * w.group; j < (g + 1) * w.group; j += x_block) {
        std::int32_t dot = 0;
        for (int t = 0; t < x_block; ++t) dot += std::int32_t(q[j + t]) * a.q[j + t];
        part = std::fma(float(dot), a.d[j / x_block], part);
      }
      acc = std::fma(part, from_bf16(w.scales[i * groups + g]), acc);
    }
    y[i] = acc;
  }
}

#if defined(RLK_X86)
// One body for every instruction set, as a macro: a target attribute cannot follow a template
// argument. BLOCK_DOT is the int32 sums of one block (wq: weights, xq: x's codes).
#define RLK_INT8_ROWS(NAME, TARGET, BLOCK_DOT)                                                       \
  __attribute__((target(TARGET))) void NAME(const QuantizedMatrix& w, const Activations& a, float* y, \
                                            std::size_t r0, std::size_t r1, RowPrefetch prefetch) {   \
    const std::size_t k = w.cols, groups = k / w.group;                                             \
    for (std::size_t i = r0; i < r1; i += R) {                                                       \
      const std::int8_t* rows[R];                                                                    \
      for (std::size_t r = 0; r < R; ++r) rows[r] = w.q8.data() + std::min(i + r, r1 - 1) * k;       \
      const std::int8_t* next = w.q8.data() + (i + R) * k; /* the next R rows, prefetched */         \
      __m256 acc[R];                                                                                 \
      for (std::size_t r = 0; r < R; ++r) acc[r] = _mm256_setzero_ps();                              \
      for (std::size_t g = 0; g < groups; ++g) {                                                     \
        __m256 part[R];                                                                              \
        for (std::size_t r = 0; r < R; ++r) part[r] = _mm256_setzero_ps();                           \
        for (std::size_t j = g * w.group; j < (g + 1) * w.group; j += x_block) {                     \
          if (prefetch == RowPrefetch::next_rows) {                                                  \
            /* as many bytes of the next R rows as this step reads of these (2 lines), in order */  \
            const char* ahead = reinterpret_cast<const char*>(next) + j / x_block * (R * x_block);   \
            _mm_prefetch(ahead, _MM_HINT_T0);                                                        \
            _mm_prefetch(ahead + 64, _MM_HINT_T0);                                                   \
          } else if (prefetch == RowPrefetch::ahead && j % 64 == 0) {                                \
            for (std::size_t r = 0; r < R; ++r)                                                      \
              _mm_prefetch(reinterpret_cast<const char*>(rows[r] + j) + row_prefetch_ahead, _MM_HINT_T0); \
          }                                                                                          \
          const __m256i xq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a.q.data() + j));   \
          const __m256 d = _mm256_broadcast_ss(a.d.data() + j / x_block);                            \
          [[maybe_unused]] const __m256i start = _mm256_set1_epi32(a.vnni_start[j / x_block]);       \
          _Pragma("GCC unroll 4") for (std::size_t r = 0; r < R; ++r) {                              \
            const __m256i wq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[r] + j));    \
            part[r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(BLOCK_DOT), d, part[r]);                    \
          }                                                                                          \
        }                                                                                            \
        for (std::size_t r = 0; r < R; ++r) {                                                        \
          const std::size_t row = std::min(i + r, r1 - 1);                                           \
          acc[r] = _mm256_fmadd_ps(part[r], _mm256_set1_ps(from_bf16(w.scales[row * groups + g])), acc[r]); \
        }                                                                                            \
      }                                                                                              \
      for (std::size_t r = 0; r < R && i + r < r1; ++r) {                                            \
        v8f v;                                                                                       \
        std::memcpy(&v, &acc[r], sizeof v);                                                          \
        y[i + r] = hsum(v);                                                                          \
      }                                                                                              \
    }                                                                                                \
  }

RLK_INT8_ROWS(rows_avx2, "avx2,fma",
              _mm256_madd_epi16(_mm256_maddubs_epi16(_mm256_abs_epi8(wq), _mm256_sign_epi8(xq, wq)),
                                _mm256_set1_epi16(1)))
RLK_INT8_ROWS(rows_vnni, "avx2,fma,avxvnni",
              _mm256_dpbusd_avx_epi32(start, _mm256_xor_si256(wq, _mm256_set1_epi8(char(0x80))), xq))
RLK_INT8_ROWS(rows_vnni512, "avx2,fma,avx512vnni,avx512vl",
              _mm256_dpbusd_epi32(start, _mm256_xor_si256(wq, _mm256_set1_epi8(char(0x80))), xq))
#undef RLK_INT8_ROWS
#endif

}  // namespace

void gemv_int8_dp(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y, IntDot isa, RowPrefetch prefetch) {
  check_int_dot(w, isa, "gemv_int8_dp");
  thread_local Activations codes;  // the caller's; a lambda would see each worker's own
  quantize(x, w.cols, codes);
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
