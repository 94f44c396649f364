// y = W·x, W in INT8 with one BF16 scale per group of 128 weights of a row (weight-only): reads
// 1 byte per weight plus the scales, and x (from cache); writes y. A lane loads 16 weights per
// row per step, all in one group: dot them with x, then scale once. INT8 → FP32 by byte permute
// and subtraction (dequant.hpp), not the slow conversion instruction.
#include "dequant.hpp"
#include "gemv.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

using namespace gemv;

__global__ void __launch_bounds__(THREADS)
    gemv_int8_kernel(const std::int8_t* __restrict__ q, const std::uint16_t* __restrict__ scales,
                     const float* __restrict__ x, float* __restrict__ y, int m, int k, int group) {
  int lane, row0, rows[ROWS];
  if (!warp_begin(m, lane, row0, rows)) return;
  const int groups = k / group;
  float acc[ROWS] = {};
  for (int j = lane * 16; j < k; j += 32 * 16) {
    float xb[16];
    load_x(x + j, xb);
    uint4 w[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) w[r] = __ldcs(reinterpret_cast<const uint4*>(q + std::size_t(rows[r]) * k + j));
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
      const std::uint32_t words[4] = {w[r].x, w[r].y, w[r].z, w[r].w};
      const float s = dequant::dot16_int8(words, xb, 0.0f);
      acc[r] = fmaf(bf16_to_float(__ldg(scales + std::size_t(rows[r]) * groups + j / group)), s, acc[r]);
    }
  }
  store_rows(acc, row0, m, y);
}

}  // namespace

void gemv_int8(const std::int8_t* q, const std::uint16_t* scales, const float* x, float* y, int m, int k, int group) {
  if (k % 512 != 0 || group % 16 != 0) throw std::runtime_error("gemv_int8 needs k % 512 == 0, group % 16 == 0");
  gemv_int8_kernel<<<gemv::grid_for(m), gemv::THREADS>>>(q, scales, x, y, m, k, group);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
