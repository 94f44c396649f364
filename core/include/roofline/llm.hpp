// LLM serving: decode reads every weight (and each sequence's KV cache) once per token, prefill
// reads the weights once for the whole prompt.
//
//   decode({gigabytes(16.06), gigabytes(1.07), 4, gigabytes_per_second(300), 1});
//     // 20.34 GB per step, 67.8 ms, ≈ 59 tokens/s in total, ≈ 15 per conversation
//   Same at batch 1,024 with flops_per_token 16.06 GFLOPs and a 121 TFLOPS peak: compute-bound,
//   ≈ 7,530 tokens/s; with memory_per_gpu 24 GB and 8,192-token KV caches, max_batch 7.
//   kv_cache_bytes(32, 8, 128, 8192, Dtype::bf16);   // 1.07 GB (Llama 3 8B)
#pragma once

#include <optional>

#include "roofline/dtype.hpp"
#include "roofline/roofline.hpp"
#include "roofline/units.hpp"

namespace roofline {

struct DecodeInput {
  Bytes weights;                ///< the model's weight bytes (all of them, before splitting): its capacity
  Bytes kv_cache_per_sequence;  ///< KV cache bytes each sequence reads per step (may be 0)
  double batch = 1;             ///< sequences decoded together (a count)
  BytesPerSecond bandwidth;     ///< one GPU's memory bandwidth
  double gpus = 1;              ///< tensor-parallel GPUs, each reading 1/gpus of everything
  /// The compute roof, both or neither: FLOPs each token costs (2 × params) and one GPU's peak.
  std::optional<Flops> flops_per_token = std::nullopt;
  std::optional<FlopsPerSecond> peak = std::nullopt;
  /// The capacity wall: one GPU's memory, which must hold its share of weights + batch × KV.
  std::optional<Bytes> memory_per_gpu = std::nullopt;
  /// The weight bytes one step reads, all GPUs together, where fewer than `weights` (an MoE's
  /// untouched experts, the input table's unread rows); none: every weight.
  std::optional<Bytes> weights_read = std::nullopt;
  /// Tensor parallelism's all-reduces (roofline/parallel.hpp): added to the step, after its floors.
  Seconds communication{0};
};

struct DecodeStep {
  Bytes bytes_per_step;                   ///< what ONE GPU reads: (weights read + batch·kv) ÷ gpus
  Bytes resident_per_gpu;                 ///< what ONE GPU holds: (weights + batch·kv) ÷ gpus
  Seconds memory;                         ///< bytes_per_step ÷ bandwidth: the memory floor of a step
  std::optional<Seconds> compute;         ///< batch · flops_per_token ÷ (gpus · peak), with a peak
  Seconds step;                           ///< the larger of the two floors, plus the communication
  Bound bound = Bound::memory;            ///< which floor sets the step
  double tokens_per_second_per_sequence;  ///< 1 ÷ step
  double tokens_per_second;               ///< batch ÷ step
  std::optional<bool> fits;               ///< with a capacity: weights + batch·kv fit on the GPUs
  /// With a capacity and a KV cache: the largest batch that fits (0 when the weights alone don't).
  std::optional<double> max_batch;
};

DecodeStep decode(const DecodeInput& in);

/// Keys and values of every layer: 2 × layers × kv_heads × head_dim × tokens × bytes per element.
Bytes kv_cache_bytes(double layers, double kv_heads, double head_dim, double tokens, Dtype dtype);

/// A forward pass uses each parameter in one MAC: ≈ 2 FLOPs per parameter per token.
Flops flops_per_token(double params);

/// Attention's FLOPs per query-key pair, summed over the layers that attend to every earlier token
/// and over those that attend only a window of them (2·heads·(qk dim + v dim) a layer).
struct CausalAttention {
  double flops_per_pair = 0;          ///< the full layers'
  double sliding_flops_per_pair = 0;  ///< the sliding-window layers'
  double window = 0;                  ///< their window, in tokens
};

/// FLOPs of causal attention for the queries at positions first + 1 … last, each attending to
/// itself and every earlier token (a sliding layer to at most its window): a prompt of L tokens
/// has L(L + 1)/2 pairs a full layer; its last (1 − r)L tokens, after a cached rL, most of them.
Flops causal_attention_flops(const CausalAttention& a, double first, double last);

struct PrefillInput {
  double params;    ///< parameters (a count, may be fractional in billions: 8.03e9)
  double tokens;    ///< prompt tokens processed together
  Bytes weights;    ///< weight bytes, read once for the whole prompt
  Device device;    ///< one GPU's peak and bandwidth
  double gpus = 1;  ///< tensor-parallel GPUs sharing the FLOPs and the bytes
  /// With a model's shape, the prompt's causal attention adds to 2·params·tokens; none: the
  /// lesson's rule alone.
  std::optional<CausalAttention> attention = std::nullopt;
  double cached = 0;  ///< tokens before these, already in the KV cache, that they attend to
};

/// Prefill: FLOPs = 2·params·tokens, bytes = the weights once; split over `gpus`. Its clocks
/// give the time-to-first-token floor (TTFT); decode's step gives the time per output token (TPOT).
struct Prefill {
  Flops flops;               ///< all GPUs together: 2·params·tokens, plus attention_flops
  Clocks clocks;             ///< one GPU's share of the FLOPs and of the weight bytes
  Flops attention_flops{0};  ///< the causal attention's (0 without a model's shape)
};
Prefill prefill(const PrefillInput& in);

/// Where a prefix cache keeps the cached keys and values in host memory (a CPU-side cache): they
/// cross the host link before the uncached tokens' attention reads them. Both numbers or neither
/// (none: the cache is in GPU memory, nothing to load). Under tensor parallelism each GPU holds
/// 1/gpus of the KV heads and loads its share over its own link.
struct HostLoad {
  std::optional<Bytes> kv_bytes_per_token;  ///< K and V of one cached token, all layers, all GPUs
  std::optional<BytesPerSecond> bandwidth;  ///< one GPU's host→GPU link
  bool overlap = true;                      ///< the load runs during the prefill (layer by layer), not before it
};

/// Prefix caching: a prompt whose first cached_share of tokens a cache already holds (their keys
/// and values, from an earlier request with the same prefix) prefills only the rest. At least one
/// token always goes through the model: it gives the first output token. Decode is unchanged.
struct PrefixCache {
  double cached_tokens;         ///< ⌊prompt tokens × cached share⌋, at most all but one
  double uncached_tokens;       ///< the rest, prefilled now
  Prefill prefill;              ///< of the uncached tokens
  Prefill without_cache;        ///< of the whole prompt
  Seconds load;                 ///< cached tokens × KV bytes per token ÷ gpus ÷ host link; 0 without
  Seconds time_to_first_token;  ///< max(load, prefill) overlapped, load + prefill not
};
PrefixCache prefix_cache(const PrefillInput& in, double cached_share, const HostLoad& host = {});

}  // namespace roofline
