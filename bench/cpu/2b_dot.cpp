// sum = Σ a[i]·b[i], reads a and b (n floats each), writes one number: 2 FLOPs and 8 bytes per
// element, and no writes, so it measures read bandwidth (BabelStream's Dot). Each thread walks
// four parts of its slice at once (eight streams, as a GEMV reading four rows does): more
// cache-line requests in flight than one pair of streams gets. Sums are added in double.
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

template <class Isa>
RLK_INLINE double dot_slice(const float* a, const float* b, std::size_t lo, std::size_t hi) {
  const std::size_t quarter = (hi - lo) / 4 / 16 * 16;  // four parts of whole 16-float steps
  v8f s[4][2] = {};
  for (std::size_t i = 0; i < quarter; i += 16) {
#pragma GCC unroll 4
    for (std::size_t p = 0; p < 4; ++p) {
      const std::size_t at = lo + p * quarter + i;
      s[p][0] += load8(a + at) * load8(b + at);
      s[p][1] += load8(a + at + 8) * load8(b + at + 8);
    }
  }
  double sum = 0;
  for (std::size_t i = lo + 4 * quarter; i < hi; ++i) sum += double(a[i]) * b[i];
  for (auto& part : s)
    for (int l = 0; l < 8; ++l) sum += double(part[0][l]) + double(part[1][l]);
  return sum;
}
RLK_VEC_VARIANTS(dot_slice, (const float* a, const float* b, std::size_t lo, std::size_t hi), (a, b, lo, hi))

}  // namespace

double dot(ThreadPool& pool, const float* a, const float* b, std::size_t n) {
  std::vector<double> sums(pool.size(), 0.0);
  pool.run([&](unsigned t, unsigned threads) {
    std::size_t lo, hi;
    split(n, t, threads, 1024, lo, hi);
    sums[t] = RLK_VEC_CALL(dot_slice, (a, b, lo, hi));
  });
  double total = 0;
  for (double s : sums) total += s;
  return total;
}

}  // namespace rlk::cpu
