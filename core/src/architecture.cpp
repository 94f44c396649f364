#include "roofline/architecture.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/precision.hpp"

namespace roofline {

namespace {

using api::Value;

/// The fields of one config object, each error naming its path ("config.num_key_value_heads").
class Config {
 public:
  Config(const Value& v, std::string prefix) : v_(v), prefix_(std::move(prefix)) {
    if (!v.is(Value::Kind::object)) {
      throw Error(ErrorCode::invalid_config, prefix_, prefix_ + " must be a JSON object (the text of a config.json)");
    }
  }

  [[nodiscard]] std::string path(std::string_view key) const { return prefix_ + "." + std::string(key); }

  /// Present and not null.
  [[nodiscard]] bool has(std::string_view key) const {
    const Value* f = v_.find(key);
    return f && !f->is(Value::Kind::null);
  }

  [[nodiscard]] const Value& raw(std::string_view key) const {
    const Value* f = v_.find(key);
    if (!f || f->is(Value::Kind::null)) {
      throw Error(ErrorCode::missing_field, path(key), path(key) + " is required for " + family_);
    }
    return *f;
  }

  /// A whole number ≥ 1 (layers, sizes, heads), at most 2^40.
  [[nodiscard]] double count(std::string_view key) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::number)) {
      throw Error(ErrorCode::not_a_number, path(key), path(key) + " must be a number, got " + api::describe(f));
    }
    const double x = f.number();
    if (!std::isfinite(x) || x < 1 || x > 1099511627776.0) {
      throw Error(ErrorCode::out_of_range, path(key),
                  path(key) + " must be a whole number from 1 to 2^40, got " + format_number(x));
    }
    if (x != std::floor(x)) {
      throw Error(ErrorCode::not_integer, path(key), path(key) + " must be a whole number, got " + format_number(x));
    }
    return x;
  }
  [[nodiscard]] double count_or(std::string_view key, double fallback) const { return has(key) ? count(key) : fallback; }
  /// A count, or 0 where absent or null (an optional size: q_lora_rank, sliding_window).
  [[nodiscard]] double count_or_zero(std::string_view key) const {
    if (!has(key)) return 0;
    const Value& f = raw(key);
    if (f.is(Value::Kind::number) && f.number() == 0) return 0;
    return count(key);
  }

  [[nodiscard]] bool flag_or(std::string_view key, bool fallback) const {
    if (!has(key)) return fallback;
    const Value& f = raw(key);
    if (!f.is(Value::Kind::boolean)) {
      throw Error(ErrorCode::out_of_range, path(key), path(key) + " must be true or false, got " + api::describe(f));
    }
    return f.boolean();
  }

  [[nodiscard]] std::string text(std::string_view key) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::string)) {
      throw Error(ErrorCode::out_of_range, path(key), path(key) + " must be a text, got " + api::describe(f));
    }
    return f.string();
  }

  [[nodiscard]] const Value* find(std::string_view key) const { return has(key) ? v_.find(key) : nullptr; }
  void set_family(std::string f) { family_ = std::move(f); }
  [[nodiscard]] const std::string& prefix() const { return prefix_; }


 private:
  const Value& v_;
  std::string prefix_;
  std::string family_ = "this model";
};

enum class Family { llama, mistral, mixtral, qwen2, qwen3, qwen3_moe, gemma2, gemma3, deepseek, gpt_oss, phi3 };

struct FamilyName {
  std::string_view model_type;
  Family family;
};
constexpr FamilyName families[] = {
    {"llama", Family::llama},       {"mistral", Family::mistral},       {"mixtral", Family::mixtral},
    {"qwen2", Family::qwen2},       {"qwen3", Family::qwen3},           {"qwen3_moe", Family::qwen3_moe},
    {"gemma2", Family::gemma2},     {"gemma3_text", Family::gemma3},    {"gemma3", Family::gemma3},
    {"deepseek_v2", Family::deepseek}, {"deepseek_v3", Family::deepseek}, {"gpt_oss", Family::gpt_oss},
    {"phi3", Family::phi3},
};

Family family_of(const Config& c, std::string& model_type) {
  model_type = c.text("model_type");
  for (const FamilyName& f : families) {
    if (f.model_type == model_type) return f.family;
  }
  std::string known;
  for (const FamilyName& f : families) known.append(known.empty() ? "" : ", ").append(f.model_type);
  throw Error(ErrorCode::unknown_architecture, c.path("model_type"),
              c.path("model_type") + " \"" + model_type.substr(0, 40) + "\" is not a family this calculator reads; it reads " +
                  known);
}

