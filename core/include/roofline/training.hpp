// Training cost: the forward pass plus a backward pass that costs about twice as much.
//
//   llm_training_flops(8.03e9, 15e12);          // ≈ 6 × params × tokens
//   cnn_training_flops(Flops{8.2e9}, 1'840'211, 8);   // ≈ 3.6e17 FLOPs (C01's monthly run)
#pragma once

#include "roofline/units.hpp"

namespace roofline {

/// ≈ 6 FLOPs per parameter per training token: 2 forward, ≈ 4 backward.
Flops llm_training_flops(double params, double tokens);

/// A training step ≈ 3 × the forward pass, for each example of each epoch.
Flops cnn_training_flops(Flops forward_per_example, double examples, double epochs = 1);

}  // namespace roofline
