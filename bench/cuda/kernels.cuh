// CUDA kernels, in the lesson's teaching order. Launchers take device pointers, row-major
// matrices, sizes in elements, and enqueue on the default stream.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rlk::cuda {

// 0. Compute ceiling: every thread runs `iterations` rounds of 8 independent FMAs.
void peak_fma(float* sink, int blocks, int threads, int iterations);
inline double peak_fma_count(int blocks, int threads, int iterations) {
  return double(blocks) * threads * iterations * 8;
}

// 0b. The INT8 ceiling of __dp4a: every thread runs `iterations` rounds of 8 independent __dp4a
// (4 INT8 multiply-adds each) and writes 8·t + 28 + 32·iterations (thread t), exactly.
void peak_dp4a(int* sink, int blocks, int threads, int iterations);
inline double peak_dp4a_count(int blocks, int threads, int iterations) {  ///< INT8 multiply-adds
  return double(blocks) * threads * iterations * 8 * 4;
}

// 1. Streams (n a multiple of 4: float4 accesses).
void copy(const float* a, float* c, std::size_t n);
void triad(float* a, const float* b, const float* c, float scalar, std::size_t n);
/// *sum = Σ a[i]·b[i] (sum: one device double, zeroed by the call).
void dot(const float* a, const float* b, std::size_t n, double* sum);

// 1b. The memory hierarchy (11_levels.cu): `passes` passes in one launch over n floats per array
// (n a multiple of 4), loads and stores cached in L2 only. *sum = passes × Σ a[i]·b[i] (one device
// double, zeroed by the call).
void level_dot(const float* a, const float* b, std::size_t n, long passes, double* sum);
void level_triad(float* a, const float* b, const float* c, float scalar, std::size_t n, long passes);

// 2. Matmul C (n × m) = A (n × k) · B (k × m).
void matmul_naive(const float* a, const float* b, float* c, int n, int k, int m);
inline constexpr int tiled_tile = 32;
void matmul_tiled(const float* a, const float* b, float* c, int n, int k, int m);
// 128 × 128 block tiles, 8 × 8 results per thread; k a multiple of 8, m of 4. With `bias`:
// C = max(A·B + bias, 0) before C is written.
inline constexpr int reg_bm = 128, reg_bn = 128;
void matmul_register(const float* a, const float* b, float* c, int n, int k, int m, const float* bias = nullptr);

// 3. GEMV y (m) = W (m × k) · x (k); k a multiple of 256 (and of the group size, 128).
void gemv_bf16(const std::uint16_t* w, const float* x, float* y, int m, int k);
void gemv_int8(const std::int8_t* q, const std::uint16_t* scales, const float* x, float* y, int m, int k, int group);
void gemv_int4(const std::uint8_t* q, const std::uint16_t* scales, const float* x, float* y, int m, int k, int group);

// 3b. The same with integer block dot products (__dp4a): x quantized to INT8 on the device per
// call, in blocks of 32 (numeric.hpp's rule), into `xq` (device buffers the caller owns: k
// codes, k ÷ 32 scales and sums); k a multiple of 1,024, the group size of 32.
struct QuantizedX {
  std::int8_t* q;
  float* d;
  int* sum;
};
void quantize_x(const float* x, int k, QuantizedX& out);
void gemv_int8_dp4a(const std::int8_t* q, const std::uint16_t* scales, const float* x, float* y, int m, int k,
                    int group, QuantizedX& xq);
void gemv_int4_dp4a(const std::uint8_t* q, const std::uint16_t* scales, const float* x, float* y, int m, int k,
                    int group, QuantizedX& xq);

// 5. Bias + ReLU after the register-blocked matmul.
void bias_add(float* c, const float* bias, int n, int m);
void relu(float* c, std::size_t count);

}  // namespace rlk::cuda
