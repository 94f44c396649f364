// CPU kernels, in the lesson's teaching order. Row-major matrices; sizes in elements.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/numeric.hpp"
#include "cpu.hpp"

namespace rlk::cpu {

// 0. The compute ceiling: `iterations` rounds of 12 independent 8-wide FMAs per thread.
float peak_fma(ThreadPool& pool, long iterations);
inline double peak_fma_count(const ThreadPool& pool, long iterations) {
  return double(iterations) * pool.size() * 12 * 8;
}

// 1. Streams: attained memory bandwidth.
void copy(ThreadPool& pool, const float* a, float* c, std::size_t n);
void triad(ThreadPool& pool, float* a, const float* b, const float* c, float scalar, std::size_t n);
double dot(ThreadPool& pool, const float* a, const float* b, std::size_t n);

// 2. Matmul C (n × m) = A (n × k) · B (k × m): no reuse, cache tiles, register tiles.
void matmul_naive(ThreadPool& pool, const float* a, const float* b, float* c, std::size_t n, std::size_t k,
                  std::size_t m);
inline constexpr int tiled_tile = 64;  // T × T output tiles
void matmul_tiled(ThreadPool& pool, const float* a, const float* b, float* c, std::size_t n, std::size_t k,
                  std::size_t m);
// Register blocking: MR × NR micro-tiles of C in registers, fed from packed MC × KC blocks of A
// (L2) and KC × NC panels of B (L3). With `bias`, applies C = max(C + bias, 0) before writing.
inline constexpr int reg_mr = 6, reg_nr = 16, reg_kc = 256, reg_mc = 144, reg_nc = 2048;
void matmul_register(ThreadPool& pool, const float* a, const float* b, float* c, std::size_t n, std::size_t k,
                     std::size_t m, const float* bias = nullptr);

// 3. GEMV, the decode step: y (m) = W (m × k) · x (k). k a multiple of 16 (BF16), of 32 and of the group size
// for quantized weights).
//
// How the BF16 and integer-dot GEMVs walk their rows (GemvWalk): each thread takes its slice
// [r0, r1) as gemv_streams equal parts and works on one row of each at once (rows r0 + s·part + t,
// t = 0, 1, …), so that it reads that many long streams, each part's rows one after the other; the
// rows left over (fewer than gemv_streams) go one at a time, the same row in every place. With
// RowPrefetch::ahead they also prefetch each stream row_prefetch_ahead bytes ahead into L1, a line
// every 64 bytes. Both measured on an AMD EPYC of family 26 with 2 threads (docs/benchmark.md): a
// read-only loop over four streams per thread read as fast as the dot, over one stream at 0.77 of
// it; and a kernel with as many instructions per byte as these keeps too few lines in flight from
// memory without the prefetch.
enum class RowPrefetch {
  none,   ///< the hardware's alone
  ahead,  ///< row_prefetch_ahead bytes ahead in each stream, into L1 (prefetcht0; the default)
};
inline constexpr std::size_t gemv_streams = 4, row_prefetch_ahead = 2048;
const char* row_prefetch_name(RowPrefetch p);
/// The walk as a loop, not a function taking a lambda (a lambda would not be compiled for the
/// variant around it, isa.hpp): for (GemvWalk walk(r0, r1); walk.next(row);) { … row[s] … }.
class GemvWalk {
 public:
  GemvWalk(std::size_t r0, std::size_t r1)
      : r0_(r0), part_((r1 - r0) / gemv_streams), rest_(r0 + gemv_streams * part_), r1_(r1) {}
  RLK_INLINE bool next(std::size_t (&row)[gemv_streams]) {
    if (t_ < part_) {
      for (std::size_t s = 0; s < gemv_streams; ++s) row[s] = r0_ + s * part_ + t_;
      ++t_;
      return true;
    }
    if (rest_ < r1_) {
      for (auto& r : row) r = rest_;
      ++rest_;
      return true;
    }
    return false;
  }

