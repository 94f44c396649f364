// Batching: one read of the weights serves the whole batch, so a dense layer's intensity grows
// with the batch, towards a finite limit set by its inputs and outputs.
//
//   min_batch_for_ridge(4096, 4096, Dtype::fp16, FlopsPerByte{203.125});   // 226 (≈ b would say 204)
#pragma once

#include "roofline/dtype.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// The smallest batch whose exact intensity (inputs, weights and outputs counted) reaches
/// `ridge`. Throws never_crosses_ridge when the layer's limit intensity,
/// 2·in·out ÷ (bytes per element·(in + out)), is at or below the ridge.
double min_batch_for_ridge(double inputs, double outputs, Dtype dtype, FlopsPerByte ridge);

}  // namespace roofline
