// y = W·x, W in BF16 (m × k), x and y in FP32: reads W once (2 bytes per weight) and x, writes y;
// 2 FLOPs per weight, each weight used once. A BF16 is the top half of an FP32, so 16 weights
// loaded as 8 32-bit words give the odd ones by masking the low half and the even ones by a
// 16-bit shift: two instructions per 16 weights, against x split once into even and odd halves.
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

RLK_INLINE void widen_bf16_pairs(const std::uint16_t* p, v8f& even, v8f& odd) {
  v8u words;
  std::memcpy(&words, p, sizeof words);
  even = __builtin_bit_cast(v8f, words << 16);
  odd = __builtin_bit_cast(v8f, words & 0xffff0000u);
}

// Rows walked as four long streams per thread (GemvWalk, kernels.hpp), as the integer-dot
// GEMVs walk theirs, with the same prefetch, so that their comparison measures the bytes.
template <class Isa>
RLK_INLINE void bf16_rows(const std::uint16_t* w, const float* xp, float* y, std::size_t k, std::size_t r0,
                          std::size_t r1, RowPrefetch prefetch) {
  std::size_t row[gemv_streams];
  for (GemvWalk walk(r0, r1); walk.next(row);) {
    v8f acc[gemv_streams][2] = {};
    const std::uint16_t* rows[gemv_streams];
    for (std::size_t r = 0; r < gemv_streams; ++r) rows[r] = w + row[r] * k;
    for (std::size_t j = 0; j < k; j += 16) {
      const v8f xe = load8(xp + j), xo = load8(xp + j + 8);
#pragma GCC unroll 4
      for (std::size_t r = 0; r < gemv_streams; ++r) {
        if (prefetch == RowPrefetch::ahead && j % 32 == 0)
          __builtin_prefetch(reinterpret_cast<const char*>(rows[r] + j) + row_prefetch_ahead, 0, 3);
        v8f we, wo;
        widen_bf16_pairs(rows[r] + j, we, wo);
        acc[r][0] += we * xe;
        acc[r][1] += wo * xo;
      }
    }
    for (std::size_t r = 0; r < gemv_streams; ++r) y[row[r]] = hsum(acc[r][0] + acc[r][1]);
  }
}
RLK_VEC_VARIANTS(bf16_rows,
                 (const std::uint16_t* w, const float* xp, float* y, std::size_t k, std::size_t r0, std::size_t r1,
                  RowPrefetch prefetch),
                 (w, xp, y, k, r0, r1, prefetch))

}  // namespace

void gemv_bf16(ThreadPool& pool, const std::uint16_t* w, const float* x, float* y, std::size_t m, std::size_t k,
               RowPrefetch prefetch) {
  // x in blocks of 16: the 8 even-indexed values, then the 8 odd-indexed ones.
  thread_local std::vector<float> xs;
  xs.resize(k);
  for (std::size_t j = 0; j < k; j += 16)
    for (std::size_t e = 0; e < 8; ++e) {
      xs[j + e] = x[j + 2 * e];
      xs[j + 8 + e] = x[j + 2 * e + 1];
    }
  const float* xp = xs.data();
  parallel_for(pool, m, gemv_streams,
               [&](std::size_t r0, std::size_t r1) { RLK_VEC_CALL(bf16_rows, (w, xp, y, k, r0, r1, prefetch)); });
}

}  // namespace rlk::cpu
