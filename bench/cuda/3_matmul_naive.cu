// C = A·B, the lesson's loop, one thread per C[i][j]: reads row i of A and column j of B from
// global memory for every MAC, writes C once. No reuse by design (what caches catch is luck);
// threadIdx.x walks j so a warp reads 32 neighbouring B values at once (coalesced).
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

__global__ void matmul_naive_kernel(const float* a, const float* b, float* c, int n, int k, int m) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= m) return;
  float sum = 0;
  for (int t = 0; t < k; ++t) sum += a[std::size_t(i) * k + t] * b[std::size_t(t) * m + j];
  c[std::size_t(i) * m + j] = sum;
}

}  // namespace

void matmul_naive(const float* a, const float* b, float* c, int n, int k, int m) {
  const dim3 block(32, 8), grid((m + 31) / 32, (n + 7) / 8);
  matmul_naive_kernel<<<grid, block>>>(a, b, c, n, k, m);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