 private:
  std::size_t r0_, part_, rest_, r1_, t_ = 0;
};
void gemv_bf16(ThreadPool& pool, const std::uint16_t* w, const float* x, float* y, std::size_t m, std::size_t k,
               RowPrefetch prefetch = RowPrefetch::ahead);
void gemv_int8(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y);
void gemv_int4(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y);

// 3b. The same GEMVs with integer dot products (llama.cpp's CPU paths): x is quantized to INT8
// once per call, one FP32 scale per group of the weights (numeric.hpp), each row's group of
// weights meets its group of x in integer dot products, and the scales come in once per group.
// The weights keep gemv_int8's and gemv_int4's layout and BF16 group scales; the group size must
// be a multiple of 32, at most 1,024, and divide the columns. Results are within
// int_dot_gemv_bound of the exact product (x is rounded, the weights are not).
enum class IntDot {
  scalar,       ///< portable C++
  avx2,         ///< vpmaddubsw + vpmaddwd
  avx_vnni,     ///< vpdpbusd (AVX-VNNI)
  avx512_vnni,  ///< the same vpdpbusd on 256-bit registers, EVEX-encoded (AVX-512 VNNI + VL): for
                ///< CPUs, or guests, that report AVX-512 VNNI without AVX-VNNI
  neon,         ///< aarch64: smull + sadalp (16-bit products, pairwise into 32-bit lanes)
  sdot,         ///< aarch64 with the dot-product extension (Armv8.2 DotProd): sdot
};
inline constexpr IntDot all_int_dots[] = {IntDot::scalar,      IntDot::avx2, IntDot::avx_vnni,
                                          IntDot::avx512_vnni, IntDot::neon, IntDot::sdot};
bool int_dot_available(IntDot isa);  ///< whether this CPU runs it (isa.cpp)
IntDot best_int_dot();               ///< the fastest one this CPU runs
const char* int_dot_name(IntDot isa);
const char* int_dot_id(IntDot isa);  ///< scalar, avx2, avx-vnni, avx512-vnni, neon, sdot
bool int_dot_from_id(const char* id, IntDot& out);
/// Throws std::invalid_argument when `isa` is not available or the group size does not fit.
void check_int_dot(const QuantizedMatrix& w, IntDot isa, const char* kernel);
/// How far gemv_int8_dp's and gemv_int4_dp's y_r may be from the exact Σ_j w_rj·x_j: x rounded
/// in blocks of a group, eight int32 lanes per group (numeric.hpp, int_dot_error_bound).
inline double int_dot_gemv_bound(const QuantizedMatrix& w, std::size_t r, const float* x) {
  return int_dot_error_bound(w, r, x, w.group, 8);
}
/// x quantized for them: `group` values at a time as quantize_x_block does (the same codes; with
/// AVX2 where the CPU has it), writing the codes, each group's scale and Σ codes.
void quantize_x_groups(const float* x, std::size_t k, std::size_t group, std::int8_t* q, float* d, int* sums);
/// What gemv_int8_dp and gemv_int4_dp share around their rows: the checks, x quantized once
/// per call into the kernel's own Activations, and the rows split over the pool, each part run
/// by the kernel's routine for `isa`. Kernel gives Activations, quantize(x, k, group, a), and one
/// rows routine per instruction set: scalar, and avx2, vnni, vnni512 on x86-64 or neon, sdot on
/// aarch64, each (w, a, y, r0, r1, prefetch) but scalar (w, a, y, r0, r1).
template <typename Kernel>
void run_int_dot_gemv(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y, IntDot isa,
                      RowPrefetch prefetch, const char* name) {
  check_int_dot(w, isa, name);
  thread_local typename Kernel::Activations codes;  // the caller's; a lambda would see each worker's own
  Kernel::quantize(x, w.cols, w.group, codes);
  const typename Kernel::Activations& a = codes;
  parallel_for(pool, w.rows, gemv_streams, [&](std::size_t r0, std::size_t r1) {
    switch (isa) {
#if defined(RLK_X86)
      case IntDot::avx_vnni: Kernel::vnni(w, a, y, r0, r1, prefetch); break;
      case IntDot::avx512_vnni: Kernel::vnni512(w, a, y, r0, r1, prefetch); break;
      case IntDot::avx2: Kernel::avx2(w, a, y, r0, r1, prefetch); break;
#endif
#if defined(RLK_ARM64)
      case IntDot::neon: Kernel::neon(w, a, y, r0, r1, prefetch); break;
      case IntDot::sdot: Kernel::sdot(w, a, y, r0, r1, prefetch); break;
#endif
      default: Kernel::scalar(w, a, y, r0, r1); break;
    }
  });
}
void gemv_int8_dp(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y, IntDot isa = best_int_dot(),
                  RowPrefetch prefetch = RowPrefetch::ahead);
void gemv_int4_dp(ThreadPool& pool, const QuantizedMatrix& w, const float* x, float* y, IntDot isa = best_int_dot(),
                  RowPrefetch prefetch = RowPrefetch::ahead);
// 0b. The integer ceiling of the integer-dot GEMVs' vpdpbusd (`isa`: AVX-VNNI or AVX-512 VNNI):
// `iterations` rounds of 12 independent 256-bit steps of 32 INT8 multiply-adds per thread. Returns
// the sum of every int32 lane, which must equal peak_int8_dot_expected (exact integers).
bool peak_int8_dot_available(IntDot isa = best_int_dot());
std::int64_t peak_int8_dot(ThreadPool& pool, long iterations, IntDot isa = best_int_dot());
std::int64_t peak_int8_dot_expected(const ThreadPool& pool, long iterations);
inline double peak_int8_dot_count(const ThreadPool& pool, long iterations) {  ///< INT8 multiply-adds
  return double(iterations) * pool.size() * 12 * 32;
}

// 4. A dense layer on a batch: Y (batch × outputs) = X (batch × inputs) · W (inputs × outputs).
void dense_layer(ThreadPool& pool, const float* x, const float* w, float* y, std::size_t batch, std::size_t inputs,
                 std::size_t outputs);

// 5. Bias + ReLU after a matmul: C = max(A·B + bias, 0).
void bias_relu_unfused(ThreadPool& pool, const float* a, const float* b, const float* bias, float* c, std::size_t n,
                       std::size_t k, std::size_t m);
void bias_relu_fused(ThreadPool& pool, const float* a, const float* b, const float* bias, float* c, std::size_t n,
                     std::size_t k, std::size_t m);

// 7. The memory hierarchy (11_levels.cpp): the read-only dot and the triad on working sets of
// every size, each thread on arrays of its own. LevelArrays holds, per thread, `in` (small
// integers, never written: the dot's a and b, the triad's b and c) and `out` (the triad's a), big
// enough for a working set of `max_bytes_per_thread`.
class LevelArrays {
 public:
  LevelArrays(ThreadPool& pool, std::size_t max_bytes_per_thread, unsigned seed);
  const float* in(unsigned t) const { return in_[t].data(); }
  float* out(unsigned t) { return out_[t].data(); }
  const float* out(unsigned t) const { return out_[t].data(); }
  std::size_t max_dot_floats() const { return in_floats_ / 2; }
  std::size_t max_triad_floats() const { return std::min(in_floats_ / 2, out_floats_); }

