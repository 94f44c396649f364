// Y = X·W for a batch: reads W (inputs × outputs) once whatever the batch, X and Y once; 2 FLOPs
// per weight per example. Each weight read is used `batch` times: intensity ≈ batch ÷ 2 in FP32
// until the compute roof.
//
// Batches of at least 6 rows run on the register-blocked matmul (5). Smaller ones are a few
// GEMVs sharing one read of W: four rows of W at a time stream past the batch's output rows,
// which stay in L1 (512 columns at a time), so W is read once and nothing computes padding.
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

void dense_small_batch(ThreadPool& pool, const float* x, const float* w, float* y, std::size_t batch,
                       std::size_t inputs, std::size_t outputs) {
  constexpr std::size_t CB = 512;
  parallel_for(pool, outputs, 64, [&](std::size_t c0, std::size_t c1) {
    for (std::size_t jb = c0; jb < c1; jb += CB) {
      const std::size_t je = std::min(jb + CB, c1), jv = jb + (je - jb) / 8 * 8;
      for (std::size_t b = 0; b < batch; ++b) std::memset(y + b * outputs + jb, 0, (je - jb) * sizeof(float));
      std::size_t t = 0;
      for (; t + 4 <= inputs; t += 4) {
        const float* w0 = w + t * outputs;
        const float *w1 = w0 + outputs, *w2 = w1 + outputs, *w3 = w2 + outputs;
        for (std::size_t j = jb; j < jv; j += 8) {
          const v8f a0 = load8(w0 + j), a1 = load8(w1 + j), a2 = load8(w2 + j), a3 = load8(w3 + j);
          for (std::size_t b = 0; b < batch; ++b) {
            const float* xb = x + b * inputs + t;
            float* yb = y + b * outputs + j;
            store8(yb, load8(yb) + (a0 * splat(xb[0]) + a1 * splat(xb[1])) + (a2 * splat(xb[2]) + a3 * splat(xb[3])));
          }
        }
        for (std::size_t j = jv; j < je; ++j)
          for (std::size_t b = 0; b < batch; ++b) {
            const float* xb = x + b * inputs + t;
            y[b * outputs + j] += (w0[j] * xb[0] + w1[j] * xb[1]) + (w2[j] * xb[2] + w3[j] * xb[3]);
          }
      }
      for (; t < inputs; ++t)
        for (std::size_t b = 0; b < batch; ++b)
          for (std::size_t j = jb; j < je; ++j) y[b * outputs + j] += x[b * inputs + t] * w[t * outputs + j];
    }
  });
}

}  // namespace

void dense_layer(ThreadPool& pool, const float* x, const float* w, float* y, std::size_t batch,
                 std::size_t inputs, std::size_t outputs) {
  if (batch < std::size_t(reg_mr)) dense_small_batch(pool, x, w, y, batch, inputs, outputs);
  else matmul_register(pool, x, w, y, batch, inputs, outputs);
}

}  // namespace rlk::cpu
