#include "roofline/llm.hpp"

#include "roofline/error.hpp"

namespace roofline {

DecodeStep decode(const DecodeInput& in) {
  require_positive("weightBytes", in.weights.value());
  require_non_negative("kvBytesPerSequence", in.kv_cache_per_sequence.value());
  require_count("batch", in.batch);
  require_positive("bytesPerSecond", in.bandwidth.value());
  require_count("gpus", in.gpus);
  const Bytes total = in.weights + in.kv_cache_per_sequence * in.batch;
  const Bytes per_gpu{require_result("bytesPerStep", total.value() / in.gpus)};
  const Seconds step{require_result("stepSeconds", (per_gpu / in.bandwidth).value())};
  return {per_gpu, step, require_result("tokensPerSecondPerSequence", 1.0 / step.value()),
          require_result("tokensPerSecond", in.batch / step.value())};
}

Bytes kv_cache_bytes(double layers, double kv_heads, double head_dim, double tokens, Dtype dtype) {
  require_count("layers", layers);
  require_count("kvHeads", kv_heads);
  require_count("headDim", head_dim);
  require_count("tokens", tokens);
  const double elements =
      require_exact_product("tokens", 2.0 * layers * kv_heads * head_dim * tokens, "the KV cache's element count");
  return bytes_of(elements, dtype);
}

Flops flops_per_token(double params) {
  require_count("params", params);
  return to_flops(Macs{params});
}

Prefill prefill(const PrefillInput& in) {
  require_count("params", in.params);
  require_count("tokens", in.tokens);
  require_positive("weightBytes", in.weights.value());
  require_count("gpus", in.gpus);
  const Flops flops{require_result("flops", flops_per_token(in.params).value() * in.tokens)};
  return {flops, clocks(flops / in.gpus, in.weights / in.gpus, in.device)};
}

}  // namespace roofline
