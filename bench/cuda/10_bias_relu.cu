// C = max(A·B + bias, 0). Unfused, three passes (three kernels): the matmul writes C; bias_add
// reads and writes C; relu reads and writes C (5 transfers of C). Fused: the matmul's epilogue
// applies both in registers and writes C once (matmul_register with a bias).
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {

int stream_blocks();

namespace {

__global__ void bias_add_kernel(float4* __restrict__ c, const float4* __restrict__ bias, std::size_t rows, int m4) {
  const std::size_t total = rows * m4;
  for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < total;
       e += std::size_t(gridDim.x) * blockDim.x) {
    float4 v = c[e];
    const float4 b = bias[e % m4];
    c[e] = make_float4(v.x + b.x, v.y + b.y, v.z + b.z, v.w + b.w);
  }
}

__global__ void relu_kernel(float4* __restrict__ c, std::size_t n4) {
  for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < n4;
       e += std::size_t(gridDim.x) * blockDim.x) {
    const float4 v = c[e];
    c[e] = make_float4(fmaxf(v.x, 0.f), fmaxf(v.y, 0.f), fmaxf(v.z, 0.f), fmaxf(v.w, 0.f));
  }
}

}  // namespace

void bias_add(float* c, const float* bias, int n, int m) {
  if (m % 4 != 0) throw std::runtime_error("bias_add needs m % 4 == 0");
  bias_add_kernel<<<stream_blocks(), 256>>>(reinterpret_cast<float4*>(c), reinterpret_cast<const float4*>(bias),
                                            std::size_t(n), m / 4);
  RLK_LAUNCHED();
}

void relu(float* c, std::size_t count) {
  relu_kernel<<<stream_blocks(), 256>>>(reinterpret_cast<float4*>(c), count / 4);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
