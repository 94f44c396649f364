// y = W·x, W in INT8 with one BF16 scale per group of a row (gemv_int8's layout), x quantized to
// INT8 per call in blocks of 32 (quantize_x below, numeric.hpp's rule): reads 1 byte per weight
// plus the scales, and x's codes (from cache); writes y. A lane takes one block of 32 weights of
// each of the warp's rows per step: 8 __dp4a in int32, one conversion and two multiplies (the
// block's d and the group's scale) per block and row.
#include "gemv.cuh"
#include "int_dot.hpp"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

using namespace gemv;

__device__ __forceinline__ float warp_max_nan(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const float u = __shfl_xor_sync(0xffffffffu, v, o);
    v = (u > v || u != u) ? u : v;  // a NaN sticks, as on the host
  }
  return v;
}

__device__ __forceinline__ int warp_sum_int(int v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// One warp per block of 32 values of x: d = max|x| ÷ 127, q = round(x ÷ d) (to nearest even,
// as lrintf on the host), Σ q.
__global__ void quantize_x_kernel(const float* __restrict__ x, std::int8_t* __restrict__ q, float* __restrict__ d,
                                  int* __restrict__ sum, int blocks) {
  const int lane = threadIdx.x % 32, b = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (b >= blocks) return;
  const float v = x[b * 32 + lane];
  const float amax = warp_max_nan(fabsf(v));
  const float inv = amax > 0 ? 127.0f / amax : 0.0f;
  const int code = __float2int_rn(v * inv);
  q[b * 32 + lane] = static_cast<std::int8_t>(code);
  const int s = warp_sum_int(code);
  if (lane == 0) {
    d[b] = amax / 127.0f;
    sum[b] = s;
  }
}

__global__ void __launch_bounds__(THREADS)
    gemv_int8_dp4a_kernel(const std::int8_t* __restrict__ q, const std::uint16_t* __restrict__ scales,
                          const std::int8_t* __restrict__ xq, const float* __restrict__ xd, float* __restrict__ y,
                          int m, int k, int group) {
  int lane, row0, rows[ROWS];
  if (!warp_begin(m, lane, row0, rows)) return;
  const int groups = k / group;
  float acc[ROWS] = {};
  for (int j = lane * 32; j < k; j += 32 * 32) {
    std::uint32_t xw[8];
    load_codes(xq + j, xw);
    const float d = __ldg(xd + j / 32);
    uint4 w0[ROWS], w1[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const std::int8_t* p = q + std::size_t(rows[r]) * k + j;
      w0[r] = __ldcs(reinterpret_cast<const uint4*>(p));
      w1[r] = __ldcs(reinterpret_cast<const uint4*>(p + 16));
    }
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const std::uint32_t ww[8] = {w0[r].x, w0[r].y, w0[r].z, w0[r].w, w1[r].x, w1[r].y, w1[r].z, w1[r].w};
      const int dot = int_dot::block_dot_int8(ww, xw, 0);
      const float s = bf16_to_float(__ldg(scales + std::size_t(rows[r]) * groups + j / group));
      acc[r] = fmaf(s * d, float(dot), acc[r]);
    }
  }
  store_rows(acc, row0, m, y);
}

}  // namespace

void quantize_x(const float* x, int k, QuantizedX& out) {
  if (k % 32 != 0) throw std::runtime_error("quantize_x needs k % 32 == 0");
  const int blocks = k / 32, threads = 256;
  quantize_x_kernel<<<(blocks * 32 + threads - 1) / threads, threads>>>(x, out.q, out.d, out.sum, blocks);
  RLK_LAUNCHED();
}

void gemv_int8_dp4a(const std::int8_t* q, const std::uint16_t* scales, const float* x, float* y, int m, int k,
                    int group, QuantizedX& xq) {
  if (k % 1024 != 0 || group % 32 != 0) throw std::runtime_error("gemv_int8_dp4a needs k % 1024 == 0, group % 32 == 0");
  quantize_x(x, k, xq);
  gemv_int8_dp4a_kernel<<<gemv::grid_for(m), gemv::THREADS>>>(q, scales, xq.q, xq.d, y, m, k, group);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
