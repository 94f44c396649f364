#include "roofline/parallel.hpp"

#include "roofline/error.hpp"

namespace roofline {

AllReduce all_reduce(const AllReduceInput& in) {
  require_count("gpus", in.gpus);
  require_non_negative("messageBytes", in.message.value());
  require_positive("linkBytesPerSecond", in.link.bandwidth.value());
  require_non_negative("linkLatencySeconds", in.link.latency.value());
  if (in.gpus == 1) return {Bytes{0}, Seconds{0}};
  const double sent = require_result("linkBytes", 2 * (in.gpus - 1) / in.gpus * in.message.value());
  return {Bytes{sent},
          Seconds{require_result("communicationSeconds", in.link.latency.value() + sent / in.link.bandwidth.value())}};
}

TensorParallel tensor_parallel(const TensorParallelInput& in) {
  require_count("layers", in.layers);
  require_count("hiddenSize", in.hidden);
  require_count("tokens", in.tokens);
  TensorParallel t;
  const Bytes message = bytes_of(require_result("messageBytes", in.tokens * in.hidden), in.activation_dtype);
  t.each = all_reduce({in.gpus, message, in.link});
  t.all_reduces = in.gpus > 1 ? 2 * in.layers : 0;
  t.seconds = Seconds{require_result("communicationSeconds", t.all_reduces * t.each.seconds.value())};
  return t;
}

}  // namespace roofline
