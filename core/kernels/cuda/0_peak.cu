// acc = acc·a + b on 8 independent chains per thread, reads nothing, writes one float per
// thread: the FP32 (CUDA core) ceiling.
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

__global__ void peak_fma_kernel(float* sink, int iterations) {
  const float a = 0.999999f, b = 1e-7f;
  float c0 = threadIdx.x * 1e-3f, c1 = c0 + 1, c2 = c0 + 2, c3 = c0 + 3, c4 = c0 + 4, c5 = c0 + 5, c6 = c0 + 6,
        c7 = c0 + 7;
  for (int i = 0; i < iterations; ++i) {
    c0 = fmaf(c0, a, b); c1 = fmaf(c1, a, b); c2 = fmaf(c2, a, b); c3 = fmaf(c3, a, b);
    c4 = fmaf(c4, a, b); c5 = fmaf(c5, a, b); c6 = fmaf(c6, a, b); c7 = fmaf(c7, a, b);
  }
  sink[blockIdx.x * blockDim.x + threadIdx.x] = ((c0 + c1) + (c2 + c3)) + ((c4 + c5) + (c6 + c7));
}

}  // namespace

void peak_fma(float* sink, int blocks, int threads, int iterations) {
  peak_fma_kernel<<<blocks, threads>>>(sink, iterations);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
