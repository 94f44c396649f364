// Y = X·W for a batch: reads W (inputs × outputs) once whatever the batch, X and Y once; 2 FLOPs
// per weight per example. Each weight read is used `batch` times: intensity ≈ batch ÷ 2 in FP32
// until the compute roof.
//
// Batches of 16 or more run on the register-blocked matmul (5). Smaller ones are a few GEMVs
// sharing one read of W: four rows of W at a time stream past the batch's output rows (in L2),
// so W is read once, in long contiguous runs, with no packing and no padded rows. (On a 2-core
// Zen 3 the two meet near batch 16: 48 and 46 GFLOP/s.)
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

// Rows [t0, t1) of W into this thread's copy of Y (batch × outputs).
template <class Isa>
RLK_INLINE void dense_rows(const float* x, const float* w, float* yt, std::size_t batch, std::size_t inputs,
                           std::size_t outputs, std::size_t t0, std::size_t t1) {
  const std::size_t jv = outputs / 8 * 8;
  std::fill(yt, yt + batch * outputs, 0.0f);
  std::size_t r = t0;
  for (; r + 4 <= t1; r += 4) {  // four rows of W per pass over Y
    const float* w0 = w + r * outputs;
    const float *w1 = w0 + outputs, *w2 = w1 + outputs, *w3 = w2 + outputs;
    for (std::size_t b = 0; b < batch; ++b) {
      const float* xb = x + b * inputs + r;
      const v8f s0 = splat(xb[0]), s1 = splat(xb[1]), s2 = splat(xb[2]), s3 = splat(xb[3]);
      float* yb = yt + b * outputs;
      for (std::size_t j = 0; j < jv; j += 8)
        store8(yb + j,
               load8(yb + j) + (load8(w0 + j) * s0 + load8(w1 + j) * s1) + (load8(w2 + j) * s2 + load8(w3 + j) * s3));
      for (std::size_t j = jv; j < outputs; ++j)
        yb[j] += (w0[j] * xb[0] + w1[j] * xb[1]) + (w2[j] * xb[2] + w3[j] * xb[3]);
    }
  }
  for (; r < t1; ++r)
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t j = 0; j < outputs; ++j) yt[b * outputs + j] += x[b * inputs + r] * w[r * outputs + j];
}
RLK_VEC_VARIANTS(dense_rows,
                 (const float* x, const float* w, float* yt, std::size_t batch, std::size_t inputs, std::size_t outputs,
                  std::size_t t0, std::size_t t1),
                 (x, w, yt, batch, inputs, outputs, t0, t1))

void dense_small_batch(ThreadPool& pool, const float* x, const float* w, float* y, std::size_t batch,
                       std::size_t inputs, std::size_t outputs) {
  // Threads split the rows of W (contiguous memory: long streams the prefetchers follow) and
  // each sums into its own copy of Y (batch × outputs, in L2); the copies are added at the end.
  const unsigned threads = pool.size();
  // The caller's buffer, kept between calls (no page faults per call); the workers get its
  // address, never their own (empty) thread_local copy.
  thread_local std::vector<float> buffer;
  buffer.resize(std::size_t(threads) * batch * outputs);
  float* const partial = buffer.data();
  pool.run([&](unsigned t, unsigned n_threads) {
    std::size_t t0, t1;
    split(inputs, t, n_threads, 4, t0, t1);
    float* yt = partial + std::size_t(t) * batch * outputs;
    RLK_VEC_CALL(dense_rows, (x, w, yt, batch, inputs, outputs, t0, t1));
  });
  parallel_for(pool, batch * outputs, 1024, [&](std::size_t e0, std::size_t e1) {
    for (std::size_t e = e0; e < e1; ++e) {
      float sum = 0;
      for (unsigned t = 0; t < threads; ++t) sum += partial[std::size_t(t) * batch * outputs + e];
      y[e] = sum;
    }
  });
}

}  // namespace

void dense_layer(ThreadPool& pool, const float* x, const float* w, float* y, std::size_t batch, std::size_t inputs,
                 std::size_t outputs) {
  if (batch < 16) dense_small_batch(pool, x, w, y, batch, inputs, outputs);
  else matmul_register(pool, x, w, y, batch, inputs, outputs);
}

}  // namespace rlk::cpu