/// Per layer, from config.layer_types ("sliding_attention" / "full_attention"), where given.
bool read_layer_types(const Config& c, double layers, std::vector<bool>& sliding) {
  const Value* types = c.find("layer_types");
  if (!types) return false;
  const std::string field = c.path("layer_types");
  if (!types->is(Value::Kind::array) || static_cast<double>(types->items().size()) != layers) {
    throw Error(ErrorCode::out_of_range, field,
                field + " must list one type per layer (" + format_number(layers) + " of them)");
  }
  sliding.clear();
  for (const Value& t : types->items()) {
    if (!t.is(Value::Kind::string) || (t.string() != "sliding_attention" && t.string() != "full_attention")) {
      throw Error(ErrorCode::out_of_range, field, field + " may hold only \"sliding_attention\" and \"full_attention\"");
    }
    sliding.push_back(t.string() == "sliding_attention");
  }
  return true;
}

/// A SigLIP vision tower and Gemma 3's projector into the text model: resident, off a text token's path.
double gemma3_vision_params(const Config& v, double text_hidden) {
  const double h = v.count("hidden_size"), inter = v.count("intermediate_size"), layers = v.count("num_hidden_layers");
  const double patch = v.count("patch_size"), image = v.count("image_size"), channels = v.count_or("num_channels", 3);
  if (std::fmod(image, patch) != 0) {
    throw Error(ErrorCode::out_of_range, v.path("patch_size"), v.path("patch_size") + " must divide image_size");
  }
  const double per_layer = 4 * (h * h + h)        // q, k, v, o with biases
                           + 2 * 2 * h            // two layer norms, weight and bias
                           + h * inter + inter    // fc1
                           + inter * h + h;       // fc2
  const double patches = (image / patch) * (image / patch);
  const double embeddings = channels * patch * patch * h + h + patches * h;
  const double post_norm = 2 * h;
  const double projector = h + h * text_hidden;  // soft-embedding norm and the projection
  return layers * per_layer + embeddings + post_norm + projector;
}

