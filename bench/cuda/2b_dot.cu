// sum = Σ a[i]·b[i], reads a and b (n floats each), writes one number per block: 2 FLOPs and 8
// bytes per element, no stream of writes, so it measures read bandwidth (BabelStream's Dot).
// Each block reduces in shared memory and adds its sum to a double with one atomic.
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {

int stream_blocks();

namespace {

constexpr int THREADS = 256;

__global__ void __launch_bounds__(THREADS)
    dot_kernel(const float4* __restrict__ a, const float4* __restrict__ b, std::size_t n4, double* sum) {
  float s = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n4;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float4 x = a[i], y = b[i];
    s += (x.x * y.x + x.y * y.y) + (x.z * y.z + x.w * y.w);
  }
  __shared__ float partial[THREADS];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 0; stride /= 2) {
    if (int(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, double(partial[0]));
}

}  // namespace

void dot(const float* a, const float* b, std::size_t n, double* sum) {
  RLK_CUDA(cudaMemsetAsync(sum, 0, sizeof(double)));
  dot_kernel<<<stream_blocks(), THREADS>>>(reinterpret_cast<const float4*>(a), reinterpret_cast<const float4*>(b),
                                           n / 4, sum);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
