#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "roofline/api.hpp"
#include "roofline/architecture.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/json.hpp"

using namespace roofline;
using api::Value;

namespace {

Value fixture(const std::string& name) {
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/tests/core/configs/" + name);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return json::parse_json(text.str());
}

const Architecture& arch(std::string_view id) {
  const Model& m = find_model(id);
  REQUIRE(m.architecture);
  return *m.architecture;
}

/// Whether a count matches a publisher's figure: within 0.5 %, or equal to it once rounded or
/// truncated at the figure's last significant digit (Qwen writes 3.35 B as "3.3B", OpenAI 5.13 B
/// as "5.1B").
bool matches_published(double counted, double published) {
  if (std::abs(counted / published - 1) <= 0.005) return true;
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", published);
  int digits = 0;
  for (const char* c = text; *c && *c != 'e'; ++c) digits += (*c >= '0' && *c <= '9') && !(digits == 0 && *c == '0');
  const double unit = std::pow(10.0, std::floor(std::log10(published)) - (digits - 1));
  const double want = std::round(published / unit);
  return std::round(counted / unit) == want || std::floor(counted / unit) == want;
}

/// The code and field of the error reading `config` throws.
std::pair<ErrorCode, std::string> config_error(const Value& config) {
  try {
    architecture_from_config(config);
  } catch (const Error& e) {
    return {e.code(), e.field()};
  }
  FAIL("no error");
  return {};
}

Value with(Value v, const std::string& key, Value x) {
  v.set(key, std::move(x));
  return v;
}

Value without(const Value& v, const std::string& key) {
  Value out = Value::object();
  for (std::size_t i = 0; i < v.keys().size(); ++i) {
    if (v.keys()[i] != key) out.set(v.keys()[i], v.items()[i]);
  }
  return out;
}

}  // namespace

TEST_CASE("every catalog model reproduces its publisher's total parameter count within 0.5 %") {
  int counted = 0;
  for (const Model& m : models()) {
    if (!m.architecture) continue;
    INFO(m.id);
    REQUIRE(m.published_params);
    const ParamCounts p = param_counts(*m.architecture);
    CHECK(std::abs(p.params / *m.published_params - 1) <= 0.005);  // totals: within 0.5 %
    if (m.architecture->moe) {
      // under the convention the model's file states
      REQUIRE(m.published_active_params);
      const double active =
          p.active + (m.published_active_counts_embedding && !m.architecture->tied_embeddings ? p.embedding : 0);
      CHECK(matches_published(active, *m.published_active_params));
    }
    ++counted;
  }
  CHECK(counted >= 17);
}

TEST_CASE("a published figure is matched within 0.5 % or at its own last digit") {
  CHECK(matches_published(3.353e9, 3.3e9));  // truncated
  CHECK(matches_published(5.133e9, 5.1e9));  // rounded
  CHECK_FALSE(matches_published(3.04e9, 3.3e9));
  CHECK_FALSE(matches_published(5.71e9, 5.1e9));
  CHECK(matches_published(46.70e9, 46.7e9));
  CHECK_FALSE(matches_published(7.24e9, 7.3e9));
}

