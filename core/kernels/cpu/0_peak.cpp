// acc = acc·a + b on 12 independent vectors per thread, reads nothing, writes one float: the
// most FP32 FLOP/s the cores deliver (two FMA pipes × 4-cycle latency need ≥ 8 chains in flight).
#include "kernels.hpp"

namespace rlk::cpu {

float peak_fma(ThreadPool& pool, long iterations) {
  std::vector<float> sums(pool.size());
  pool.run([&](unsigned t, unsigned) {
    const float seed = 0.001f * float(t + 1);
    v8f c0 = splat(seed), c1 = c0 + 1, c2 = c0 + 2, c3 = c0 + 3, c4 = c0 + 4, c5 = c0 + 5, c6 = c0 + 6,
        c7 = c0 + 7, c8 = c0 + 8, c9 = c0 + 9, c10 = c0 + 10, c11 = c0 + 11;
    const v8f a = splat(0.999999f), b = splat(1e-7f);
    for (long it = 0; it < iterations; ++it) {
      c0 = c0 * a + b; c1 = c1 * a + b; c2 = c2 * a + b; c3 = c3 * a + b;
      c4 = c4 * a + b; c5 = c5 * a + b; c6 = c6 * a + b; c7 = c7 * a + b;
      c8 = c8 * a + b; c9 = c9 * a + b; c10 = c10 * a + b; c11 = c11 * a + b;
    }
    sums[t] = hsum(((c0 + c1) + (c2 + c3)) + ((c4 + c5) + (c6 + c7)) + ((c8 + c9) + (c10 + c11)));
  });
  float total = 0;
  for (float s : sums) total += s;
  return total;
}

}  // namespace rlk::cpu
