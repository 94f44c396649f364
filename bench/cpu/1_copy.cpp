// c = a, reads a (n floats), writes c (n floats): 0 FLOPs, 8 bytes per element.
#include "kernels.hpp"
#include "stream.hpp"

namespace rlk::cpu {
namespace {

template <class Isa>
RLK_INLINE void copy_slice(const float* a, float* c, std::size_t b, std::size_t e) {
  std::size_t i = b;
  const bool aligned = (reinterpret_cast<std::uintptr_t>(c + b) % 32) == 0;
  if (aligned) {
    for (; i + 32 <= e; i += 32) {
      const v8f x0 = load8(a + i), x1 = load8(a + i + 8), x2 = load8(a + i + 16), x3 = load8(a + i + 24);
      detail::stream_store8(c + i, x0);
      detail::stream_store8(c + i + 8, x1);
      detail::stream_store8(c + i + 16, x2);
      detail::stream_store8(c + i + 24, x3);
    }
  }
  for (; i < e; ++i) c[i] = a[i];
  detail::stream_fence();
}
RLK_VEC_VARIANTS(copy_slice, (const float* a, float* c, std::size_t b, std::size_t e), (a, c, b, e))

}  // namespace

void copy(ThreadPool& pool, const float* a, float* c, std::size_t n) {
  parallel_for(pool, n, detail::stream_grain,
               [&](std::size_t b, std::size_t e) { RLK_VEC_CALL(copy_slice, (a, c, b, e)); });
}

}  // namespace rlk::cpu