TEST_CASE("Llama 3 8B from its config: 8.03 B parameters, 131,072 B of BF16 KV per token, 1.07 GB at 8,192 tokens") {
  const Architecture& a = arch("llama3-8b");
  const ParamCounts p = param_counts(a);
  CHECK(p.params == 8030261248);
  CHECK(p.embedding == 128256.0 * 4096);
  CHECK(p.output == p.embedding);
  // a token multiplies everything but its row lookup: 8.03 B − 0.525 B
  CHECK(p.active == p.params - p.embedding);
  CHECK(kv_bytes_per_token(a, Dtype::bf16).value() == 131072);
  CHECK(kv_bytes_per_sequence(a, 8192, Dtype::bf16).value() == 1073741824);
  CHECK(kv_bytes_per_sequence(a, 8192, Dtype::fp8).value() == 536870912);
  // ≈ 16 GFLOPs per token, "2 per parameter", before attention over the context
  CHECK(flops_per_token(a, 0).value() == Approx(15.0e9).epsilon(0.01));
  CHECK(flops_per_token(a, 8192).value() > flops_per_token(a, 0).value());
  // the lesson's own figures are kept: 8.03 B, 16.06 GB
  CHECK(find_model("llama3-8b").params == 8.03e9);
  CHECK(model_weights(find_model("llama3-8b")).bytes.value() == Approx(16.06e9));
  CHECK(resident_bytes(a, find_format("bf16")).value() == 2.0 * 8030261248);
  // a step reads all but the 128,255 rows of the table it does not look up
  CHECK(weights_read_per_step(a, find_format("bf16"), 1).value() == 2.0 * (8030261248 - 128255.0 * 4096));
}

TEST_CASE("KV per token in BF16: Llama 3.1 70B 327,680 B; DeepSeek-V3 (MLA) 70,272 B") {
  CHECK(kv_bytes_per_token(arch("llama3.1-70b"), Dtype::bf16).value() == 327680);
  CHECK(kv_bytes_per_token(arch("deepseek-v3"), Dtype::bf16).value() == 70272);  // 61 · (512 + 64) · 2
  CHECK(kv_bytes_per_token(arch("deepseek-v3"), Dtype::int8).value() == 35136);
}

TEST_CASE("Gemma 2 9B holds half its layers at its 4,096-token window") {
  const Architecture& a = arch("gemma2-9b");
  CHECK(a.attention.sliding_window == 4096);
  CHECK(std::count(a.sliding_layer.begin(), a.sliding_layer.end(), true) == 21);
  const double per_layer_token = kv_bytes_per_token(a, Dtype::bf16).value() / a.layers;
  CHECK(kv_bytes_per_sequence(a, 4096, Dtype::bf16).value() == 42 * 4096 * per_layer_token);
  CHECK(kv_bytes_per_sequence(a, 8192, Dtype::bf16).value() == (21 * 8192 + 21 * 4096) * per_layer_token);
}

TEST_CASE("Mixtral 8x7B: 46.7 B held, 12.9 B active; a step at batch 1 reads 2 experts of 8, at 64 nearly all") {
  const Architecture& a = arch("mixtral-8x7b");
  const ParamCounts p = param_counts(a);
  CHECK(p.params == Approx(46.7e9).epsilon(0.005));
  CHECK(p.active + p.embedding == Approx(12.9e9).epsilon(0.005));
  REQUIRE(a.moe);
  CHECK(experts_touched(*a.moe, 1) == Approx(2));
  CHECK(experts_touched(*a.moe, 64) == Approx(8 * (1 - std::pow(0.75, 64))));
  const WeightFormat& bf16 = find_format("bf16");
  const double one = weights_read_per_step(a, bf16, 1).value();
  const double many = weights_read_per_step(a, bf16, 64).value();
  // batch 1: every weight a token multiplies, plus its one row of the table
  CHECK(one == Approx(2 * (p.active + a.hidden)));
  CHECK(one < 0.3 * resident_bytes(a, bf16).value());
  // batch 64: (1 − 0.75^64) of the experts, ≈ all of them
  CHECK(many == Approx(2 * (p.params - p.routed_experts * std::pow(0.75, 64) - p.embedding + 64 * a.hidden)));
  CHECK(many > 0.99 * resident_bytes(a, bf16).value());
  CHECK(many <= resident_bytes(a, bf16).value());
}

