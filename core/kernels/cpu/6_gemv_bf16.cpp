// y = W·x, W in BF16 (m × k), x and y in FP32: reads W once (2 bytes per weight) and x, writes y;
// 2 FLOPs per weight, each weight used once. A BF16 is the top half of an FP32, so 16 weights
// loaded as 8 32-bit words give the odd ones by masking the low half and the even ones by a
// 16-bit shift: two instructions per 16 weights, against x split once into even and odd halves.
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

inline void widen_bf16_pairs(const std::uint16_t* p, v8f& even, v8f& odd) {
  v8u words;
  std::memcpy(&words, p, sizeof words);
  even = __builtin_bit_cast(v8f, words << 16);
  odd = __builtin_bit_cast(v8f, words & 0xffff0000u);
}

}  // namespace

void gemv_bf16(ThreadPool& pool, const std::uint16_t* w, const float* x, float* y, std::size_t m,
               std::size_t k, RowPrefetch prefetch) {
  // x in blocks of 16: the 8 even-indexed values, then the 8 odd-indexed ones.
  thread_local std::vector<float> xs;
  xs.resize(k);
  for (std::size_t j = 0; j < k; j += 16)
    for (std::size_t e = 0; e < 8; ++e) {
      xs[j + e] = x[j + 2 * e];
      xs[j + 8 + e] = x[j + 2 * e + 1];
    }
  const float* xp = xs.data();
  constexpr std::size_t R = 4;  // rows at a time share each load of x
  parallel_for(pool, m, R, [&](std::size_t r0, std::size_t r1) {
    for (std::size_t i = r0; i < r1; i += R) {
      v8f acc[R][2] = {};
      const std::uint16_t* rows[R];
      for (std::size_t r = 0; r < R; ++r) rows[r] = w + std::min(i + r, r1 - 1) * k;  // tail: re-read
      // Software prefetch as the integer-dot GEMVs do on this CPU (RowPrefetch), so that their
      // comparison measures the bytes, not the prefetching. next_rows: as many bytes of the next R
      // rows per step as this one reads (2 lines), in order; ahead: a line per row every 64 bytes.
      const char* next = reinterpret_cast<const char*>(w + (i + R) * k);
      for (std::size_t j = 0; j < k; j += 16) {
        if (prefetch == RowPrefetch::next_rows) {
          __builtin_prefetch(next + j / 16 * (R * 32));
          __builtin_prefetch(next + j / 16 * (R * 32) + 64);
        } else if (prefetch == RowPrefetch::ahead && j % 32 == 0) {
          for (std::size_t r = 0; r < R; ++r)
            __builtin_prefetch(reinterpret_cast<const char*>(rows[r] + j) + row_prefetch_ahead);
        }
        const v8f xe = load8(xp + j), xo = load8(xp + j + 8);
#pragma GCC unroll 4
        for (std::size_t r = 0; r < R; ++r) {
          v8f we, wo;
          widen_bf16_pairs(rows[r] + j, we, wo);
          acc[r][0] += we * xe;
          acc[r][1] += wo * xo;
        }
      }
      for (std::size_t r = 0; r < R && i + r < r1; ++r) y[i + r] = hsum(acc[r][0] + acc[r][1]);
    }
  });
}

}  // namespace rlk::cpu
