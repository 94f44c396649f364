// Shared shape of the GEMV kernels: a warp owns ROWS rows of W and walks them together, so every
// load of x (from L1) serves ROWS rows; each lane loads 16 bytes of each row per step, and the
// warp sums its lanes with shuffles at the end.
#pragma once

#include "common.cuh"

namespace rlk::cuda::gemv {

inline constexpr int ROWS = 4;           // rows per warp
inline constexpr int WARPS = 4;          // warps per block
inline constexpr int THREADS = 32 * WARPS;

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

inline dim3 grid_for(int m) { return dim3((m + ROWS * WARPS - 1) / (ROWS * WARPS)); }

/// The first of the ROWS rows of W this thread's warp owns (m or more: none).
__device__ __forceinline__ int warp_first_row() { return (blockIdx.x * WARPS + threadIdx.x / 32) * ROWS; }

/// The rows the warp reads: row0 … row0 + ROWS − 1, the last row of W standing in past the end
/// (read, never written).
__device__ __forceinline__ void warp_rows(int row0, int m, int (&rows)[ROWS]) {
#pragma unroll
  for (int r = 0; r < ROWS; ++r) rows[r] = min(row0 + r, m - 1);
}

/// Sums each row's lanes and writes the rows that exist.
__device__ __forceinline__ void store_rows(const float (&acc)[ROWS], int row0, int m, float* __restrict__ y) {
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const float s = warp_sum(acc[r]);
    if (threadIdx.x % 32 == 0 && row0 + r < m) y[row0 + r] = s;
  }
}

}  // namespace rlk::cuda::gemv
