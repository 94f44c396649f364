#include "roofline/architecture.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/error.hpp"
#include "roofline/precision.hpp"
#include "roofline/weight_format.hpp"
namespace roofline {

using json::Value;

namespace {

double sum_if(const std::vector<bool>& flags, bool value) {
  return static_cast<double>(std::count(flags.begin(), flags.end(), value));
}

}  // namespace

/// Bytes of `quantized` parameters in a format's own storage plus `kept` ones that stay in BF16
/// where the format keeps them (a bit budget counts both at its bits).
Bytes format_weight_bytes(double quantized, double kept, const WeightFormat& f) {
  // as quantized_weights(), but the counts may be expected values (an MoE's experts touched)
  if (!f.dtype) return Bytes{require_result("bytes", (quantized + kept) * f.bits / 8)};
  if (!f.keeps_bf16_share) quantized += kept, kept = 0;
  double bytes = kept * bytes_per_element(Dtype::bf16) + quantized * bytes_per_element(*f.dtype);
  if (f.group_size) bytes += std::ceil(quantized / *f.group_size) * bytes_per_element(f.scale_dtype);
  return Bytes{require_result("bytes", bytes)};
}

double experts_touched(const MixtureOfExperts& m, double batch) {
  return m.experts * (1 - std::pow(1 - m.experts_per_token / m.experts, batch));
}

ParamCounts param_counts(const Architecture& a) {
  ParamCounts p;
  const Attention& at = a.attention;
  const double h = a.hidden;
  double attn = 0;
  if (at.kind == Attention::Kind::mla) {
    const double qk = at.qk_nope_head_dim + at.qk_rope_head_dim;
    attn +=
        at.q_lora_rank > 0 ? h * at.q_lora_rank + at.q_lora_rank + at.q_lora_rank * at.heads * qk : h * at.heads * qk;
    attn += h * (at.kv_lora_rank + at.qk_rope_head_dim) + at.kv_lora_rank;
    attn += at.kv_lora_rank * at.heads * (at.qk_nope_head_dim + at.v_head_dim);
    attn += at.heads * at.v_head_dim * h;
  } else {
    const double q = at.heads * at.head_dim, kv = at.kv_heads * at.head_dim;
    attn += h * q + 2 * h * kv + q * h;
    if (at.qkv_bias) attn += q + 2 * kv;
    if (at.o_bias) attn += h;
    if (at.sinks) attn += at.heads;
  }
  if (at.qk_norm) attn += 2 * at.head_dim;
  p.attention = a.layers * attn;

  const double mlp_matrices = a.gated_mlp ? 3 : 2;
  auto mlp = [&](double inter, bool bias) {
    double x = mlp_matrices * h * inter;
    if (bias) x += (a.gated_mlp ? 2 * inter : inter) + h;
    return x;
  };
  const double moe_layers = a.moe ? sum_if(a.moe_layer, true) : 0;
  const double dense_layers = a.layers - moe_layers;
  p.dense_mlp = dense_layers * mlp(a.intermediate, a.mlp_bias);
  if (a.moe) {
    const MixtureOfExperts& m = *a.moe;
    p.per_expert = mlp(m.expert_intermediate, m.expert_bias);
    p.moe_layers = moe_layers;
    p.routed_experts = moe_layers * m.experts * p.per_expert;
    p.shared_experts = moe_layers * m.shared_experts * mlp(m.shared_intermediate, false);
    p.routers = moe_layers * (h * m.experts + (m.router_bias ? m.experts : 0));
  }
  p.norms = a.layers * a.norms_per_layer * h + h;
  p.embedding = a.vocab * h;
  p.output = a.tied_embeddings ? 0 : a.vocab * h;
  p.vision = a.vision_params;
  p.params = p.embedding + p.output + p.attention + p.dense_mlp + p.routed_experts + p.shared_experts + p.routers +
             p.norms + p.vision;
  const double routed_active = a.moe ? moe_layers * a.moe->experts_per_token * p.per_expert : 0;
  p.active = p.attention + p.dense_mlp + routed_active + p.shared_experts + p.routers + p.norms +
             (a.tied_embeddings ? p.embedding : p.output);
  return p;
}

Bytes kv_bytes_per_token(const Architecture& a, Dtype kv_dtype) {
  const Attention& at = a.attention;
  const double per_layer = at.kind == Attention::Kind::mla ? at.kv_lora_rank + at.qk_rope_head_dim
                                                           : at.kv_heads * (at.head_dim + at.v_head_dim);
  return bytes_of(a.layers * per_layer, kv_dtype);
}

Bytes kv_bytes_per_sequence(const Architecture& a, double tokens, Dtype kv_dtype) {
  require_count_or_zero("tokens", tokens);
  const double per_layer_token = kv_bytes_per_token(a, kv_dtype).value() / a.layers;
  const double sliding = sum_if(a.sliding_layer, true);
  const double held = (a.layers - sliding) * tokens + sliding * std::min(tokens, a.attention.sliding_window);
  return Bytes{require_result("kvBytesPerSequence", held * per_layer_token)};
}

Bytes resident_bytes(const Architecture& a, const WeightFormat& format) {
  const ParamCounts p = param_counts(a);
  const double kept = p.embedding + p.output;
  return format_weight_bytes(p.params - kept, kept, format);
}

Bytes weights_read_per_step(const Architecture& a, const WeightFormat& format, double batch) {
  require_count("batch", batch);
  const ParamCounts p = param_counts(a);
  double body = p.params - p.embedding - p.output - p.vision - p.routed_experts;
  if (a.moe) body += p.moe_layers * experts_touched(*a.moe, batch) * p.per_expert;
  // the output layer is read whole; of an untied input table, one row per token
  const double kept = a.tied_embeddings ? p.embedding : p.output + std::min(batch, a.vocab) * a.hidden;
  return format_weight_bytes(body, kept, format);
}

namespace {
/// One query-key pair's FLOPs in one layer: the score (q·k) and the weighted value.
double flops_per_pair(const Attention& at) { return 2 * at.heads * (at.head_dim + at.v_head_dim); }
}  // namespace

Flops attention_flops_per_token(const Architecture& a, double context) {
  require_count_or_zero("context", context);
  const Attention& at = a.attention;
  const double per_token_attended = flops_per_pair(at);
  const double sliding = sum_if(a.sliding_layer, true);
  const double attended = (a.layers - sliding) * context + sliding * std::min(context, at.sliding_window);
  return Flops{require_result("flops", per_token_attended * attended)};
}

CausalAttention causal_attention(const Architecture& a) {
  const double per_pair = flops_per_pair(a.attention), sliding = sum_if(a.sliding_layer, true);
  return {per_pair * (a.layers - sliding), per_pair * sliding, a.attention.sliding_window};
}

Flops flops_per_token(const Architecture& a, double context) {
  return Flops{2 * param_counts(a).active} + attention_flops_per_token(a, context);
}

MtpDraft mtp_draft(const Architecture& a, const WeightFormat& format, double batch, double context, Dtype kv_dtype,
                   std::string_view field) {
  if (!(a.mtp_layers > 0)) {
    throw Error(ErrorCode::out_of_range, std::string(field),
                std::string(field) +
                    " 'mtp' needs a model with multi-token-prediction modules (num_nextn_predict_layers in its "
                    "config.json, as DeepSeek-V3's): this one has none");
  }
  // the modules as a model of their own: its layers, and the target's input table and output layer
  Architecture head = a;
  head.layers = a.mtp_layers;
  // DeepSeek-V3's module is an MoE layer; a model's dense first layers are not what it copies
  const bool moe = a.moe && sum_if(a.moe_layer, true) > 0;
  head.moe_layer.assign(static_cast<std::size_t>(a.mtp_layers), moe);
  head.sliding_layer.assign(static_cast<std::size_t>(a.mtp_layers), false);
  if (!moe) head.moe.reset();
  head.vision_params = 0;
  head.mtp_layers = 0;
  const double projection = a.mtp_layers * (2 * a.hidden * a.hidden + 2 * a.hidden);  // eh_proj, enorm, hnorm
  MtpDraft d;
  d.weights_read = weights_read_per_step(head, format, batch) + format_weight_bytes(projection, 0, format);
  d.flops_per_token = flops_per_token(head, context) + Flops{2 * a.mtp_layers * 2 * a.hidden * a.hidden};
  d.kv_per_sequence = kv_bytes_per_sequence(head, context, kv_dtype);
  return d;
}

ModelWeights architecture_weights(const Architecture& a, const WeightFormat& format) {
  const ParamCounts p = param_counts(a);
  ModelWeights w;
  w.params = p.params;
  w.kept_params = format.keeps_bf16_share ? p.embedding + p.output : 0;
  w.bytes = resident_bytes(a, format);
  w.bits_per_weight = w.bytes.value() * 8 / p.params;
  w.format = format.id;
  return w;
}

json::Value architecture_value(const Architecture& a) {
  const Attention& at = a.attention;
  Value attention = Value::object();
  attention.set("kind", at.kind == Attention::Kind::mla ? "mla" : "gqa").set("heads", at.heads);
  attention.set("kvHeads", at.kv_heads).set("headDim", at.head_dim).set("vHeadDim", at.v_head_dim);
  attention.set("qLoraRank", at.q_lora_rank).set("kvLoraRank", at.kv_lora_rank);
  attention.set("qkNopeHeadDim", at.qk_nope_head_dim).set("qkRopeHeadDim", at.qk_rope_head_dim);
  attention.set("qkvBias", at.qkv_bias).set("oBias", at.o_bias).set("qkNorm", at.qk_norm).set("sinks", at.sinks);
  attention.set("slidingWindow", at.sliding_window).set("slidingLayers", sum_if(a.sliding_layer, true));
  Value v = Value::object();
  v.set("family", a.family).set("layers", a.layers).set("hiddenSize", a.hidden).set("vocabSize", a.vocab);
  v.set("tiedEmbeddings", a.tied_embeddings).set("attention", std::move(attention));
  v.set("intermediateSize", a.intermediate).set("gatedMlp", a.gated_mlp).set("mlpBias", a.mlp_bias);
  if (a.moe) {
    const MixtureOfExperts& m = *a.moe;
    v.set("moe", Value::object()
                     .set("experts", m.experts)
                     .set("expertsPerToken", m.experts_per_token)
                     .set("expertIntermediateSize", m.expert_intermediate)
                     .set("sharedExperts", m.shared_experts)
                     .set("sharedIntermediateSize", m.shared_intermediate)
                     .set("routerBias", m.router_bias)
                     .set("expertBias", m.expert_bias)
                     .set("moeLayers", sum_if(a.moe_layer, true)));
  } else {
    v.set("moe", Value());
  }
  v.set("normsPerLayer", a.norms_per_layer).set("visionParams", a.vision_params).set("maxContext", a.max_context);
  v.set("mtpLayers", a.mtp_layers);
  return v;
}

namespace {

// Reads back what architecture_value wrote (a model a host got from modelFromConfig and passes
// on): every field is checked as a config's would be, under `prefix` ("model.architecture").
class Fields {
 public:
  Fields(const Value& v, std::string prefix) : v_(v), prefix_(std::move(prefix)) {
    if (!v.is(Value::Kind::object)) {
      throw Error(ErrorCode::invalid_config, prefix_, prefix_ + " must be the architecture modelFromConfig returns");
    }
  }
  [[nodiscard]] const Value& raw(std::string_view key) const {
    const Value* f = v_.find(key);
    if (!f) throw Error(ErrorCode::missing_field, path(key), path(key) + " is required");
    return *f;
  }
  [[nodiscard]] std::string path(std::string_view key) const { return prefix_ + "." + std::string(key); }
  [[nodiscard]] double number(std::string_view key, bool allow_zero = true) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::number)) throw Error(ErrorCode::not_a_number, path(key), path(key) + " must be a number");
    const double x = f.number();
    if (!std::isfinite(x) || x < (allow_zero ? 0 : 1) || x > 1099511627776.0 || x != std::floor(x)) {
      throw Error(
          ErrorCode::out_of_range, path(key),
          path(key) + " must be a whole number from " + (allow_zero ? "0" : "1") + " to 2^40, got " + format_number(x));
    }
    return x;
  }
  [[nodiscard]] bool flag(std::string_view key) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::boolean))
      throw Error(ErrorCode::out_of_range, path(key), path(key) + " must be true or false");
    return f.boolean();
  }
  [[nodiscard]] const Value& value() const { return v_; }

 private:
  const Value& v_;
  std::string prefix_;
};

}  // namespace

