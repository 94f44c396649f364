// Inside one step: a transformer's prefill or decode step operator by operator, each with its
// FLOPs, the bytes it moves and its own place on the roofline.
//
//   StepInput in{arch, find_format("fp16"), Dtype::fp16, device_for(find_gpu("a100-80gb"), Dtype::fp16),
//                Phase::decode, 1, 1024};
//   Step s = step(in);   // Llama 2 7B: q_proj 33,554,432 FLOPs per layer, attn_scores 8,388,608
//
// Conventions (docs/api.md, "step"):
//   - an (m×k)·(k×n) product is 2mkn FLOPs; a bias adds one per output;
//   - a decode step of b sequences over c cached tokens: per layer 2·b·heads·(q/k dim)·c FLOPs for
//     the scores and 2·b·heads·(v dim)·c for the values (a sliding layer attends at most its window);
//   - a prefill of L tokens per sequence is causal: L(L+1)/2 query-key pairs per head and sequence
//     (a window w caps each query's keys at w);
//   - softmax: 3 FLOPs per score (exponent, sum, division); a norm 4 per element;
//   - weights are read once per step; an MoE layer reads the experts its tokens touch
//     (E·(1 − (1 − k/E)^T) for T tokens); the input table, one row per token; the output layer
//     computes the logits of each sequence's last token;
//   - KV read: b·c·(KV bytes per token per layer) per layer (keys by the scores, values by the
//     values); KV written: the step's new tokens (by k_proj and v_proj);
//   - without FlashAttention the score matrix is written and read back in the activation dtype;
//     with it, it stays on chip;
//   - each operator reads its input activations and writes its output in the activation dtype
//     (the format's compute dtype);
//   - on gpus > 1 (tensor parallelism) every operator but the norms is split evenly, and an
//     `allreduce` operator counts 2 × layers all-reduces of tokens × hidden activations on the link.
#pragma once

#include <string>
#include <vector>

#include "roofline/architecture.hpp"
#include "roofline/catalog.hpp"
#include "roofline/parallel.hpp"
#include "roofline/roofline.hpp"

namespace roofline {

enum class Phase { decode, prefill };

struct StepInput {
  const Architecture& arch;
  const WeightFormat& format;
  Dtype kv_dtype = Dtype::bf16;
  Device device;  ///< one GPU's peak (at the format's compute precision) and bandwidth
  Phase phase = Phase::decode;
  double batch = 1;    ///< sequences
  double context = 0;  ///< decode: tokens already cached per sequence; prefill: the prompt's tokens
  bool flash_attention = true;
  /// Tensor parallelism: each GPU does 1/gpus of every operator but the norms (every GPU normalizes
  /// the whole hidden state), and two all-reduces a layer join their parts over `link`.
  double gpus = 1;
  std::optional<LinkFigures> link = std::nullopt;  ///< none: the all-reduces are not counted
};

/// One kind of operator of the step, summed over its instances (`count`: one per layer, ...).
struct StepOperator {
  std::string id;  ///< "q_proj", "attn_scores", "experts", "lm_head", ...; ":sliding" for a sliding layer's attention
  std::string group;  ///< "attention", "mlp", "other" or "communication" (the all-reduces)
  double count = 0;   ///< instances per step (layers that have it)
  double flops = 0;
  double weight_bytes = 0;
  double kv_read_bytes = 0;
  double kv_write_bytes = 0;
  double activation_bytes = 0;
  double link_bytes = 0;  ///< sent to the other GPUs (the all-reduces), not read from memory
  [[nodiscard]] double bytes() const { return weight_bytes + kv_read_bytes + kv_write_bytes + activation_bytes; }
};

struct StepOperatorTime {
  double flops_per_byte = 0;
  Bound bound = Bound::memory;
  bool on_link = false;  ///< its floor is the link's (latency + bytes ÷ bandwidth), not a roofline's
  double seconds = 0;    ///< its floor: the larger of its compute and memory clocks, or its link time
  double share = 0;      ///< of the step's summed floors
};

struct Step {
  std::vector<StepOperator> operators;
  std::vector<StepOperatorTime> times;  ///< one per operator
  double tokens = 0;                    ///< tokens the step processes (decode: batch; prefill: batch × prompt)
  double flops = 0, bytes = 0, weight_bytes = 0, kv_read_bytes = 0, kv_write_bytes = 0, activation_bytes = 0;
  double seconds = 0;           ///< the sum of the operators' floors: they run one after another
  double roofline_seconds = 0;  ///< the whole step as one kernel: max(FLOPs ÷ peak, bytes ÷ bandwidth)
  Bound roofline_bound = Bound::memory;
  double attention_share = 0;  ///< of `seconds`, the attention group's
  double link_bytes = 0;       ///< sent by one GPU to the others
  /// The all-reduces' time (in `seconds`, and added to `roofline_seconds`): 0 on one GPU; none
  /// with more and no link.
  std::optional<double> communication_seconds = 0.0;
};

Step step(const StepInput& in);

}  // namespace roofline
