// Shared shape of the GEMV kernels: a warp owns ROWS rows of W and walks them together, so every
// load of x (from L1) serves ROWS rows; each lane loads 16 bytes of each row per step, and the
// warp sums its lanes with shuffles at the end.
#pragma once

#include "common.cuh"

namespace rlk::cuda::gemv {

inline constexpr int ROWS = 4;   // rows per warp
inline constexpr int WARPS = 4;  // warps per block
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

/// The start of every quantized GEMV kernel: the thread's lane, its warp's first row and the
/// ROWS rows the warp reads (warp_rows). False when the warp has no row (its first is m or more):
/// the kernel returns.
__device__ __forceinline__ bool warp_begin(int m, int& lane, int& row0, int (&rows)[ROWS]) {
  lane = threadIdx.x % 32;
  row0 = warp_first_row();
  warp_rows(row0, m, rows);
  return row0 < m;
}

/// N floats of x from p (16-byte aligned) into registers, through the read-only cache.
template <int N>
__device__ __forceinline__ void load_x(const float* __restrict__ p, float (&xb)[N]) {
#pragma unroll
  for (int v = 0; v < N / 4; ++v) {
    const float4 t = __ldg(reinterpret_cast<const float4*>(p + 4 * v));
    xb[4 * v] = t.x;
    xb[4 * v + 1] = t.y;
    xb[4 * v + 2] = t.z;
    xb[4 * v + 3] = t.w;
  }
}

/// 32 INT8 codes of x from p (16-byte aligned) as 8 words, through the read-only cache.
__device__ __forceinline__ void load_codes(const std::int8_t* __restrict__ p, std::uint32_t (&xw)[8]) {
  const uint4 x0 = __ldg(reinterpret_cast<const uint4*>(p)), x1 = __ldg(reinterpret_cast<const uint4*>(p + 16));
  xw[0] = x0.x;
  xw[1] = x0.y;
  xw[2] = x0.z;
  xw[3] = x0.w;
  xw[4] = x1.x;
  xw[5] = x1.y;
  xw[6] = x1.z;
  xw[7] = x1.w;
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
