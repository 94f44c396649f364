// C = max(A·B + bias, 0). Unfused, three passes: the matmul writes C; the bias pass reads and
// writes C; the ReLU pass reads and writes C (5 transfers of C). Fused, one pass: bias and ReLU
// are applied in registers and C is written once.
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

template <class Isa>
RLK_INLINE void add_bias_rows(float* c, const float* bias, std::size_t m, std::size_t i0, std::size_t i1) {
  for (std::size_t i = i0; i < i1; ++i) {
    float* __restrict row = c + i * m;
    for (std::size_t j = 0; j < m; ++j) row[j] += bias[j];
  }
}
RLK_VEC_VARIANTS(add_bias_rows, (float* c, const float* bias, std::size_t m, std::size_t i0, std::size_t i1),
                 (c, bias, m, i0, i1))

template <class Isa>
RLK_INLINE void relu_slice(float* __restrict p, std::size_t e0, std::size_t e1) {
  for (std::size_t e = e0; e < e1; ++e) p[e] = p[e] > 0.0f ? p[e] : 0.0f;
}
RLK_VEC_VARIANTS(relu_slice, (float* p, std::size_t e0, std::size_t e1), (p, e0, e1))

}  // namespace

void bias_relu_unfused(ThreadPool& pool, const float* a, const float* b, const float* bias, float* c, std::size_t n,
                       std::size_t k, std::size_t m) {
  matmul_register(pool, a, b, c, n, k, m);
  parallel_for(pool, n, 16, [&](std::size_t i0, std::size_t i1) {  // pass 2: + bias
    RLK_VEC_CALL(add_bias_rows, (c, bias, m, i0, i1));
  });
  parallel_for(pool, n * m, 1024, [&](std::size_t e0, std::size_t e1) {  // pass 3: ReLU
    RLK_VEC_CALL(relu_slice, (c, e0, e1));
  });
}

void bias_relu_fused(ThreadPool& pool, const float* a, const float* b, const float* bias, float* c, std::size_t n,
                     std::size_t k, std::size_t m) {
  matmul_register(pool, a, b, c, n, k, m, bias);
}

}  // namespace rlk::cpu
