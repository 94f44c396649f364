#include "roofline/llm.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "roofline/error.hpp"

namespace roofline {

DecodeStep decode(const DecodeInput& in) {
  require_positive("weightBytes", in.weights.value());
  require_non_negative("kvBytesPerSequence", in.kv_cache_per_sequence.value());
  require_count("batch", in.batch);
  require_positive("bytesPerSecond", in.bandwidth.value());
  require_count("gpus", in.gpus);
  if (in.flops_per_token.has_value() != in.peak.has_value()) {
    const char* missing = in.peak ? "flopsPerToken" : "peakFlopsPerSecond";
    throw Error(ErrorCode::missing_field, missing,
                std::string(missing) + " is required with " + (in.peak ? "peakFlopsPerSecond" : "flopsPerToken") +
                    ": the compute roof needs both");
  }
  if (in.flops_per_token) require_positive("flopsPerToken", in.flops_per_token->value());
  if (in.peak) require_positive("peakFlopsPerSecond", in.peak->value());
  if (in.memory_per_gpu) require_positive("memoryBytesPerGpu", in.memory_per_gpu->value());
  if (in.weights_read) {
    require_positive("bytesReadPerStep", in.weights_read->value());
    if (in.weights_read->value() > in.weights.value() * (1 + 1e-12)) {
      throw Error(ErrorCode::out_of_range, "bytesReadPerStep",
                  "bytesReadPerStep must be at most weightBytes: a step reads no weight the model does not hold");
    }
  }

  DecodeStep s{};
  const Bytes total = in.weights + in.kv_cache_per_sequence * in.batch;
  const Bytes read = in.weights_read.value_or(in.weights) + in.kv_cache_per_sequence * in.batch;
  s.resident_per_gpu = Bytes{require_result("residentBytesPerGpu", total.value() / in.gpus)};
  s.bytes_per_step = Bytes{require_result("bytesPerStep", read.value() / in.gpus)};
  s.memory = Seconds{require_result("memorySeconds", (s.bytes_per_step / in.bandwidth).value())};
  s.step = s.memory;
  if (in.peak) {
    const double flops = require_result("computeSeconds", in.batch * in.flops_per_token->value() / in.gpus);
    s.compute = Seconds{require_result("computeSeconds", flops / in.peak->value())};
    if (s.compute->value() >= s.memory.value()) {  // as clocks(): a tie is compute-bound
      s.step = *s.compute;
      s.bound = Bound::compute;
    }
  }
  require_non_negative("communicationSeconds", in.communication.value());
  s.step = s.step + in.communication;
  s.tokens_per_second_per_sequence = require_result("tokensPerSecondPerSequence", 1.0 / s.step.value());
  s.tokens_per_second = require_result("tokensPerSecond", in.batch / s.step.value());
  if (in.memory_per_gpu) {
    const double capacity = in.memory_per_gpu->value() * in.gpus;
    s.fits = total.value() <= capacity;
    if (in.kv_cache_per_sequence.value() > 0) {
      const double room = capacity - in.weights.value();
      s.max_batch = room <= 0 ? 0.0 : require_result("maxBatch", std::floor(room / in.kv_cache_per_sequence.value()));
    }
  }
  return s;
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
  require_count_or_zero("cachedTokens", in.cached);
  const Flops attention =
      in.attention ? causal_attention_flops(*in.attention, in.cached, in.cached + in.tokens) : Flops{0};
  const Flops flops{require_result("flops", flops_per_token(in.params).value() * in.tokens + attention.value())};
  Prefill p{flops, clocks(flops / in.gpus, in.weights / in.gpus, in.device)};
  p.attention_flops = attention;
  return p;
}

Flops causal_attention_flops(const CausalAttention& a, double first, double last) {
  // Σ over positions i = first + 1 … last of i (full layers) and of min(i, window) (sliding ones)
  const auto upto = [](double n, double w) { return n <= w ? n * (n + 1) / 2 : w * (w + 1) / 2 + (n - w) * w; };
  const double full = (last * (last + 1) - first * (first + 1)) / 2;
  const double sliding = a.window > 0 ? upto(last, a.window) - upto(first, a.window) : 0;
  return Flops{require_result("attentionFlops", a.flops_per_pair * full + a.sliding_flops_per_pair * sliding)};
}

PrefixCache prefix_cache(const PrefillInput& in, double cached_share, const HostLoad& host) {
  require_count("promptTokens", in.tokens);
  require_fraction("cachedShare", cached_share);
  if (host.kv_bytes_per_token.has_value() != host.bandwidth.has_value()) {
    const char* missing = host.bandwidth ? "kvBytesPerToken" : "hostBytesPerSecond";
    throw Error(ErrorCode::missing_field, missing,
                std::string(missing) + " is required with " +
                    (host.bandwidth ? "hostBytesPerSecond" : "kvBytesPerToken") + ": loading the cached KV needs both");
  }
  if (host.kv_bytes_per_token) require_positive("kvBytesPerToken", host.kv_bytes_per_token->value());
  if (host.bandwidth) require_positive("hostBytesPerSecond", host.bandwidth->value());
  PrefixCache c{};
  c.cached_tokens = std::min(std::floor(in.tokens * cached_share), in.tokens - 1);
  c.uncached_tokens = in.tokens - c.cached_tokens;
  PrefillInput rest = in;
  rest.tokens = c.uncached_tokens;
  rest.cached = in.cached + c.cached_tokens;  // the uncached tokens attend to the cached prefix
  c.prefill = prefill(rest);
  c.without_cache = prefill(in);
  if (host.kv_bytes_per_token) {
    // each GPU loads the KV heads it holds, 1/gpus of every token's keys and values
    const double bytes = require_result("loadSeconds", c.cached_tokens * host.kv_bytes_per_token->value() / in.gpus);
    c.load = Seconds{require_result("loadSeconds", (Bytes{bytes} / *host.bandwidth).value())};
  }
  const Seconds run = c.prefill.clocks.lower_bound;
  c.time_to_first_token = host.overlap ? std::max(c.load, run) : run + c.load;
  return c;
}

}  // namespace roofline
