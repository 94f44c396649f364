// Precision and quantization: fewer bytes per number, and a higher roof on tensor cores.
//
//   quantized_weights({8.03e9, Dtype::int4, 64, Dtype::fp16, 1e9, Dtype::bf16}).bytes;  // ≈ 5.73 GB
//   speedups(...)              // decode: bytes before ÷ after; compute-bound: peak after ÷ before
//   dense_from_sparsity(teraflops_per_second(1979));  // 989.5 TFLOP/s
#pragma once

#include <optional>

#include "roofline/dtype.hpp"
#include "roofline/units.hpp"

namespace roofline {

struct QuantizedWeightsInput {
  double params;                     ///< all parameters
  Dtype dtype;                       ///< storage of the quantized part
  std::optional<double> group_size;  ///< one scale per this many quantized weights; none: no scales
  Dtype scale_dtype = Dtype::fp16;
  double kept_params = 0;  ///< parameters left unquantized (embeddings, output layer)
  Dtype kept_dtype = Dtype::bf16;
};

struct QuantizedWeights {
  Bytes bytes;             ///< kept·bpe(kept) + rest·bpe(dtype) + ⌈rest ÷ group⌉·bpe(scale)
  Bytes quantized;         ///< rest·bpe(dtype)
  Bytes scales;            ///< ⌈rest ÷ group⌉·bpe(scale)
  Bytes kept;              ///< kept·bpe(kept)
  double bits_per_weight;  ///< bytes × 8 ÷ params
};

QuantizedWeights quantized_weights(const QuantizedWeightsInput& in);

struct Speedups {
  double memory_bound;   ///< bytes before ÷ bytes after: what a decode gains
  double compute_bound;  ///< peak after ÷ peak before: the most a compute-bound op gains
};
Speedups speedups(Bytes before, Bytes after, FlopsPerSecond peak_before, FlopsPerSecond peak_after);

/// Datasheets quote "with sparsity" (2:4) figures at twice the dense rate; this halves them.
FlopsPerSecond dense_from_sparsity(FlopsPerSecond with_sparsity);

}  // namespace roofline
