// C = A·B in T × T tiles (T = 64): reads T rows of A and T columns of B per tile of C, each number
// used T times while it sits in cache; writes C once.
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

template <class Isa>
RLK_INLINE void tiled_rows(const float* a, const float* b, float* c, std::size_t k, std::size_t m, std::size_t i0,
                           std::size_t i1) {
  constexpr std::size_t T = tiled_tile;
  for (std::size_t i = i0; i < i1; ++i) std::memset(c + i * m, 0, m * sizeof(float));
  for (std::size_t ib = i0; ib < i1; ib += T)      // a tile of rows of C
    for (std::size_t jb = 0; jb < m; jb += T)      // ... and of columns
      for (std::size_t tb = 0; tb < k; tb += T) {  // walk the inner dimension
        const std::size_t ie = std::min(ib + T, i1), je = std::min(jb + T, m), te = std::min(tb + T, k);
        for (std::size_t i = ib; i < ie; ++i)
          for (std::size_t t = tb; t < te; ++t) {
            const float x = a[i * k + t];
            float* __restrict crow = c + i * m;
            const float* __restrict brow = b + t * m;
            for (std::size_t j = jb; j < je; ++j) crow[j] += x * brow[j];  // vectorized over j
          }
      }
}
RLK_VEC_VARIANTS(tiled_rows,
                 (const float* a, const float* b, float* c, std::size_t k, std::size_t m, std::size_t i0,
                  std::size_t i1),
                 (a, b, c, k, m, i0, i1))

}  // namespace

void matmul_tiled(ThreadPool& pool, const float* a, const float* b, float* c, std::size_t n, std::size_t k,
                  std::size_t m) {
  parallel_for(pool, n, tiled_tile,
               [&](std::size_t i0, std::size_t i1) { RLK_VEC_CALL(tiled_rows, (a, b, c, k, m, i0, i1)); });
}

}  // namespace rlk::cpu
