// a = b + s·c, reads b and c, writes a (n floats each): 2 FLOPs and 12 bytes per element.
#include "kernels.hpp"
#include "stream.hpp"

namespace rlk::cpu {
namespace {

template <class Isa>
RLK_INLINE void triad_slice(float* a, const float* b, const float* c, float scalar, std::size_t lo, std::size_t hi) {
  const v8f s = splat(scalar);
  std::size_t i = lo;
  if ((reinterpret_cast<std::uintptr_t>(a + lo) % 32) == 0) {
    for (; i + 16 <= hi; i += 16) {
      detail::stream_store8(a + i, load8(b + i) + s * load8(c + i));
      detail::stream_store8(a + i + 8, load8(b + i + 8) + s * load8(c + i + 8));
    }
  }
  for (; i < hi; ++i) a[i] = b[i] + scalar * c[i];
  detail::stream_fence();
}
RLK_VEC_VARIANTS(triad_slice, (float* a, const float* b, const float* c, float s, std::size_t lo, std::size_t hi),
                 (a, b, c, s, lo, hi))

}  // namespace

void triad(ThreadPool& pool, float* a, const float* b, const float* c, float scalar, std::size_t n) {
  parallel_for(pool, n, detail::stream_grain,
               [&](std::size_t lo, std::size_t hi) { RLK_VEC_CALL(triad_slice, (a, b, c, scalar, lo, hi)); });
}

}  // namespace rlk::cpu
