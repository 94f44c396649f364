// a = b + s·c, reads b and c, writes a (n floats each): 2 FLOPs and 12 bytes per element.
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {

int stream_blocks();

namespace {

__global__ void triad_kernel(float4* __restrict__ a, const float4* __restrict__ b, const float4* __restrict__ c,
                             float s, std::size_t n4) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

}  // namespace

void triad(float* a, const float* b, const float* c, float scalar, std::size_t n) {
  triad_kernel<<<stream_blocks(), 256>>>(reinterpret_cast<float4*>(a), reinterpret_cast<const float4*>(b),
                                         reinterpret_cast<const float4*>(c), scalar, n / 4);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
