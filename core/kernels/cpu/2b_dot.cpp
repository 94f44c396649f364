// sum = Σ a[i]·b[i], reads a and b (n floats each), writes one number: 2 FLOPs and 8 bytes per
// element, and no writes, so it measures read bandwidth (BabelStream's Dot). Four vector
// accumulators per thread, threads' sums added in double.
#include "kernels.hpp"

namespace rlk::cpu {

double dot(ThreadPool& pool, const float* a, const float* b, std::size_t n) {
  std::vector<double> sums(pool.size(), 0.0);
  pool.run([&](unsigned t, unsigned threads) {
    std::size_t lo, hi;
    split(n, t, threads, 1024, lo, hi);
    v8f s0{}, s1{}, s2{}, s3{};
    std::size_t i = lo;
    for (; i + 32 <= hi; i += 32) {
      s0 += load8(a + i) * load8(b + i);
      s1 += load8(a + i + 8) * load8(b + i + 8);
      s2 += load8(a + i + 16) * load8(b + i + 16);
      s3 += load8(a + i + 24) * load8(b + i + 24);
    }
    double s = 0;
    for (; i < hi; ++i) s += double(a[i]) * b[i];
    for (int l = 0; l < 8; ++l) s += double(s0[l]) + double(s1[l]) + double(s2[l]) + double(s3[l]);
    sums[t] = s;
  });
  double total = 0;
  for (double s : sums) total += s;
  return total;
}

}  // namespace rlk::cpu
