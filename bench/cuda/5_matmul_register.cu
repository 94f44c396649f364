// C = A·B with block tiles and register tiles: a block of 256 threads owns a 128 × 128 tile of C
// and brings in 128 × 8 strips of A (stored transposed) and 8 × 128 strips of B per step through
// shared memory with float4 loads; each thread keeps an 8 × 8 tile of C in registers and does 64
// FMAs per 16 numbers it reads from shared memory. Reads A and B once per block tile
// (tile_intensity(128, 128) = 32 FLOPs per byte in FP32), writes C once; with `bias`, applies
// C = max(C + bias, 0) in registers first.
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

constexpr int BM = reg_bm, BN = reg_bn, BK = 8, TM = 8, TN = 8;
constexpr int THREADS = (BM / TM) * (BN / TN);  // 256

template <bool Epilogue>
__global__ void __launch_bounds__(THREADS)
    matmul_register_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n,
                           int k, int m, const float* __restrict__ bias) {
  __shared__ __align__(16) float as[BK][BM];  // A transposed: as[t][row]; float4 reads need 16-byte alignment
  __shared__ __align__(16) float bs[BK][BN];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int thread_row = tid / (BN / TN), thread_col = tid % (BN / TN);
  // Loading: each thread fetches one float4 of the A strip and one of the B strip per step.
  const int a_row = tid / (BK / 4), a_col = (tid % (BK / 4)) * 4;
  const int b_row = tid / (BN / 4), b_col = (tid % (BN / 4)) * 4;

  float acc[TM][TN] = {};
  float reg_a[TM], reg_b[TN];
  for (int t0 = 0; t0 < k; t0 += BK) {
    const int ga = row0 + a_row;
    const float4 av =
        ga < n ? *reinterpret_cast<const float4*>(a + std::size_t(ga) * k + t0 + a_col) : make_float4(0, 0, 0, 0);
    as[a_col + 0][a_row] = av.x;
    as[a_col + 1][a_row] = av.y;
    as[a_col + 2][a_row] = av.z;
    as[a_col + 3][a_row] = av.w;
    const int gb = col0 + b_col;
    const float4 bv =
        gb < m ? *reinterpret_cast<const float4*>(b + std::size_t(t0 + b_row) * m + gb) : make_float4(0, 0, 0, 0);
    *reinterpret_cast<float4*>(&bs[b_row][b_col]) = bv;
    __syncthreads();
#pragma unroll
    for (int t = 0; t < BK; ++t) {
#pragma unroll
      for (int i = 0; i < TM; i += 4)
        *reinterpret_cast<float4*>(&reg_a[i]) = *reinterpret_cast<const float4*>(&as[t][thread_row * TM + i]);
#pragma unroll
      for (int j = 0; j < TN; j += 4)
        *reinterpret_cast<float4*>(&reg_b[j]) = *reinterpret_cast<const float4*>(&bs[t][thread_col * TN + j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(reg_a[i], reg_b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int gi = row0 + thread_row * TM + i;
    if (gi >= n) break;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int gj = col0 + thread_col * TN + j;
      if (gj >= m) break;
      float4 v = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
      if (Epilogue) {
        const float4 bb = *reinterpret_cast<const float4*>(bias + gj);
        v = make_float4(fmaxf(v.x + bb.x, 0.f), fmaxf(v.y + bb.y, 0.f), fmaxf(v.z + bb.z, 0.f), fmaxf(v.w + bb.w, 0.f));
      }
      *reinterpret_cast<float4*>(c + std::size_t(gi) * m + gj) = v;
    }
  }
}

}  // namespace

void matmul_register(const float* a, const float* b, float* c, int n, int k, int m, const float* bias) {
  if (k % BK != 0 || m % 4 != 0) throw std::runtime_error("matmul_register needs k % 8 == 0 and m % 4 == 0");
  const dim3 grid((m + BN - 1) / BN, (n + BM - 1) / BM);
  if (bias) matmul_register_kernel<true><<<grid, THREADS>>>(a, b, c, n, k, m, bias);
  else matmul_register_kernel<false><<<grid, THREADS>>>(a, b, c, n, k, m, nullptr);
  RLK_LAUNCHED();
}

}  // namespace rlk::cuda
