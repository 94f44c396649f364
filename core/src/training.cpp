#include "roofline/training.hpp"

#include "roofline/error.hpp"

namespace roofline {

Flops llm_training_flops(double params, double tokens) {
  require_count("params", params);
  require_count("tokens", tokens);
  return Flops{require_result("flops", 6.0 * params * tokens)};
}

Flops cnn_training_flops(Flops forward_per_example, double examples, double epochs) {
  require_positive("forwardFlops", forward_per_example.value());
  require_count("examples", examples);
  require_count("epochs", epochs);
  return Flops{require_result("flops", 3.0 * forward_per_example.value() * examples * epochs)};
}

}  // namespace roofline