TEST_CASE("Qwen3-30B-A3B and DeepSeek-V3: totals and active counts as published") {
  CHECK(param_counts(arch("qwen3-30b-a3b")).params == Approx(30.5e9).epsilon(0.005));
  const ParamCounts ds = param_counts(arch("deepseek-v3"));
  CHECK(ds.params == Approx(671e9).epsilon(0.005));
  CHECK(arch("deepseek-v3").moe->shared_experts == 1);
  CHECK(arch("deepseek-v3").moe_layer[2] == false);  // the first three layers stay dense
  CHECK(arch("deepseek-v3").moe_layer[3] == true);
}

TEST_CASE("a config of every family is read") {
  for (const char* name : {"llama2-7b.json", "qwen2-7b.json", "phi3-mini.json", "deepseek-v2-lite.json",
                           "gemma3-text-1b.json", "gemma3-4b.json"}) {
    INFO(name);
    const Architecture a = architecture_from_config(fixture(name));
    const ParamCounts p = param_counts(a);
    CHECK(p.params > 0.9e9);
    CHECK(p.active <= p.params);
    CHECK(kv_bytes_per_token(a, Dtype::bf16).value() > 0);
  }
  // Llama 2 7B is plain multi-head attention: 32 KV heads of 128, 6.74 B parameters
  const Architecture llama2 = architecture_from_config(fixture("llama2-7b.json"));
  CHECK(llama2.attention.kv_heads == 32);
  CHECK(param_counts(llama2).params == Approx(6.74e9).epsilon(0.005));
  // Qwen2's q, k and v carry biases without a config field saying so
  CHECK(architecture_from_config(fixture("qwen2-7b.json")).attention.qkv_bias);
  // DeepSeek-V2-Lite projects queries directly (no q LoRA rank)
  const Architecture lite = architecture_from_config(fixture("deepseek-v2-lite.json"));
  CHECK(lite.attention.kind == Attention::Kind::mla);
  CHECK(lite.attention.q_lora_rank == 0);
  for (const Model& m : models()) {
    if (!m.architecture) continue;
    INFO(m.id);
    // what modelFromConfig returns reads back to the same figures
    const Architecture back = architecture_from_value(architecture_value(*m.architecture), "model.architecture");
    CHECK(param_counts(back).params == param_counts(*m.architecture).params);
    CHECK(param_counts(back).active == param_counts(*m.architecture).active);
    CHECK(kv_bytes_per_sequence(back, 10000, Dtype::bf16).value() ==
          kv_bytes_per_sequence(*m.architecture, 10000, Dtype::bf16).value());
    CHECK(weights_read_per_step(back, find_format("int4"), 7).value() ==
          weights_read_per_step(*m.architecture, find_format("int4"), 7).value());
  }
}

TEST_CASE("a broken config names its field") {
  const Value good = fixture("llama2-7b.json");
  CHECK(config_error(without(good, "num_key_value_heads")) ==
        std::pair{ErrorCode::missing_field, std::string("config.num_key_value_heads")});
  CHECK(config_error(with(good, "num_key_value_heads", Value(3))) ==
        std::pair{ErrorCode::out_of_range, std::string("config.num_key_value_heads")});
  CHECK(config_error(with(good, "hidden_size", Value("4096"))) ==
        std::pair{ErrorCode::not_a_number, std::string("config.hidden_size")});
  CHECK(config_error(with(good, "num_hidden_layers", Value(-2))) ==
        std::pair{ErrorCode::out_of_range, std::string("config.num_hidden_layers")});
  CHECK(config_error(with(good, "num_hidden_layers", Value(2.5))) ==
        std::pair{ErrorCode::not_integer, std::string("config.num_hidden_layers")});
  CHECK(config_error(with(good, "model_type", Value("bert"))) ==
        std::pair{ErrorCode::unknown_architecture, std::string("config.model_type")});
  CHECK(config_error(without(good, "model_type")) ==
        std::pair{ErrorCode::missing_field, std::string("config.model_type")});
  CHECK(config_error(Value("text")) == std::pair{ErrorCode::invalid_config, std::string("config")});
  // Gemma 3's multimodal config nests the text model: the path says so
  const Value gemma = json::parse_json(R"({"model_type": "gemma3", "text_config": {"hidden_size": 5376}})");
  CHECK(config_error(gemma).second.rfind("config.text_config.", 0) == 0);
}

