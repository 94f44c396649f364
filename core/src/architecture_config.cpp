// Reading a Hugging Face config.json into an Architecture: each family's field names and
// defaults, and an error naming the path of any field that is missing or wrong.
#include <algorithm>
#include <cmath>
#include <string>

#include "roofline/architecture.hpp"
#include "roofline/error.hpp"
#include "roofline/precision.hpp"
namespace roofline {

namespace {

using json::Value;

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
      throw Error(ErrorCode::not_a_number, path(key), path(key) + " must be a number, got " + json::describe(f));
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
  [[nodiscard]] double count_or(std::string_view key, double fallback) const {
    return has(key) ? count(key) : fallback;
  }
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
      throw Error(ErrorCode::out_of_range, path(key), path(key) + " must be true or false, got " + json::describe(f));
    }
    return f.boolean();
  }

  [[nodiscard]] std::string text(std::string_view key) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::string)) {
      throw Error(ErrorCode::out_of_range, path(key), path(key) + " must be a text, got " + json::describe(f));
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

enum class Family {
  llama,
  mistral,
  mixtral,
  qwen2,
  qwen2_moe,
  qwen3,
  qwen3_moe,
  gemma2,
  gemma3,
  deepseek,
  glm4_moe,
  gpt_oss,
  phi3
};

struct FamilyName {
  std::string_view model_type;
  Family family;
};
constexpr FamilyName families[] = {
    {"llama", Family::llama},         {"mistral", Family::mistral},      {"mixtral", Family::mixtral},
    {"qwen2", Family::qwen2},         {"qwen2_moe", Family::qwen2_moe},  {"qwen3", Family::qwen3},
    {"qwen3_moe", Family::qwen3_moe}, {"gemma2", Family::gemma2},        {"gemma3_text", Family::gemma3},
    {"gemma3", Family::gemma3},       {"deepseek_v2", Family::deepseek}, {"deepseek_v3", Family::deepseek},
    {"kimi_k2", Family::deepseek},  // Kimi-K2: DeepSeek-V3's architecture under its own model_type
    {"glm4_moe", Family::glm4_moe},   {"gpt_oss", Family::gpt_oss},      {"phi3", Family::phi3},
};

/// What a family's configuration class in transformers fills in where a published config.json
/// leaves a field out (0: nothing, the field is required). Gemma2Config and Gemma3TextConfig
/// default heads, KV heads, head_dim, the vocabulary and the sliding window; Gemma 3 4B's own
/// config leaves the first four out. head_dim, where a family has no default of its own, is
/// hidden_size ÷ num_attention_heads only where that is the class's rule (LlamaConfig,
/// MistralConfig, MixtralConfig, Qwen2Config, Qwen2MoeConfig, Phi3Config); other families must
/// give it.
struct FamilyDefaults {
  double vocab = 0, heads = 0, kv_heads = 0, head_dim = 0, sliding_window = 0;
  bool head_dim_from_hidden = false;
};

FamilyDefaults defaults_of(Family f) {
  switch (f) {
    case Family::gemma2: return {256000, 8, 4, 256, 4096, false};
    case Family::gemma3: return {262208, 8, 4, 256, 4096, false};
    case Family::llama:
    case Family::mistral:
    case Family::mixtral:
    case Family::qwen2:
    case Family::qwen2_moe:
    case Family::phi3: return {0, 0, 0, 0, 0, true};
    default: return {};
  }
}

Family family_of(const Config& c, std::string& model_type) {
  model_type = c.text("model_type");
  for (const FamilyName& f : families) {
    if (f.model_type == model_type) return f.family;
  }
  std::string known;
  for (const FamilyName& f : families) known.append(known.empty() ? "" : ", ").append(f.model_type);
  throw Error(ErrorCode::unknown_architecture, c.path("model_type"),
              c.path("model_type") + " \"" + model_type.substr(0, 40) +
                  "\" is not a family this calculator reads; it reads " + known);
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
      throw Error(ErrorCode::out_of_range, field,
                  field + " may hold only \"sliding_attention\" and \"full_attention\"");
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
  const double per_layer = 4 * (h * h + h)      // q, k, v, o with biases
                           + 2 * 2 * h          // two layer norms, weight and bias
                           + h * inter + inter  // fc1
                           + inter * h + h;     // fc2
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
  // what the family's configuration class defaults (Gemma 3's published configs leave some out)
  const FamilyDefaults d = defaults_of(fam);
  const auto count_or_default = [&](std::string_view key, double fallback) {
    return fallback > 0 ? c.count_or(key, fallback) : c.count(key);
  };
  a.vocab = count_or_default("vocab_size", d.vocab);
  a.max_context = c.count_or("max_position_embeddings", 0);
  a.mtp_layers = c.count_or("num_nextn_predict_layers", 0);
  const bool gemma = fam == Family::gemma2 || fam == Family::gemma3;
  a.tied_embeddings = c.flag_or("tie_word_embeddings", gemma);  // the families' own defaults

  Attention& at = a.attention;
  at.heads = count_or_default("num_attention_heads", d.heads);
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
    at.kv_heads = count_or_default("num_key_value_heads", d.kv_heads);
    if (std::fmod(at.heads, at.kv_heads) != 0) {
      throw Error(ErrorCode::out_of_range, c.path("num_key_value_heads"),
                  c.path("num_key_value_heads") + " must divide num_attention_heads (" + format_number(at.heads) + ")");
    }
    if (c.has("head_dim") || d.head_dim > 0) {
      at.head_dim = count_or_default("head_dim", d.head_dim);
    } else {
      if (!d.head_dim_from_hidden) {
        throw Error(ErrorCode::missing_field, c.path("head_dim"),
                    c.path("head_dim") + " is required: " + model_type +
                        " has no rule for it from hidden_size (its heads need not be hidden_size ÷ heads wide)");
      }
      if (std::fmod(a.hidden, at.heads) != 0) {
        throw Error(ErrorCode::missing_field, c.path("head_dim"),
                    c.path("head_dim") + " is required: hidden_size is not a multiple of num_attention_heads");
      }
      at.head_dim = a.hidden / at.heads;
    }
    at.v_head_dim = at.head_dim;
    // attention_bias puts a bias on q, k, v and o; Qwen2's q, k and v always carry one
    const bool bias = c.flag_or("attention_bias", fam == Family::gpt_oss);
    const bool qwen2 = fam == Family::qwen2 || fam == Family::qwen2_moe;
    at.qkv_bias = bias || qwen2;
    // GLM-4.5's attention_bias puts a bias on q, k and v, none on o (Glm4MoeAttention)
    at.o_bias = bias && !qwen2 && fam != Family::glm4_moe;
    at.sinks = fam == Family::gpt_oss;
  }
  at.qk_norm = fam == Family::qwen3 || fam == Family::qwen3_moe || fam == Family::gemma3 ||
               (fam == Family::glm4_moe && c.flag_or("use_qk_norm", false));
  a.norms_per_layer = gemma ? 4 : 2;
  a.mlp_bias = c.flag_or("mlp_bias", false);

  // the dense MLP (absent in an all-MoE model whose config still names one: it then goes unused)
  if (fam != Family::mixtral && fam != Family::gpt_oss) a.intermediate = c.count("intermediate_size");

  // which layers slide
  a.sliding_layer.assign(static_cast<std::size_t>(a.layers), false);
  const double window =
      d.sliding_window > 0 && !c.has("sliding_window") ? d.sliding_window : c.count_or_zero("sliding_window");
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
    } else if (fam == Family::qwen2 || fam == Family::qwen2_moe || fam == Family::qwen3 || fam == Family::qwen3_moe) {
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
  if (fam == Family::mixtral || fam == Family::gpt_oss || fam == Family::qwen2_moe || fam == Family::qwen3_moe ||
      fam == Family::deepseek || fam == Family::glm4_moe) {
    MixtureOfExperts m;
    if (fam == Family::mixtral || fam == Family::gpt_oss) {
      m.experts = c.count("num_local_experts");
      m.experts_per_token = c.has("num_experts_per_tok") || fam == Family::mixtral ? c.count("num_experts_per_tok")
                                                                                   : c.count("experts_per_token");
      m.expert_intermediate = c.count("intermediate_size");
      m.router_bias = m.expert_bias = fam == Family::gpt_oss;
      a.moe_layer.assign(a.moe_layer.size(), true);
    } else if (fam == Family::qwen2_moe || fam == Family::qwen3_moe) {
      m.experts = c.count("num_experts");
      m.experts_per_token = c.count("num_experts_per_tok");
      m.expert_intermediate = c.count("moe_intermediate_size");
      if (fam == Family::qwen2_moe) {
        // one shared expert every token goes through, of its own width (its 1-output gate, hidden
        // weights a layer, is left out: 0.0003 % of Qwen1.5-MoE-A2.7B)
        m.shared_experts = 1;
        m.shared_intermediate = c.count("shared_expert_intermediate_size");
      }
      const double step = c.count_or("decoder_sparse_step", 1);
      std::vector<double> dense_only;
      if (const Value* only = c.find("mlp_only_layers")) {
        if (!only->is(Value::Kind::array)) {
          throw Error(ErrorCode::out_of_range, c.path("mlp_only_layers"),
                      c.path("mlp_only_layers") + " must be a list of layer indices");
        }
        for (const Value& i : only->items()) {
          if (!i.is(Value::Kind::number)) {
            throw Error(ErrorCode::out_of_range, c.path("mlp_only_layers"),
                        c.path("mlp_only_layers") + " must be a list of layer indices");
          }
          dense_only.push_back(i.number());
        }
      }
      for (std::size_t i = 0; i < a.moe_layer.size(); ++i) {
        const bool listed = std::find(dense_only.begin(), dense_only.end(), static_cast<double>(i)) != dense_only.end();
        a.moe_layer[i] = !listed && std::fmod(static_cast<double>(i + 1), step) == 0;
      }
    } else {  // DeepSeek-V2/V3 (and Kimi-K2), GLM-4.5: routed and shared experts of one width
      m.experts = c.count("n_routed_experts");
      m.experts_per_token = c.count("num_experts_per_tok");
      m.expert_intermediate = c.count("moe_intermediate_size");
      m.shared_experts = c.has("n_shared_experts") ? c.count_or_zero("n_shared_experts") : 0;
      m.shared_intermediate = m.expert_intermediate;
      const double first_dense = c.has("first_k_dense_replace") ? c.count_or_zero("first_k_dense_replace") : 0;
      const double freq = c.count_or("moe_layer_freq", 1);
      // DeepSeek-V3's router adds a bias per expert for its top-k choice (e_score_correction_bias)
      m.router_bias = (c.has("topk_method") && c.text("topk_method") == "noaux_tc") || fam == Family::glm4_moe;
      for (std::size_t i = 0; i < a.moe_layer.size(); ++i) {
        a.moe_layer[i] = static_cast<double>(i) >= first_dense && std::fmod(static_cast<double>(i), freq) == 0;
      }
    }
    if (m.experts_per_token > m.experts) {
      throw Error(
          ErrorCode::out_of_range, c.path("num_experts_per_tok"),
          c.path("num_experts_per_tok") + " must be at most the number of experts (" + format_number(m.experts) + ")");
    }
    a.moe = m;
  }
  return a;
}

}  // namespace

Architecture architecture_from_config(const json::Value& config, const std::string& prefix) {
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

}  // namespace roofline
