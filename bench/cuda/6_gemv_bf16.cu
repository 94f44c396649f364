// y = W·x, W in BF16 (m × k), x and y in FP32: reads W once (2 bytes per weight) and x (from
// cache), writes y; 2 FLOPs per weight. A lane loads 8 weights (16 bytes) of each of its warp's
// 4 rows per step; BF16 → FP32 is a 16-bit shift.
#include "gemv.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

using namespace gemv;

__global__ void __launch_bounds__(THREADS)
    gemv_bf16_kernel(const std::uint16_t* __restrict__ w, const float* __restrict__ x, float* __restrict__ y, int m,
                     int k) {
  const int lane = threadIdx.x % 32;
  const int row0 = warp_first_row();
  if (row0 >= m) return;
  float acc[ROWS] = {};
  const uint4* rows[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) rows[r] = reinterpret_cast<const uint4*>(w + std::size_t(min(row0 + r, m - 1)) * k);
  for (int j = lane * 8; j < k; j += 32 * 8) {
    const float4 x0 = __ldg(reinterpret_cast<const float4*>(x + j));
    const float4 x1 = __ldg(reinterpret_cast<const float4*>(x + j + 4));
    uint4 v[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) v[r] = __ldcs(rows[r] + j / 8);  // streamed once: do not keep in cache
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const unsigned words[4] = {v[r].x, v[r].y, v[r].z, v[r].w};
      float s = acc[r];
      s = fmaf(__uint_as_float(words[0] << 16), x0.x, s);
      s = fmaf(__uint_as_float(words[0] & 0xffff0000u), x0.y, s);
      s = fmaf(__uint_as_float(words[1] << 16), x0.z, s);
      s = fmaf(__uint_as_float(words[1] & 0xffff0000u), x0.w, s);
      s = fmaf(__uint_as_float(words[2] << 16), x1.x, s);
      s = fmaf(__uint_as_float(words[2] & 0xffff0000u), x1.y, s);
      s = fmaf(__uint_as_float(words[3] << 16), x1.z, s);
      s = fmaf(__uint_as_float(words[3] & 0xffff0000u), x1.w, s);
      acc[r] = s;
    }
  }
  store_rows(acc, row0, m, y);
}

}  // namespace

void gemv_bf16(const std::uint16_t* w, const float* x, float* y, int m, int k) {
  if (k % 256 != 0) throw std::runtime_error("gemv_bf16 needs k % 256 == 0");
  gemv_bf16_kernel<<<gemv::grid_for(m), gemv::THREADS>>>(w, x, y, m, k);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
