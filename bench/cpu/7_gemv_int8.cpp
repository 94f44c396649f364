// y = W·x, W in INT8 with one BF16 scale per group of 128 weights of a row (weight-only):
// reads 1 byte per weight plus the scales, and x; writes y. Dequantized in registers:
// y_i = Σ_g scale_ig · Σ_{j∈g} q_ij·x_j.
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

template <class Isa>
RLK_INLINE void int8_rows(const QuantizedMatrix& w, const float* x, float* y, std::size_t r0, std::size_t r1) {
  const std::size_t k = w.cols, group = w.group, groups = k / group;
  constexpr std::size_t R = 4;
  for (std::size_t i = r0; i < r1; i += R) {
    const std::size_t rows = std::min(R, r1 - i);
    v8f acc[R] = {};
    for (std::size_t g = 0; g < groups; ++g) {
      v8f part[R][2] = {};
      for (std::size_t j = g * group; j < (g + 1) * group; j += 16) {
        const v8f x0 = load8(x + j), x1 = load8(x + j + 8);
#pragma GCC unroll 4
        for (std::size_t r = 0; r < R; ++r) {
          // Past the last row, re-read it (and discard the result): no branch in the loop.
          const std::int8_t* q = w.q8.data() + std::min(i + r, r1 - 1) * k + j;
          part[r][0] += widen_i8<Isa>(q) * x0;
          part[r][1] += widen_i8<Isa>(q + 8) * x1;
        }
      }
      for (std::size_t r = 0; r < rows; ++r)
        acc[r] += (part[r][0] + part[r][1]) * splat(from_bf16(w.scales[(i + r) * groups + g]));
    }
    for (std::size_t r = 0; r < rows; ++r) y[i + r] = hsum(acc[r]);
  }
}
RLK_VEC_VARIANTS(int8_rows, (const QuantizedMatrix& w, const float* x, float* y, std::size_t r0, std::size_t r1),
                 (w, x, y, r0, r1))

}  // namespace

void gemv_int8(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y) {
  parallel_for(pool, w.rows, 4, [&](std::size_t r0, std::size_t r1) { RLK_VEC_CALL(int8_rows, (w, x, y, r0, r1)); });
}

}  // namespace rlk::cpu