TEST_CASE("modelFromConfig takes the text of a config.json and returns every figure") {
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/tests/core/configs/llama2-7b.json");
  std::stringstream text;
  text << in.rdbuf();
  const Value r = api::call("modelFromConfig", Value::object().set("config", text.str()).set("tokens", 4096.0));
  CHECK(r.get("params").number() == Approx(6.74e9).epsilon(0.005));
  CHECK(r.get("kvBytesPerToken").number() == 2.0 * 32 * 32 * 128 * 2);
  CHECK(r.get("kvBytesPerSequence").number() == 4096 * r.get("kvBytesPerToken").number());
  CHECK(r.get("expertsTouched").is(Value::Kind::null));
  // the decode of the returned model is the decode of its numbers
  const Value d = api::call(
      "decode", Value::object().set("model", r).set("batch", 1.0).set("bytesPerSecond", 300e9).set("tokens", 4096.0));
  CHECK(d.get("bytesPerStep").number() ==
        Approx(r.get("bytesReadPerStep").number() + r.get("kvBytesPerSequence").number()));
  CHECK(d.get("residentBytesPerGpu").number() ==
        Approx(r.get("residentBytes").number() + r.get("kvBytesPerSequence").number()));
  try {
    api::call("modelFromConfig", Value::object().set("config", "{\"model_type\": \"llama\""));
    FAIL("accepted broken JSON");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::invalid_config);
    CHECK(e.field() == "config");
  }
  // NaN and Infinity are no JSON: the text with one in place of a number is refused as a config,
  // where it used to be read as a number and fail later, or not at all
  for (const std::string bad : {"NaN", "Infinity", "-Infinity"}) {
    std::string t = text.str();
    const std::size_t at = t.find("\"rms_norm_eps\":");
    REQUIRE(at != std::string::npos);
    const std::size_t from = t.find(':', at) + 1;
    const std::size_t to = t.find_first_of(",}", from);
    t.replace(from, to - from, " " + bad);
    CHECK_NOTHROW(json::parse_json(t));  // (the core's own reader of arguments still takes them)
    try {
      api::call("modelFromConfig", Value::object().set("config", t));
      FAIL("accepted " << bad);
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::invalid_config);
      CHECK(e.field() == "config");
      CHECK(std::string(e.what()).find("not valid JSON") != std::string::npos);
    }
  }
}

TEST_CASE("cost per million tokens: price ÷ (tokens/s × 3,600) × 10⁶, per GPU count") {
  const Value c =
      api::call("costPerMillionTokens",
                Value::object().set("pricePerHourUsd", 6.88).set("tokensPerSecond", 1000.0).set("gpus", 2.0));
  CHECK(c.get("usdPerMillionTokens").number() == Approx(2 * 6.88 / 3.6));
  CHECK(c.get("usdPerHour").number() == Approx(13.76));
}

TEST_CASE("Gemma 3 4B's published config leaves heads, KV heads, head_dim and vocabulary to Gemma3TextConfig") {
  // google/gemma-3-4b-it names hidden, MLP, layers and window; transformers fills in 8 heads, 4 KV
  // heads of 256, and 262,208 tokens. The Gemma 3 report's table: 675M embedding (with the
  // projector), 3,209M non-embedding, 417M vision encoder.
  const Value r =
      api::call("modelFromConfig", Value::object().set("config", fixture("gemma3-4b.json")).set("tokens", 1024.0));
  const Value& at = r.get("architecture").get("attention");
  CHECK(at.get("heads").number() == 8);
  CHECK(at.get("kvHeads").number() == 4);
  CHECK(at.get("headDim").number() == 256);
  CHECK(r.get("architecture").get("vocabSize").number() == 262208);
  CHECK(r.get("embeddingParams").number() == 262208.0 * 2560);
  const double text_non_embedding =
      r.get("params").number() - r.get("embeddingParams").number() - r.get("visionParams").number();
  CHECK(text_non_embedding == Approx(3209e6).epsilon(0.005));
  CHECK(r.get("visionParams").number() == Approx(417e6).epsilon(0.01));
  // every layer's K and V: 4 heads × 256 × 2 × 2 bytes in BF16, each of the 34 layers holding up to
  // 1,024 tokens (its window is 1,024 for the sliding ones)
  CHECK(r.get("kvBytesPerSequence").number() == 34.0 * 1024 * 4 * 256 * 2 * 2);
}

