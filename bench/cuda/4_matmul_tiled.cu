// C = A·B in 32 × 32 tiles through shared memory: a block brings a 32 × 32 tile of A and one of B
// on chip per step and uses each number 32 times; writes C once. Intensity 32 ÷ 4 = 8 FLOPs per
// byte in FP32 (tile_intensity(32, 32)).
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

constexpr int T = tiled_tile;

__global__ void matmul_tiled_kernel(const float* a, const float* b, float* c, int n, int k, int m) {
  __shared__ float as[T][T];
  __shared__ float bs[T][T + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * T + ty, j = blockIdx.x * T + tx;
  float sum = 0;
  for (int t0 = 0; t0 < k; t0 += T) {
    as[ty][tx] = (i < n && t0 + tx < k) ? a[std::size_t(i) * k + t0 + tx] : 0.0f;
    bs[ty][tx] = (t0 + ty < k && j < m) ? b[std::size_t(t0 + ty) * m + j] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int t = 0; t < T; ++t) sum += as[ty][t] * bs[t][tx];
    __syncthreads();
  }
  if (i < n && j < m) c[std::size_t(i) * m + j] = sum;
}

}  // namespace

void matmul_tiled(const float* a, const float* b, float* c, int n, int k, int m) {
  const dim3 block(T, T), grid((m + T - 1) / T, (n + T - 1) / T);
  matmul_tiled_kernel<<<grid, block>>>(a, b, c, n, k, m);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
