#include "roofline/kernel_costs.hpp"

#include <algorithm>

#include "roofline/batching.hpp"
#include "roofline/error.hpp"
#include "roofline/inside.hpp"
#include "roofline/matrix.hpp"
#include "roofline/precision.hpp"

namespace roofline {

namespace {
KernelCost make_cost(Flops flops, Bytes bytes) {
  require_result("bytes", bytes.value());
  return {flops, bytes, flops.value() > 0 ? flops / bytes : FlopsPerByte{0}};
}
}  // namespace

KernelCost stream_copy_cost(double elements, Dtype dtype) {
  require_count("elements", elements);
  return make_cost(Flops{0}, bytes_of(2 * elements, dtype));
}

KernelCost stream_triad_cost(double elements, Dtype dtype) {
  require_count("elements", elements);
  return make_cost(Flops{2 * elements}, bytes_of(3 * elements, dtype));
}

KernelCost stream_dot_cost(double elements, Dtype dtype) {
  require_count("elements", elements);
  return make_cost(Flops{2 * elements}, bytes_of(2 * elements, dtype));
}

Flops fma_flops(double fmas) { return to_flops(Macs{require_count("fmas", fmas)}); }

KernelCost matmul_no_reuse_cost(double n, double k, double m, Dtype dtype) {
  const MatmulCost mm = matmul_cost(n, k, m, dtype);
  // FLOPs ÷ (FLOPs per byte) = bytes.
  const Bytes operands{mm.flops.value() / tile_intensity(1, 1, dtype).value()};
  return make_cost(mm.flops, operands + bytes_of(n * m, dtype));
}

KernelCost matmul_tiled_cost(double n, double k, double m, double tile_rows, double tile_cols, Dtype dtype) {
  const MatmulCost mm = matmul_cost(n, k, m, dtype);
  require_count("tileRows", tile_rows);
  require_count("tileCols", tile_cols);
  const FlopsPerByte tile = tile_intensity(std::min(tile_rows, n), std::min(tile_cols, m), dtype);
  const Bytes through_tiles = Bytes{mm.flops.value() / tile.value()} + bytes_of(n * m, dtype);
  return make_cost(mm.flops, std::max(through_tiles, mm.bytes));
}

KernelCost matmul_ideal_cost(double n, double k, double m, Dtype dtype) {
  const MatmulCost mm = matmul_cost(n, k, m, dtype);
  return {mm.flops, mm.bytes, mm.intensity};
}

GemvCost gemv_cost(const GemvInput& in) {
  const MatmulCost mm = matmul_cost(1, in.cols, in.rows, in.weights);
  QuantizedWeightsInput q{};
  q.params = mm.macs.value();
  q.dtype = in.weights;
  q.group_size = in.group_size;
  q.scale_dtype = in.scale_dtype;
  const Bytes weights = quantized_weights(q).bytes;
  const Bytes vectors = bytes_of(in.cols + in.rows, in.activations);
  return {make_cost(mm.flops, weights + vectors), weights};
}

double steps_per_second_ceiling(Bytes bytes, BytesPerSecond bandwidth) {
  require_positive("bytes", bytes.value());
  require_positive("bytesPerSecond", bandwidth.value());
  return require_result("stepsPerSecond", 1.0 / (bytes / bandwidth).value());
}

KernelCost dense_cost(double batch, double inputs, double outputs, Dtype dtype) {
  const MatmulCost mm = dense_layer(batch, inputs, outputs, dtype).matmul;
  return {mm.flops, mm.bytes, mm.intensity};
}

KernelCost bias_relu_cost(double n, double k, double m, Dtype dtype, bool fused) {
  const MatmulCost mm = matmul_cost(n, k, m, dtype);
  const double elements = n * m;
  const Fusion f = fusion(elements, dtype);
  const Flops flops = mm.flops + elementwise(elements, dtype, 2).flops;
  const Bytes c_once = bytes_of(elements, dtype);
  const Bytes bias = bytes_of(m, dtype) * (fused ? 1.0 : 2.0);
  return make_cost(flops, mm.bytes - c_once + (fused ? f.fused : f.unfused) + bias);
}

double measured_knee_batch(double inputs, double outputs, Dtype dtype, BytesPerSecond small_batch_bandwidth,
                           FlopsPerSecond plateau) {
  require_positive("bytesPerSecond", small_batch_bandwidth.value());
  require_positive("plateauFlopsPerSecond", plateau.value());
  return min_batch_for_ridge(inputs, outputs, dtype, plateau / small_batch_bandwidth);
}

}  // namespace roofline