TEST_CASE("a Gemma config without head_dim takes the family's 256, not hidden ÷ heads") {
  // Gemma 3 12B's shape with head_dim left out: hidden ÷ heads would be 3,840 ÷ 16 = 240
  const Value gemma12 =
      json::parse_json(R"({"model_type": "gemma3_text", "hidden_size": 3840, "intermediate_size": 15360,
    "num_hidden_layers": 48, "num_attention_heads": 16, "num_key_value_heads": 8, "vocab_size": 262208, "sliding_window": 1024})");
  CHECK(architecture_from_config(gemma12).attention.head_dim == 256);
  // Gemma 2's window defaults to 4,096: half its layers slide
  const Value gemma2 = json::parse_json(R"({"model_type": "gemma2", "hidden_size": 2304, "intermediate_size": 9216,
    "num_hidden_layers": 26})");
  const Architecture g2 = architecture_from_config(gemma2);
  CHECK(g2.attention.heads == 8);
  CHECK(g2.attention.kv_heads == 4);
  CHECK(g2.attention.head_dim == 256);
  CHECK(g2.vocab == 256000);
  CHECK(g2.attention.sliding_window == 4096);
  CHECK(std::count(g2.sliding_layer.begin(), g2.sliding_layer.end(), true) == 13);
  // a family whose heads need not be hidden ÷ heads wide, without head_dim: refused, naming it
  const Value qwen3 = json::parse_json(R"({"model_type": "qwen3", "hidden_size": 5120, "intermediate_size": 25600,
    "num_hidden_layers": 64, "num_attention_heads": 64, "num_key_value_heads": 8, "vocab_size": 151936})");
  CHECK(config_error(qwen3) == std::pair{ErrorCode::missing_field, std::string("config.head_dim")});
  // Llama's rule is hidden ÷ heads (LlamaConfig's own): 4,096 ÷ 32 = 128
  const Value llama = json::parse_json(R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
    "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256})");
  CHECK(architecture_from_config(llama).attention.head_dim == 128);
}

TEST_CASE("Kimi-K2 is DeepSeek-V3's architecture under model_type kimi_k2: 1T parameters, 32B active") {
  // moonshotai/Kimi-K2-Instruct's config: DeepSeek-V3's fields with 384 routed experts, 64 heads,
  // one dense layer first and a 163,840-token vocabulary (its model card: 1T total, 32B activated)
  const Value kimi = json::parse_json(R"({"model_type": "kimi_k2", "architectures": ["DeepseekV3ForCausalLM"],
    "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048, "num_hidden_layers": 61,
    "num_attention_heads": 64, "num_key_value_heads": 64, "n_routed_experts": 384, "n_shared_experts": 1,
    "num_experts_per_tok": 8, "first_k_dense_replace": 1, "moe_layer_freq": 1, "q_lora_rank": 1536,
    "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
    "vocab_size": 163840, "tie_word_embeddings": false, "max_position_embeddings": 131072})");
  const Architecture a = architecture_from_config(kimi);
  CHECK(a.attention.kind == Attention::Kind::mla);
  const ParamCounts p = param_counts(a);
  CHECK(matches_published(p.params, 1e12));
  CHECK(p.params == Approx(1.03e12).epsilon(0.01));
  CHECK(matches_published(p.active, 32e9));
}

