// y = W·x, W in INT4 with one BF16 scale per group of a row (gemv_int4's layout: 16 bytes per
// block of 32 weights), x quantized to INT8 per call in blocks of 32 (quantize_x): reads half a
// byte per weight plus the scales, and x's codes (from cache); writes y. A lane takes one block
// of each of the warp's rows per step: one 16-byte load, 8 __dp4a on masked nibbles (no
// conversion to float), the offset 8 taken out by starting from −8·Σ qx of the block.
#include "gemv.cuh"
#include "int_dot.hpp"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

using namespace gemv;

__global__ void __launch_bounds__(THREADS)
    gemv_int4_dp4a_kernel(const std::uint8_t* __restrict__ q, const std::uint16_t* __restrict__ scales,
                          const std::int8_t* __restrict__ xq, const float* __restrict__ xd,
                          const int* __restrict__ xsum, float* __restrict__ y, int m, int k, int group) {
  int lane, row0, rows[ROWS];
  if (!warp_begin(m, lane, row0, rows)) return;
  const int groups = k / group;
  float acc[ROWS] = {};
  for (int j = lane * 32; j < k; j += 32 * 32) {
    std::uint32_t xw[8];
    load_codes(xq + j, xw);
    const float d = __ldg(xd + j / 32);
    const int start = -8 * __ldg(xsum + j / 32);
    uint4 w[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
      w[r] = __ldcs(reinterpret_cast<const uint4*>(q + (std::size_t(rows[r]) * k + j) / 2));
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const std::uint32_t words[4] = {w[r].x, w[r].y, w[r].z, w[r].w};
      const int dot = int_dot::block_dot_int4(words, xw, start);
      const float s = bf16_to_float(__ldg(scales + std::size_t(rows[r]) * groups + j / group));
      acc[r] = fmaf(s * d, float(dot), acc[r]);
    }
  }
  store_rows(acc, row0, m, y);
}

}  // namespace

void gemv_int4_dp4a(const std::uint8_t* q, const std::uint16_t* scales, const float* x, float* y, int m, int k,
                    int group, QuantizedX& xq) {
  if (k % 1024 != 0 || group % 32 != 0) throw std::runtime_error("gemv_int4_dp4a needs k % 1024 == 0, group % 32 == 0");
  quantize_x(x, k, xq);
  gemv_int4_dp4a_kernel<<<gemv::grid_for(m), gemv::THREADS>>>(q, scales, xq.q, xq.d, xq.sum, y, m, k, group);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
