#include "roofline/batching.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/error.hpp"
#include "roofline/matrix.hpp"

namespace roofline {

double min_batch_for_ridge(double inputs, double outputs, Dtype dtype, FlopsPerByte ridge) {
  require_count("inputs", inputs);
  require_count("outputs", outputs);
  require_positive("ridgeFlopsPerByte", ridge.value());
  const DenseLayerCost one = dense_layer(1, inputs, outputs, dtype);
  if (one.limit_intensity <= ridge) {
    throw Error(ErrorCode::never_crosses_ridge, "ridgeFlopsPerByte",
                "ridgeFlopsPerByte must be below " + format_rounded(one.limit_intensity.value()) +
                    ", the intensity a " + format_number(inputs) + " × " + format_number(outputs) +
                    " layer tends to as the batch grows: it never reaches " + format_rounded(ridge.value()));
  }
  // intensity(b) = 2·b·I·O ÷ (bpe·(b·I + I·O + b·O)) ≥ r  ⇔  b ≥ r·bpe·I·O ÷ (2·I·O − r·bpe·(I + O)).
  const double bpe = bytes_per_element(dtype);
  const double r = ridge.value();
  const double io = inputs * outputs;
  double b = std::ceil(r * bpe * io / (2.0 * io - r * bpe * (inputs + outputs)));
  b = std::max(b, 1.0);
  require_exact_product("inputs", b * io, "batch × inputs × outputs at the crossing");
  // The closed form is exact in real numbers; settle rounding against the counted intensity.
  while (b > 1 && dense_layer(b - 1, inputs, outputs, dtype).matmul.intensity >= ridge) b -= 1;
  while (dense_layer(b, inputs, outputs, dtype).matmul.intensity < ridge) b += 1;
  return b;
}

}  // namespace roofline
