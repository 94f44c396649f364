// acc = acc·a + b on 8 independent chains per thread, reads nothing, writes one float per
// thread: the FP32 (CUDA core) ceiling. The INT8 one of the __dp4a GEMVs the same way: 8 chains
// of acc = __dp4a(a, b, acc), 4 INT8 multiply-adds each (CUDA cores, not tensor cores).
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

__global__ void peak_fma_kernel(float* sink, int iterations) {
  const float a = 0.999999f, b = 1e-7f;
  float c0 = threadIdx.x * 1e-3f, c1 = c0 + 1, c2 = c0 + 2, c3 = c0 + 3, c4 = c0 + 4, c5 = c0 + 5, c6 = c0 + 6,
        c7 = c0 + 7;
  for (int i = 0; i < iterations; ++i) {
    c0 = fmaf(c0, a, b);
    c1 = fmaf(c1, a, b);
    c2 = fmaf(c2, a, b);
    c3 = fmaf(c3, a, b);
    c4 = fmaf(c4, a, b);
    c5 = fmaf(c5, a, b);
    c6 = fmaf(c6, a, b);
    c7 = fmaf(c7, a, b);
  }
  sink[blockIdx.x * blockDim.x + threadIdx.x] = ((c0 + c1) + (c2 + c3)) + ((c4 + c5) + (c6 + c7));
}

// a = b = four INT8 ones: each step adds 4, so thread t writes 8·t + 28 + 32·iterations exactly.
__global__ void peak_dp4a_kernel(int* sink, int a, int b, int iterations) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int c0 = t, c1 = t + 1, c2 = t + 2, c3 = t + 3, c4 = t + 4, c5 = t + 5, c6 = t + 6, c7 = t + 7;
  for (int i = 0; i < iterations; ++i) {
    c0 = __dp4a(a, b, c0);
    c1 = __dp4a(a, b, c1);
    c2 = __dp4a(a, b, c2);
    c3 = __dp4a(a, b, c3);
    c4 = __dp4a(a, b, c4);
    c5 = __dp4a(a, b, c5);
    c6 = __dp4a(a, b, c6);
    c7 = __dp4a(a, b, c7);
  }
  sink[t] = ((c0 + c1) + (c2 + c3)) + ((c4 + c5) + (c6 + c7));
}

}  // namespace

void peak_dp4a(int* sink, int blocks, int threads, int iterations) {
  peak_dp4a_kernel<<<blocks, threads>>>(sink, 0x01010101, 0x01010101, iterations);
  RLK_LAUNCHED();
}

void peak_fma(float* sink, int blocks, int threads, int iterations) {
  peak_fma_kernel<<<blocks, threads>>>(sink, iterations);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