 private:
  std::vector<Buffer<float>> in_, out_;
  std::size_t in_floats_, out_floats_;
};
inline constexpr float level_triad_scalar = 3.0f;
/// Floats per array for a per-thread working set of `bytes` (whole 16-float steps).
inline std::size_t level_dot_floats(std::size_t bytes) { return bytes / 8 / 16 * 16; }
inline std::size_t level_triad_floats(std::size_t bytes) { return bytes / 12 / 16 * 16; }
/// Every thread: `passes` × Σ in[i]·in[n + i], i < n; one sum per thread.
std::vector<double> level_dot(ThreadPool& pool, LevelArrays& arrays, std::size_t n, long passes);
/// Every thread: `passes` × out[i] = in[i] + 3·in[n + i], i < n; streaming stores where asked.
void level_triad(ThreadPool& pool, LevelArrays& arrays, std::size_t n, long passes, bool streaming);
/// Each thread's sum against its exact value (small integers), × passes.
bool check_level_dot(const LevelArrays& arrays, std::size_t n, long passes, const std::vector<double>& sums,
                     std::string& detail);
/// Every output element of the first `threads` threads against in[i] + 3·in[n + i], exactly.
bool check_level_triad(const LevelArrays& arrays, unsigned threads, std::size_t n, std::string& detail);

// 6. Vendor references: glibc memcpy (one slice per thread), OpenBLAS SGEMM and SGEMV.
void vendor_memcpy(ThreadPool& pool, const float* a, float* c, std::size_t n);
void vendor_sgemm(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m);
void vendor_sgemv(const float* w, const float* x, float* y, std::size_t m, std::size_t k);
void vendor_set_threads(unsigned threads);
bool vendor_blas_available();  ///< false when built without BLAS: the calls above throw
const char* vendor_blas_name();

}  // namespace rlk::cpu