Architecture read_text_config(const Config& c, Family fam, const std::string& model_type) {
  Architecture a;
  a.family = model_type;
  a.layers = c.count("num_hidden_layers");
  a.hidden = c.count("hidden_size");
  // Gemma 3's published configs leave out what Gemma3TextConfig defaults, the vocabulary among
  // them: the family's documented default, not a guess (transformers' Gemma3TextConfig)
  a.vocab = fam == Family::gemma3 ? c.count_or("vocab_size", 262208) : c.count("vocab_size");
  a.max_context = c.count_or("max_position_embeddings", 0);
  const bool gemma = fam == Family::gemma2 || fam == Family::gemma3;
  a.tied_embeddings = c.flag_or("tie_word_embeddings", gemma);  // the families' own defaults

  Attention& at = a.attention;
  at.heads = c.count("num_attention_heads");
  if (fam == Family::deepseek) {
    at.kind = Attention::Kind::mla;
    at.kv_heads = at.heads;
    at.q_lora_rank = c.count_or_zero("q_lora_rank");
    at.kv_lora_rank = c.count("kv_lora_rank");
    at.qk_nope_head_dim = c.count("qk_nope_head_dim");
    at.qk_rope_head_dim = c.count("qk_rope_head_dim");
    at.v_head_dim = c.count("v_head_dim");
    at.head_dim = at.qk_nope_head_dim + at.qk_rope_head_dim;
    at.qkv_bias = c.flag_or("attention_bias", false);
  } else {
    at.kv_heads = c.count("num_key_value_heads");
    if (std::fmod(at.heads, at.kv_heads) != 0) {
      throw Error(ErrorCode::out_of_range, c.path("num_key_value_heads"),
                  c.path("num_key_value_heads") + " must divide num_attention_heads (" + format_number(at.heads) + ")");
    }
    if (c.has("head_dim")) {
      at.head_dim = c.count("head_dim");
    } else {
      if (std::fmod(a.hidden, at.heads) != 0) {
        throw Error(ErrorCode::missing_field, c.path("head_dim"),
                    c.path("head_dim") + " is required: hidden_size is not a multiple of num_attention_heads");
      }
      at.head_dim = a.hidden / at.heads;
    }
    at.v_head_dim = at.head_dim;
    // attention_bias puts a bias on q, k, v and o; Qwen2's q, k and v always carry one
    const bool bias = c.flag_or("attention_bias", fam == Family::gpt_oss);
    at.qkv_bias = bias || fam == Family::qwen2;
    at.o_bias = bias && fam != Family::qwen2;
    at.sinks = fam == Family::gpt_oss;
  }
  at.qk_norm = fam == Family::qwen3 || fam == Family::qwen3_moe || fam == Family::gemma3;
  a.norms_per_layer = gemma ? 4 : 2;
  a.mlp_bias = c.flag_or("mlp_bias", false);

  // the dense MLP (absent in an all-MoE model whose config still names one: it then goes unused)
  if (fam != Family::mixtral && fam != Family::gpt_oss) a.intermediate = c.count("intermediate_size");

  // which layers slide
  a.sliding_layer.assign(static_cast<std::size_t>(a.layers), false);
  const double window = c.count_or_zero("sliding_window");
  if (window > 0) {
    std::vector<bool> sliding;
    if (read_layer_types(c, a.layers, sliding)) {
      a.sliding_layer = sliding;
    } else if (fam == Family::gemma2) {
      for (std::size_t i = 0; i < a.sliding_layer.size(); ++i) a.sliding_layer[i] = i % 2 == 0;
    } else if (fam == Family::gemma3) {
      const double pattern = c.count_or("sliding_window_pattern", 6);
      for (std::size_t i = 0; i < a.sliding_layer.size(); ++i) {
        a.sliding_layer[i] = std::fmod(static_cast<double>(i + 1), pattern) != 0;
      }
    } else if (fam == Family::qwen2 || fam == Family::qwen3 || fam == Family::qwen3_moe) {
      if (c.flag_or("use_sliding_window", false)) {
        const double from = c.count_or("max_window_layers", 0);
        for (std::size_t i = 0; i < a.sliding_layer.size(); ++i) a.sliding_layer[i] = static_cast<double>(i) >= from;
      }
    } else if (fam == Family::mistral || fam == Family::mixtral || fam == Family::phi3) {
      a.sliding_layer.assign(a.sliding_layer.size(), true);
    }
    if (std::find(a.sliding_layer.begin(), a.sliding_layer.end(), true) != a.sliding_layer.end()) {
      at.sliding_window = window;
    }
  }

  // mixture of experts
  a.moe_layer.assign(static_cast<std::size_t>(a.layers), false);
  if (fam == Family::mixtral || fam == Family::gpt_oss || fam == Family::qwen3_moe || fam == Family::deepseek) {
    MixtureOfExperts m;
    if (fam == Family::mixtral || fam == Family::gpt_oss) {
      m.experts = c.count("num_local_experts");
      m.experts_per_token = c.has("num_experts_per_tok") || fam == Family::mixtral ? c.count("num_experts_per_tok")
                                                                                   : c.count("experts_per_token");
      m.expert_intermediate = c.count("intermediate_size");
      m.router_bias = m.expert_bias = fam == Family::gpt_oss;
      a.moe_layer.assign(a.moe_layer.size(), true);
    } else if (fam == Family::qwen3_moe) {
      m.experts = c.count("num_experts");
      m.experts_per_token = c.count("num_experts_per_tok");
      m.expert_intermediate = c.count("moe_intermediate_size");
      const double step = c.count_or("decoder_sparse_step", 1);
      std::vector<double> dense_only;
      if (const Value* only = c.find("mlp_only_layers")) {
        if (!only->is(Value::Kind::array)) {
          throw Error(ErrorCode::out_of_range, c.path("mlp_only_layers"), c.path("mlp_only_layers") + " must be a list of layer indices");
        }
        for (const Value& i : only->items()) {
          if (!i.is(Value::Kind::number)) {
            throw Error(ErrorCode::out_of_range, c.path("mlp_only_layers"), c.path("mlp_only_layers") + " must be a list of layer indices");
          }
          dense_only.push_back(i.number());
        }
      }
      for (std::size_t i = 0; i < a.moe_layer.size(); ++i) {
        const bool listed = std::find(dense_only.begin(), dense_only.end(), static_cast<double>(i)) != dense_only.end();
        a.moe_layer[i] = !listed && std::fmod(static_cast<double>(i + 1), step) == 0;
      }
    } else {  // DeepSeek-V2/V3
      m.experts = c.count("n_routed_experts");
      m.experts_per_token = c.count("num_experts_per_tok");
      m.expert_intermediate = c.count("moe_intermediate_size");
      m.shared_experts = c.has("n_shared_experts") ? c.count_or_zero("n_shared_experts") : 0;
      m.shared_intermediate = m.expert_intermediate;
      const double first_dense = c.has("first_k_dense_replace") ? c.count_or_zero("first_k_dense_replace") : 0;
      const double freq = c.count_or("moe_layer_freq", 1);
      // DeepSeek-V3's router adds a bias per expert for its top-k choice (e_score_correction_bias)
      m.router_bias = c.has("topk_method") && c.text("topk_method") == "noaux_tc";
      for (std::size_t i = 0; i < a.moe_layer.size(); ++i) {
        a.moe_layer[i] = static_cast<double>(i) >= first_dense && std::fmod(static_cast<double>(i), freq) == 0;
      }
    }
    if (m.experts_per_token > m.experts) {
      throw Error(ErrorCode::out_of_range, c.path("num_experts_per_tok"),
                  c.path("num_experts_per_tok") + " must be at most the number of experts (" + format_number(m.experts) + ")");
    }
    a.moe = m;
  }
  return a;
}

