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

}  // namespace rlk::cuda::gemv