TEST_CASE("Qwen2-MoE (Qwen1.5-MoE-A2.7B): 60 experts, 4 a token and one shared expert: 14.3B, 2.7B active") {
  // Qwen/Qwen1.5-MoE-A2.7B's config (its card: 14.3B parameters in total, 2.7B activated)
  const Value qwen = json::parse_json(R"({"architectures": ["Qwen2MoeForCausalLM"], "model_type": "qwen2_moe",
    "decoder_sparse_step": 1, "hidden_size": 2048, "intermediate_size": 5632, "max_position_embeddings": 8192,
    "max_window_layers": 21, "moe_intermediate_size": 1408, "num_attention_heads": 16, "num_experts": 60,
    "num_experts_per_tok": 4, "num_hidden_layers": 24, "num_key_value_heads": 16,
    "shared_expert_intermediate_size": 5632, "sliding_window": 32768, "tie_word_embeddings": false,
    "use_sliding_window": false, "vocab_size": 151936})");
  const Architecture a = architecture_from_config(qwen);
  CHECK(a.attention.head_dim == 128);  // hidden ÷ heads, Qwen2MoeConfig's own rule
  CHECK(a.attention.qkv_bias);         // as Qwen2's
  REQUIRE(a.moe);
  CHECK(a.moe->shared_experts == 1);
  CHECK(a.moe->shared_intermediate == 5632);
  const ParamCounts p = param_counts(a);
  CHECK(matches_published(p.params, 14.3e9));
  // Qwen's 2.7B counts the input table too (the with-input-embedding convention of the catalog's
  // activeConvention): 2.38B on a token's path plus the 0.31B table
  CHECK(matches_published(p.active + p.embedding, 2.7e9));
  CHECK(p.active == Approx(2.378e9).epsilon(0.001));
}

TEST_CASE("GLM-4.5-Air (glm4_moe): grouped-query attention and DeepSeek-style experts: 106B, 12B active") {
  // zai-org/GLM-4.5-Air's config (its card: 106 billion total parameters, 12 billion active)
  const Value glm = json::parse_json(R"({"architectures": ["Glm4MoeForCausalLM"], "model_type": "glm4_moe",
    "attention_bias": true, "first_k_dense_replace": 1, "head_dim": 128, "hidden_size": 4096,
    "intermediate_size": 10944, "max_position_embeddings": 131072, "moe_intermediate_size": 1408, "n_group": 1,
    "n_routed_experts": 128, "n_shared_experts": 1, "norm_topk_prob": true, "num_attention_heads": 96,
    "num_experts_per_tok": 8, "num_hidden_layers": 46, "num_key_value_heads": 8, "num_nextn_predict_layers": 1,
    "partial_rotary_factor": 0.5, "tie_word_embeddings": false, "topk_group": 1, "use_qk_norm": false,
    "vocab_size": 151552})");
  const Architecture a = architecture_from_config(glm);
  CHECK(a.attention.kind == Attention::Kind::gqa);
  CHECK(a.attention.head_dim == 128);  // given: 96 heads of 128 are wider than hidden ÷ heads
  CHECK(a.attention.qkv_bias);
  CHECK_FALSE(a.attention.o_bias);
  REQUIRE(a.moe);
  CHECK(a.moe->shared_experts == 1);
  CHECK_FALSE(a.moe_layer[0]);  // the first layer is dense
  const ParamCounts p = param_counts(a);
  // 106.9B and 12.8B: as published, read at their last digit (the multi-token-prediction layer,
  // num_nextn_predict_layers, is not counted, as DeepSeek-V3's 671B leaves its own out)
  CHECK(matches_published(p.params, 106e9));
  CHECK(matches_published(p.active, 12e9));
}
