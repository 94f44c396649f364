// y = W·x, W in INT4 (two weights per byte, stored as q + 8, blocks of 32 weights in 16 bytes:
// byte j holds weight j low, weight j + 16 high) with one BF16 scale per group of 128 weights of
// a row: reads half a byte per weight plus the scales, and x (from cache); writes y. A lane
// loads one block (32 weights) per row per step. INT4 → FP32 (minus the offset 8) by masking
// into the mantissa of 2^23 and one subtraction (dequant.hpp), not the slow conversion
// instruction; the powers of 16 that save shifts go into x once per step, shared by 4 rows.
#include "dequant.hpp"
#include "gemv.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

using namespace gemv;

__global__ void __launch_bounds__(THREADS)
    gemv_int4_kernel(const std::uint8_t* __restrict__ q, const std::uint16_t* __restrict__ scales,
                     const float* __restrict__ x, float* __restrict__ y, int m, int k, int group) {
  int lane, row0, rows[ROWS];
  if (!warp_begin(m, lane, row0, rows)) return;
  const int groups = k / group;
  float acc[ROWS] = {};
  for (int j = lane * 32; j < k; j += 32 * 32) {
    float xb[32];
    load_x(x + j, xb);
    float sx[4][8];
    dequant::int4_scale_x(xb, sx);  // once per step, shared by the warp's rows
    uint4 w[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r)
      w[r] = __ldcs(reinterpret_cast<const uint4*>(q + (std::size_t(rows[r]) * k + j) / 2));
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const std::uint32_t words[4] = {w[r].x, w[r].y, w[r].z, w[r].w};
      const float s = dequant::block_dot_int4(words, sx, 0.0f);
      acc[r] = fmaf(bf16_to_float(__ldg(scales + std::size_t(rows[r]) * groups + j / group)), s, acc[r]);
    }
  }
  store_rows(acc, row0, m, y);
}

}  // namespace

void gemv_int4(const std::uint8_t* q, const std::uint16_t* scales, const float* x, float* y, int m, int k, int group) {
  if (k % 1024 != 0 || group % 32 != 0) throw std::runtime_error("gemv_int4 needs k % 1024 == 0, group % 32 == 0");
  gemv_int4_kernel<<<gemv::grid_for(m), gemv::THREADS>>>(q, scales, x, y, m, k, group);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
