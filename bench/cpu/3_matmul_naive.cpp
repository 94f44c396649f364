// C = A·B, the lesson's triple loop: reads a row of A and a column of B (stride m) for every
// C[i][j], writes C once. No reuse by design: 2 FLOPs per 8 bytes fetched (FP32).
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

template <class Isa>
RLK_INLINE void naive_rows(const float* a, const float* b, float* c, std::size_t k, std::size_t m, std::size_t i0,
                           std::size_t i1) {
  for (std::size_t i = i0; i < i1; ++i)    // each row of A
    for (std::size_t j = 0; j < m; ++j) {  // each column of B
      float sum = 0;
      for (std::size_t t = 0; t < k; ++t)  // the dot product, one MAC at a time
        sum += a[i * k + t] * b[t * m + j];
      c[i * m + j] = sum;
    }
}
RLK_VEC_VARIANTS(naive_rows,
                 (const float* a, const float* b, float* c, std::size_t k, std::size_t m, std::size_t i0,
                  std::size_t i1),
                 (a, b, c, k, m, i0, i1))

}  // namespace

void matmul_naive(ThreadPool& pool, const float* a, const float* b, float* c, std::size_t n, std::size_t k,
                  std::size_t m) {
  parallel_for(pool, n, 1, [&](std::size_t i0, std::size_t i1) { RLK_VEC_CALL(naive_rows, (a, b, c, k, m, i0, i1)); });
}

}  // namespace rlk::cpu
