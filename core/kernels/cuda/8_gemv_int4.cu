// y = W·x, W in INT4 (two weights per byte, stored as q + 8, blocks of 32 weights in 16 bytes:
// byte j holds weight j low, weight j + 16 high) with one BF16 scale per group of 128 weights of
// a row: reads half a byte per weight plus the scales, and x (from cache); writes y. A lane
// loads one block (32 weights) per row per step; the offset 8 is folded in as −8·Σx per block.
#include "gemv.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

using namespace gemv;

// Σ over the 8 nibbles of `word` (bytes b0..b3: low nibbles are weights lo..lo+3, high nibbles
// weights hi..hi+3) times their x values.
__device__ __forceinline__ float dot8_u4(unsigned word, float4 xlo, float4 xhi, float s) {
  s = fmaf(float(word & 15u), xlo.x, s);
  s = fmaf(float((word >> 8) & 15u), xlo.y, s);
  s = fmaf(float((word >> 16) & 15u), xlo.z, s);
  s = fmaf(float((word >> 24) & 15u), xlo.w, s);
  s = fmaf(float((word >> 4) & 15u), xhi.x, s);
  s = fmaf(float((word >> 12) & 15u), xhi.y, s);
  s = fmaf(float((word >> 20) & 15u), xhi.z, s);
  return fmaf(float(word >> 28), xhi.w, s);
}

__global__ void __launch_bounds__(THREADS)
gemv_int4_kernel(const std::uint8_t* __restrict__ q, const std::uint16_t* __restrict__ scales,
                 const float* __restrict__ x, float* __restrict__ y, int m, int k, int group) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int row0 = (blockIdx.x * WARPS + warp) * ROWS;
  if (row0 >= m) return;
  const int groups = k / group;
  float acc[ROWS] = {};
  int rows[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) rows[r] = min(row0 + r, m - 1);
  for (int j = lane * 32; j < k; j += 32 * 32) {
    float4 xs[8];
#pragma unroll
    for (int v = 0; v < 8; ++v) xs[v] = __ldg(reinterpret_cast<const float4*>(x + j + 4 * v));
    const float x_sum = ((xs[0].x + xs[0].y) + (xs[0].z + xs[0].w)) + ((xs[1].x + xs[1].y) + (xs[1].z + xs[1].w)) +
                        ((xs[2].x + xs[2].y) + (xs[2].z + xs[2].w)) + ((xs[3].x + xs[3].y) + (xs[3].z + xs[3].w)) +
                        ((xs[4].x + xs[4].y) + (xs[4].z + xs[4].w)) + ((xs[5].x + xs[5].y) + (xs[5].z + xs[5].w)) +
                        ((xs[6].x + xs[6].y) + (xs[6].z + xs[6].w)) + ((xs[7].x + xs[7].y) + (xs[7].z + xs[7].w));
    uint4 w[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) w[r] = __ldcs(reinterpret_cast<const uint4*>(q + (std::size_t(rows[r]) * k + j) / 2));
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      float s = -8.0f * x_sum;
      s = dot8_u4(w[r].x, xs[0], xs[4], s);  // bytes 0-3: weights 0-3 and 16-19
      s = dot8_u4(w[r].y, xs[1], xs[5], s);  // bytes 4-7: weights 4-7 and 20-23
      s = dot8_u4(w[r].z, xs[2], xs[6], s);
      s = dot8_u4(w[r].w, xs[3], xs[7], s);
      acc[r] = fmaf(bf16_to_float(__ldg(scales + std::size_t(rows[r]) * groups + j / group)), s, acc[r]);
    }
  }
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const float s = warp_sum(acc[r]);
    if (lane == 0 && row0 + r < m) y[row0 + r] = s;
  }
}

}  // namespace

void gemv_int4(const std::uint8_t* q, const std::uint16_t* scales, const float* x, float* y, int m, int k, int group) {
  if (k % 1024 != 0 || group % 32 != 0) throw std::runtime_error("gemv_int4 needs k % 1024 == 0, group % 32 == 0");
  gemv_int4_kernel<<<gemv::grid_for(m), gemv::THREADS>>>(q, scales, x, y, m, k, group);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