double sum_if(const std::vector<bool>& flags, bool value) {
  return static_cast<double>(std::count(flags.begin(), flags.end(), value));
}

}  // namespace

Architecture architecture_from_config(const api::Value& config, const std::string& prefix) {
  Config top(config, prefix);
  std::string model_type;
  const Family fam = family_of(top, model_type);
  if (fam == Family::gemma3 && model_type == "gemma3") {
    // the multimodal config: the text model under text_config, the vision tower under vision_config
    Config text(top.raw("text_config"), top.path("text_config"));
    text.set_family("gemma3");
    Architecture a = read_text_config(text, Family::gemma3, "gemma3");
    if (top.has("tie_word_embeddings") && !text.has("tie_word_embeddings")) {
      a.tied_embeddings = top.flag_or("tie_word_embeddings", true);
    }
    if (top.has("vision_config")) {
      Config vision(top.raw("vision_config"), top.path("vision_config"));
      vision.set_family("gemma3's vision tower");
      a.vision_params = gemma3_vision_params(vision, a.hidden);
    }
    return a;
  }
  top.set_family(model_type);
  return read_text_config(top, fam, model_type);
}

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
    attn += at.q_lora_rank > 0 ? h * at.q_lora_rank + at.q_lora_rank + at.q_lora_rank * at.heads * qk : h * at.heads * qk;
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

Flops attention_flops_per_token(const Architecture& a, double context) {
  require_count_or_zero("context", context);
  const Attention& at = a.attention;
  const double per_token_attended = 2 * at.heads * (at.head_dim + at.v_head_dim);  // q·k and the weighted v
  const double sliding = sum_if(a.sliding_layer, true);
  const double attended = (a.layers - sliding) * context + sliding * std::min(context, at.sliding_window);
  return Flops{require_result("flops", per_token_attended * attended)};
}

Flops flops_per_token(const Architecture& a, double context) {
  return Flops{2 * param_counts(a).active} + attention_flops_per_token(a, context);
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

api::Value architecture_value(const Architecture& a) {
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
      throw Error(ErrorCode::out_of_range, path(key),
                  path(key) + " must be a whole number from " + (allow_zero ? "0" : "1") + " to 2^40, got " + format_number(x));
    }
    return x;
  }
  [[nodiscard]] bool flag(std::string_view key) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::boolean)) throw Error(ErrorCode::out_of_range, path(key), path(key) + " must be true or false");
    return f.boolean();
  }
  [[nodiscard]] const Value& value() const { return v_; }

 private:
  const Value& v_;
  std::string prefix_;
};

}  // namespace

Architecture architecture_from_value(const api::Value& value, const std::string& prefix) {
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
      throw Error(ErrorCode::out_of_range, m.path("expertsPerToken"), m.path("expertsPerToken") + " must be at most experts");
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
  return a;
}

}  // namespace roofline
