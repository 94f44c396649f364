// How a model's weights are stored, and what that costs: the two records the catalog's formats
// and the architecture's counts share (catalog.hpp lists the formats; architecture.hpp counts a
// model's bytes in one).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "roofline/dtype.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// How a model's weights are stored: a plain dtype (BF16, FP8), weight-only integers with a scale
/// per group and a share of the model kept in BF16 (INT8, INT4), or a bit budget with no dtype of
/// its own (3.5 bits per weight).
struct WeightFormat {
  std::string id;                    ///< "bf16", "fp8", "int8", "int4", "q3.5"
  std::string name;                  ///< "BF16", "INT4 weight-only", ...
  std::optional<Dtype> dtype;        ///< storage of the quantized part; none for a bit budget
  double bits = 16;                  ///< bits of each stored weight (without scales)
  bool weight_only = false;          ///< activations and the arithmetic stay in 16 bits
  std::optional<double> group_size;  ///< one scale per this many weights; none: no scales
  Dtype scale_dtype = Dtype::fp16;
  bool keeps_bf16_share = false;      ///< the model's kept_params stay in BF16
  Dtype compute_dtype = Dtype::bf16;  ///< whose peak the matmuls run at
  std::string source;
  int lesson_order = 0;  ///< its place in the lesson's list (formats())
};

/// A model's weights in one format.
struct ModelWeights {
  Bytes bytes;                 ///< everything read per decode step: weights, scales, kept share
  double params = 0;           ///< all parameters
  double kept_params = 0;      ///< of which stay in BF16
  double bits_per_weight = 0;  ///< bytes × 8 ÷ params
  std::string_view format;     ///< the format id
};

}  // namespace roofline
