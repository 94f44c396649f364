// y = W·x, W in INT4 (two weights per byte, stored as q + 8) with one BF16 scale per group of
// 128 weights of a row: reads half a byte per weight plus the scales, and x; writes y.
// Σ_j (nib_j − 8)·x_j = Σ_j nib_j·x_j − 8·Σ_j x_j, so the offset costs one multiply per group
// with the group sums of x, computed once for all rows.
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

template <class Isa>
RLK_INLINE void int4_rows(const QuantizedMatrix& w, const float* x, const float* x_sums, float* y, std::size_t r0,
                          std::size_t r1) {
  const std::size_t k = w.cols, group = w.group, groups = k / group;
  constexpr std::size_t R = 4;
  for (std::size_t i = r0; i < r1; i += R) {
    const std::size_t rows = std::min(R, r1 - i);
    v8f acc[R] = {};
    float offset[R] = {};
    for (std::size_t g = 0; g < groups; ++g) {
      v8f part[R][2] = {};
      for (std::size_t j = g * group; j < (g + 1) * group; j += int4_block) {
        const v8f x0 = load8(x + j), x1 = load8(x + j + 8), x2 = load8(x + j + 16), x3 = load8(x + j + 24);
#pragma GCC unroll 4
        for (std::size_t r = 0; r < R; ++r) {
          // Past the last row, re-read it (and discard the result): no branch in the loop.
          const std::uint8_t* p = w.q4.data() + std::min(i + r, r1 - 1) * (k / 2) + j / 2;
          v8f lo0, hi0, lo1, hi1;
          widen_nibbles<Isa>(p, lo0, hi0);      // weights j … j+7 and j+16 … j+23
          widen_nibbles<Isa>(p + 8, lo1, hi1);  // weights j+8 … j+15 and j+24 … j+31
          part[r][0] += lo0 * x0;               // separate statements: two FMAs, not a multiply,
          part[r][0] += hi0 * x2;               // an FMA and an add
          part[r][1] += lo1 * x1;
          part[r][1] += hi1 * x3;
        }
      }
      for (std::size_t r = 0; r < rows; ++r) {
        const float s = from_bf16(w.scales[(i + r) * groups + g]);
        acc[r] += (part[r][0] + part[r][1]) * splat(s);
        offset[r] += s * x_sums[g];
      }
    }
    for (std::size_t r = 0; r < rows; ++r) y[i + r] = hsum(acc[r]) - offset[r];
  }
}
RLK_VEC_VARIANTS(int4_rows,
                 (const QuantizedMatrix& w, const float* x, const float* x_sums, float* y, std::size_t r0,
                  std::size_t r1),
                 (w, x, x_sums, y, r0, r1))

}  // namespace

void gemv_int4(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y) {
  const std::size_t group = w.group, groups = w.cols / group;
  std::vector<float> x_sums(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    float s = 0;
    for (std::size_t j = g * group; j < (g + 1) * group; ++j) s += x[j];
    x_sums[g] = 8.0f * s;
  }
  const float* xs = x_sums.data();
  parallel_for(pool, w.rows, 4,
               [&](std::size_t r0, std::size_t r1) { RLK_VEC_CALL(int4_rows, (w, x, xs, y, r0, r1)); });
}

}  // namespace rlk::cpu
