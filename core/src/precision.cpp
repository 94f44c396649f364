#include "roofline/precision.hpp"

#include <cmath>

#include "roofline/error.hpp"

namespace roofline {

QuantizedWeights quantized_weights(const QuantizedWeightsInput& in) {
  require_count("params", in.params);
  require_count_or_zero("keptParams", in.kept_params);
  if (in.kept_params > in.params) {
    throw Error(
        ErrorCode::out_of_range, "keptParams",
        "keptParams must be at most params (" + format_number(in.params) + "), got " + format_number(in.kept_params));
  }
  const double rest = in.params - in.kept_params;
  QuantizedWeights q{};
  q.kept = bytes_of(in.kept_params, in.kept_dtype);
  q.quantized = bytes_of(rest, in.dtype);
  if (in.group_size) {
    require_count("groupSize", *in.group_size);
    q.scales = bytes_of(std::ceil(rest / *in.group_size), in.scale_dtype);
  }
  q.bytes = Bytes{require_result("bytes", (q.kept + q.quantized + q.scales).value())};
  q.bits_per_weight = q.bytes.value() * 8 / in.params;
  return q;
}

Speedups speedups(Bytes before, Bytes after, FlopsPerSecond peak_before, FlopsPerSecond peak_after) {
  require_positive("bytesBefore", before.value());
  require_positive("bytesAfter", after.value());
  require_positive("peakBeforeFlopsPerSecond", peak_before.value());
  require_positive("peakAfterFlopsPerSecond", peak_after.value());
  return {require_result("memoryBoundSpeedup", before / after),
          require_result("computeBoundSpeedup", peak_after / peak_before)};
}

FlopsPerSecond dense_from_sparsity(FlopsPerSecond with_sparsity) {
  require_positive("flopsPerSecond", with_sparsity.value());
  return with_sparsity / 2.0;
}

}  // namespace roofline
