// A decoder-only transformer as its architecture, and what follows from it: the parameters it
// holds, the ones a token multiplies, the bytes a decode step reads and the KV cache it keeps.
//
//   Architecture a = architecture_from_config(parse_json(text));   // a Hugging Face config.json
//   ParamCounts p = param_counts(a);        // Llama 3.1 8B: params 8,030,261,248
//   kv_bytes_per_token(a, Dtype::bf16);     // 131,072 B (2 · 32 layers · 8 KV heads · 128 · 2 B)
//   weights_read_per_step(a, find_format("bf16"), 64);   // Mixtral at batch 64: nearly every expert
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "roofline/dtype.hpp"
#include "roofline/llm.hpp"
#include "roofline/units.hpp"
#include "roofline/value.hpp"

namespace roofline {

struct WeightFormat;
struct ModelWeights;

struct Attention {
  enum class Kind { gqa, mla };  ///< grouped-query attention (MHA and MQA included), or multi-head latent
  Kind kind = Kind::gqa;
  double heads = 0;       ///< query heads
  double kv_heads = 0;    ///< key/value heads (GQA): heads for MHA, 1 for MQA
  double head_dim = 0;    ///< per head, for queries and keys (GQA); config.head_dim or hidden ÷ heads
  double v_head_dim = 0;  ///< per head, for values
  // MLA (DeepSeek-V2/V3): queries and keys/values go through low-rank ("LoRA") projections and
  // the cache keeps the compressed kv plus a RoPE part per token and layer.
  double q_lora_rank = 0;  ///< 0: queries are projected directly
  double kv_lora_rank = 0;
  double qk_nope_head_dim = 0;
  double qk_rope_head_dim = 0;
  bool qkv_bias = false;      ///< biases on the q, k, v projections
  bool o_bias = false;        ///< a bias on the output projection
  bool qk_norm = false;       ///< a norm of head_dim on queries and on keys (Qwen3, Gemma 3)
  bool sinks = false;         ///< one learned sink logit per head (gpt-oss)
  double sliding_window = 0;  ///< tokens a sliding-window layer attends to; 0: none
};

struct MixtureOfExperts {
  double experts = 0;              ///< routed experts per MoE layer (E)
  double experts_per_token = 0;    ///< routed experts each token is sent to (k)
  double expert_intermediate = 0;  ///< intermediate size of one expert
  double shared_experts = 0;       ///< experts every token goes through
  double shared_intermediate = 0;  ///< intermediate size of one shared expert
  bool router_bias = false;        ///< a bias per expert on the router (gpt-oss, DeepSeek-V3's correction)
  bool expert_bias = false;        ///< biases inside each expert (gpt-oss)
};

struct Architecture {
  std::string family;  ///< the config's model_type ("llama", "mixtral", "deepseek_v3", ...)
  double layers = 0;
  double hidden = 0;
  double vocab = 0;
  bool tied_embeddings = false;  ///< the output layer is the input embedding table
  Attention attention;
  double intermediate = 0;  ///< dense MLP intermediate size
  bool gated_mlp = true;    ///< three matrices (gate, up, down) rather than two
  bool mlp_bias = false;
  std::optional<MixtureOfExperts> moe;
  /// Per layer: whether it is an MoE layer (else dense) and whether it uses the sliding window.
  std::vector<bool> moe_layer, sliding_layer;
  double norms_per_layer = 2;  ///< RMSNorm vectors of `hidden` per layer (2; Gemma 2/3: 4)
  double max_context = 0;      ///< config.max_position_embeddings, 0 if absent
  /// Parameters resident beside the text model and off a text token's path (Gemma 3's vision tower).
  double vision_params = 0;
  /// Multi-token-prediction modules (config.num_nextn_predict_layers: DeepSeek-V3, GLM-4.5): not
  /// counted in the parameters, which follow the publishers' (DeepSeek-V3's 671B leave its 14B out).
  double mtp_layers = 0;
};

/// Counts in parameters (plain counts).
struct ParamCounts {
  double params = 0;          ///< everything resident
  double embedding = 0;       ///< the input lookup table (vocab × hidden)
  double output = 0;          ///< the output layer (0 when tied: the table serves both)
  double attention = 0;       ///< all layers' attention weights, norms of q/k included
  double dense_mlp = 0;       ///< MLP weights of dense layers
  double routed_experts = 0;  ///< all routed experts of all MoE layers
  double shared_experts = 0;
  double routers = 0;
  double norms = 0;
  double vision = 0;
  /// What one token multiplies: every matrix on its path, the output layer (the table, when tied),
  /// the k routed experts of each MoE layer it is sent to and the shared ones; not the input lookup.
  double active = 0;
  /// Parameters of one routed expert, and the MoE layers' count (0, 0 for a dense model).
  double per_expert = 0;
  double moe_layers = 0;
};

/// Reads a Hugging Face config.json (already parsed): the families of docs/models.md. Errors name
/// the field: missing_field "config.num_key_value_heads", out_of_range, not_integer, or
/// unknown_architecture for a model_type it does not know. `prefix` is the fields' prefix.
Architecture architecture_from_config(const json::Value& config, const std::string& prefix = "config");

ParamCounts param_counts(const Architecture& a);

/// KV cache bytes one token adds, summed over layers (GQA: 2·layers·kv_heads·head_dim·bytes;
/// MLA: layers·(kv_lora_rank + rope dim)·bytes); a sliding-window layer counts here too.
Bytes kv_bytes_per_token(const Architecture& a, Dtype kv_dtype);
/// KV cache bytes of one sequence of `tokens`: sliding-window layers hold at most their window.
Bytes kv_bytes_per_sequence(const Architecture& a, double tokens, Dtype kv_dtype);

/// Weight bytes a model occupies in a format: the capacity it needs.
Bytes resident_bytes(const Architecture& a, const WeightFormat& format);
/// Weight bytes one decode step of `batch` tokens reads: every layer's attention and dense
/// weights, the output layer, of each MoE layer the experts the batch touches (E·(1 − (1 − k/E)^b)
/// under uniform routing) and the shared ones, and `batch` rows of the input table.
Bytes weights_read_per_step(const Architecture& a, const WeightFormat& format, double batch);
/// Bytes of `quantized` weights in a format's own storage (scales included) plus `kept` ones that
/// stay in BF16 where the format keeps them; a bit budget counts both at its bits. The counts may
/// be expected values (an MoE's experts touched).
Bytes format_weight_bytes(double quantized, double kept, const WeightFormat& format);
/// The routed experts per MoE layer that `batch` tokens touch on average: E·(1 − (1 − k/E)^b).
double experts_touched(const MixtureOfExperts& moe, double batch);

/// FLOPs of one token: 2 × active parameters, plus attention over `context` earlier tokens
/// (2·heads·(qk dim + v dim) FLOPs per token attended, per layer; a sliding layer attends at most
/// its window).
Flops flops_per_token(const Architecture& a, double context);
/// The attention term alone.
Flops attention_flops_per_token(const Architecture& a, double context);
/// The same per query-key pair, for a prompt's causal attention (prefill, prefix caching).
CausalAttention causal_attention(const Architecture& a);

/// A model's own multi-token-prediction modules as the draft of speculative decoding (DeepSeek-V3):
/// each is one decoder layer (an MoE layer where the model has them) behind two norms and a
/// projection of [embedding; hidden state] (2·hidden × hidden), sharing the model's input table and
/// output layer. What one draft step of `batch` tokens reads and multiplies, and its KV cache.
struct MtpDraft {
  Bytes weights_read;
  Flops flops_per_token;
  Bytes kv_per_sequence;
};
/// Throws out_of_range (field `field`) where the model has no such module.
MtpDraft mtp_draft(const Architecture& a, const WeightFormat& format, double batch, double context, Dtype kv_dtype,
                   std::string_view field = "draft");

/// A model's weights in a format, counted from its architecture (kept params: the embedding and
/// the output layer stay in BF16 where the format keeps them).
ModelWeights architecture_weights(const Architecture& a, const WeightFormat& format);

/// The architecture as plain values (modelFromConfig's `architecture`): every field the counts
/// above use, so that architecture_from_value reads it back to the same figures.
json::Value architecture_value(const Architecture& a);
/// Reads what architecture_value wrote, checking each field; errors name `prefix`.field.
Architecture architecture_from_value(const json::Value& value, const std::string& prefix);

}  // namespace roofline