Architecture architecture_from_value(const json::Value& value, const std::string& prefix) {
  const Fields f(value, prefix);
  Architecture a;
  const Value& family = f.raw("family");
  a.family = family.is(Value::Kind::string) ? family.string() : "";
  a.layers = f.number("layers", false);
  a.hidden = f.number("hiddenSize", false);
  a.vocab = f.number("vocabSize", false);
  a.tied_embeddings = f.flag("tiedEmbeddings");
  const Fields at(f.raw("attention"), f.path("attention"));
  Attention& t = a.attention;
  const Value& kind = at.raw("kind");
  if (!kind.is(Value::Kind::string) || (kind.string() != "gqa" && kind.string() != "mla")) {
    throw Error(ErrorCode::out_of_range, at.path("kind"), at.path("kind") + " must be gqa or mla");
  }
  t.kind = kind.string() == "mla" ? Attention::Kind::mla : Attention::Kind::gqa;
  t.heads = at.number("heads", false);
  t.kv_heads = at.number("kvHeads", false);
  t.head_dim = at.number("headDim", false);
  t.v_head_dim = at.number("vHeadDim", false);
  t.q_lora_rank = at.number("qLoraRank");
  t.kv_lora_rank = at.number("kvLoraRank");
  t.qk_nope_head_dim = at.number("qkNopeHeadDim");
  t.qk_rope_head_dim = at.number("qkRopeHeadDim");
  if (t.kind == Attention::Kind::mla && t.kv_lora_rank < 1) {
    throw Error(ErrorCode::out_of_range, at.path("kvLoraRank"), at.path("kvLoraRank") + " must be at least 1 for MLA");
  }
  t.qkv_bias = at.flag("qkvBias");
  t.o_bias = at.flag("oBias");
  t.qk_norm = at.flag("qkNorm");
  t.sinks = at.flag("sinks");
  t.sliding_window = at.number("slidingWindow");
  const double sliding = at.number("slidingLayers");
  if (sliding > a.layers || (sliding > 0 && t.sliding_window < 1)) {
    throw Error(ErrorCode::out_of_range, at.path("slidingLayers"),
                at.path("slidingLayers") + " must be at most layers, with a slidingWindow");
  }
  a.sliding_layer.assign(static_cast<std::size_t>(a.layers), false);
  for (std::size_t i = 0; i < static_cast<std::size_t>(sliding); ++i) a.sliding_layer[i] = true;
  a.intermediate = f.number("intermediateSize");
  a.gated_mlp = f.flag("gatedMlp");
  a.mlp_bias = f.flag("mlpBias");
  a.moe_layer.assign(static_cast<std::size_t>(a.layers), false);
  if (!f.raw("moe").is(Value::Kind::null)) {
    const Fields m(f.raw("moe"), f.path("moe"));
    MixtureOfExperts x;
    x.experts = m.number("experts", false);
    x.experts_per_token = m.number("expertsPerToken", false);
    x.expert_intermediate = m.number("expertIntermediateSize", false);
    x.shared_experts = m.number("sharedExperts");
    x.shared_intermediate = m.number("sharedIntermediateSize");
    x.router_bias = m.flag("routerBias");
    x.expert_bias = m.flag("expertBias");
    if (x.experts_per_token > x.experts) {
      throw Error(ErrorCode::out_of_range, m.path("expertsPerToken"),
                  m.path("expertsPerToken") + " must be at most experts");
    }
    const double moe_layers = m.number("moeLayers");
    if (moe_layers > a.layers) {
      throw Error(ErrorCode::out_of_range, m.path("moeLayers"), m.path("moeLayers") + " must be at most layers");
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(moe_layers); ++i) a.moe_layer[i] = true;
    a.moe = x;
  }
  a.norms_per_layer = f.number("normsPerLayer");
  a.vision_params = f.number("visionParams");
  a.max_context = f.number("maxContext");
  // written since multi-token prediction drafts (a value from before reads as none)
  a.mtp_layers = f.value().find("mtpLayers") ? f.number("mtpLayers") : 0;
  return a;
}

}  // namespace roofline
