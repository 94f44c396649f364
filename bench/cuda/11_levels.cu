// The memory hierarchy on the GPU: the read-only dot and the triad on working sets from 1 MiB
// (L2) to 4 × the L2 (HBM), the sizes and the levels from common/levels.hpp as on the CPU.
//   dot:   Σ a[i]·b[i] over n floats each, 8 bytes per element read, 2 FLOPs
//   triad: a[i] = b[i] + s·c[i] over n floats each, 12 bytes per element, 2 FLOPs
// Loads with ld.global.cg (__ldcg) and stores with st.global.cg (__stcg): cached in L2, not in
// the SMs' L1, so a small working set is read from L2 and not from L1. One launch makes `passes`
// passes over the working set (common/levels.hpp, passes_for), so a set in L2 is timed over
// enough bytes; every thread keeps its elements from pass to pass.
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {

int stream_blocks();

namespace {

constexpr int THREADS = 256;

__global__ void __launch_bounds__(THREADS) level_dot_kernel(const float4* __restrict__ a, const float4* __restrict__ b,
                                                            std::size_t n4, long passes, double* sum) {
  // Small integers: every per-thread partial sum is exact in FP32 (at most 2^24 ÷ 4 terms here);
  // the block adds them in double.
  float s = 0;
  for (long p = 0; p < passes; ++p) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4;
         i += std::size_t(gridDim.x) * blockDim.x) {
      const float4 x = __ldcg(a + i), y = __ldcg(b + i);
      s += (x.x * y.x + x.y * y.y) + (x.z * y.z + x.w * y.w);
    }
  }
  __shared__ double partial[THREADS];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (int(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, partial[0]);
}

__global__ void __launch_bounds__(THREADS)
    level_triad_kernel(float4* __restrict__ a, const float4* __restrict__ b, const float4* __restrict__ c, float scalar,
                       std::size_t n4, long passes) {
  for (long p = 0; p < passes; ++p) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4;
         i += std::size_t(gridDim.x) * blockDim.x) {
      const float4 x = __ldcg(b + i), y = __ldcg(c + i);
      __stcg(a + i, make_float4(x.x + scalar * y.x, x.y + scalar * y.y, x.z + scalar * y.z, x.w + scalar * y.w));
    }
  }
}

}  // namespace

void level_dot(const float* a, const float* b, std::size_t n, long passes, double* sum) {
  RLK_CUDA(cudaMemsetAsync(sum, 0, sizeof(double)));
  level_dot_kernel<<<stream_blocks(), THREADS>>>(reinterpret_cast<const float4*>(a), reinterpret_cast<const float4*>(b),
                                                 n / 4, passes, sum);
  RLK_LAUNCHED();
}

void level_triad(float* a, const float* b, const float* c, float scalar, std::size_t n, long passes) {
  level_triad_kernel<<<stream_blocks(), THREADS>>>(reinterpret_cast<float4*>(a), reinterpret_cast<const float4*>(b),
                                                   reinterpret_cast<const float4*>(c), scalar, n / 4, passes);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
