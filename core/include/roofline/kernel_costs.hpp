// What each benchmark kernel costs in FLOPs and bytes, so that measured points and predicted
// ones use one formula. Built on the core's own counts (matmul_cost, tile_intensity,
// quantized_weights, dense_layer, fusion); only what those do not cover is counted here.
//
//   stream_triad_cost(1 << 26, Dtype::fp32).bytes;          // 805,306,368 B: 3 arrays of 4 B
//   matmul_no_reuse_cost(64, 64, 64, Dtype::fp16).intensity // ≈ 0.5: the lesson's naive loop
//   gemv_cost({4096, 4096, Dtype::int4, 128, Dtype::bf16}).weight_bytes  // 8,650,752 B
#pragma once

#include <optional>

#include "roofline/dtype.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// FLOPs and bytes of one run of a kernel. A pure data-movement kernel has 0 FLOPs and
/// intensity 0.
struct KernelCost {
  Flops flops;
  Bytes bytes;
  FlopsPerByte intensity;
};

/// c[i] = a[i] over `elements`: no FLOPs, reads one array and writes one.
KernelCost stream_copy_cost(double elements, Dtype dtype);

/// a[i] = b[i] + s·c[i]: 2 FLOPs per element (a multiply and an add), reads two arrays, writes one.
KernelCost stream_triad_cost(double elements, Dtype dtype);

/// sum += a[i]·b[i]: 2 FLOPs per element, reads two arrays, writes nothing but the sum. Memory
/// traffic with no writes: the read bandwidth, often above what copy or triad attain.
KernelCost stream_dot_cost(double elements, Dtype dtype);

/// A register-only loop of `fmas` fused multiply-adds: 2 FLOPs each (one MAC), no bytes.
Flops fma_flops(double fmas);

/// The lesson's naive loop, nothing reused: both operands of every MAC come from memory
/// (tile_intensity(1, 1): 0.5 FLOPs per byte in FP16), and C is written once.
KernelCost matmul_no_reuse_cost(double n, double k, double m, Dtype dtype);

/// A matmul computed in tile_rows × tile_cols output tiles that each bring in their strips of A
/// and B once (tile_intensity), plus C written once. Never below matmul_cost's bytes, which
/// read every matrix exactly once; tiles larger than the matrix are clamped to it.
KernelCost matmul_tiled_cost(double n, double k, double m, double tile_rows, double tile_cols, Dtype dtype);

/// Each matrix moved exactly once: matmul_cost (what a vendor library approaches).
KernelCost matmul_ideal_cost(double n, double k, double m, Dtype dtype);

/// y = W·x, the decode step. W is rows × cols in `weights`, optionally quantized in groups of
/// `group_size` with one `scale_dtype` scale each; x and y are in `activations`.
struct GemvInput {
  double rows;
  double cols;
  Dtype weights;
  std::optional<double> group_size;
  Dtype scale_dtype = Dtype::bf16;
  Dtype activations = Dtype::fp32;
};
struct GemvCost {
  KernelCost cost;     ///< 2·rows·cols FLOPs; weights + scales + x + y bytes
  Bytes weight_bytes;  ///< quantized_weights: the weights and their scales
};
GemvCost gemv_cost(const GemvInput& in);

/// How many GEMVs per second a bandwidth allows when each moves `bytes`: the tokens/s ceiling
/// of a decode step that reads these bytes.
double steps_per_second_ceiling(Bytes bytes, BytesPerSecond bandwidth);

/// A dense layer (batch × inputs)·(inputs × outputs): dense_layer's inputs, weights and outputs.
KernelCost dense_cost(double batch, double inputs, double outputs, Dtype dtype);

/// C = max(A·B + bias, 0) with A n × k, B k × m. FLOPs: the matmul plus 2 per element of C
/// (the add and the max). Bytes: A and B once, the bias once per pass that reads it, and C as
/// fusion() counts it: 5 transfers unfused (matmul writes; bias reads, writes; ReLU reads,
/// writes), 1 fused.
KernelCost bias_relu_cost(double n, double k, double m, Dtype dtype, bool fused);

/// The knee of a measured batch sweep, as a batch: the intensity at which the kernel's own
/// memory line (the bytes/s it attains at its smallest batch) meets its own plateau (the best
/// FLOP/s of the sweep), turned into a batch with min_batch_for_ridge. Compare it with the
/// crossing batch predicted from the machine's ridge.
double measured_knee_batch(double inputs, double outputs, Dtype dtype, BytesPerSecond small_batch_bandwidth,
                           FlopsPerSecond plateau);

}  // namespace roofline
