#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

#include "roofline/api.hpp"
#include "roofline/architecture.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/json.hpp"
#include "roofline/step.hpp"

using namespace roofline;
using api::Value;

namespace {

Architecture llama2() {
  std::ifstream in(std::string(ROOFLINE_SOURCE_DIR) + "/tests/core/configs/llama2-7b.json");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return architecture_from_config(json::parse_json(text.str()));
}

const StepOperator& op(const Step& s, std::string_view id) {
  for (const StepOperator& o : s.operators) {
    if (o.id == id) return o;
  }
  FAIL("no operator " << id);
  return s.operators.front();
}

Step run(const Architecture& a, Phase phase, double batch, double context, const char* format = "fp16",
         bool flash = true) {
  const WeightFormat& f = find_format(format);
  return step({a, f, Dtype::bf16, device_for(find_gpu("a100-80gb"), f.compute_dtype), phase, batch, context, flash});
}

}  // namespace

TEST_CASE(
    "step: Llama 2 7B, decode, batch 1, context 1,024, FP16: the per-layer operators of GenZ's and LLM-Viewer's "
    "tables") {
  const Architecture a = llama2();
  const Step s = run(a, Phase::decode, 1, 1024);
  for (const char* id : {"q_proj", "k_proj", "v_proj", "o_proj"}) {
    INFO(id);
    CHECK(op(s, id).count == 32);
    CHECK(op(s, id).flops / 32 == 33554432);  // 2 · 4,096 · 4,096
  }
  for (const char* id : {"gate_proj", "up_proj", "down_proj"}) {
    INFO(id);
    CHECK(op(s, id).flops / 32 == 90177536);  // 2 · 4,096 · 11,008
  }
  CHECK(op(s, "attn_scores").flops / 32 == 8388608);  // 2 · 32 heads · 128 · 1,024
  CHECK(op(s, "attn_values").flops / 32 == 8388608);
  // KV read per layer: 1,024 tokens · 2 · 32 · 128 · 2 bytes, keys by the scores and values by the values
  CHECK((op(s, "attn_scores").kv_read_bytes + op(s, "attn_values").kv_read_bytes) / 32 == 16777216);
  // the new token's keys and values are written
  CHECK((op(s, "k_proj").kv_write_bytes + op(s, "v_proj").kv_write_bytes) / 32 == 2 * 32 * 128 * 2);
  // weight bytes are what a step reads; the summed floors are at least the whole step's
  CHECK(s.weight_bytes == Approx(weights_read_per_step(a, find_format("fp16"), 1).value()).epsilon(1e-12));
  CHECK(s.seconds >= s.roofline_seconds);
  double shares = 0;
  for (const StepOperatorTime& t : s.times) shares += t.share;
  CHECK(shares == Approx(1));
}

TEST_CASE("step: at batch 1 and context 0, a decode's FLOPs are 2 × active parameters (plus norms and biases)") {
  for (const Model& m : models()) {
    if (!m.architecture) continue;
    INFO(m.id);
    const Step s = run(*m.architecture, Phase::decode, 1, 0, "bf16");
    CHECK(s.flops == Approx(2 * param_counts(*m.architecture).active).epsilon(0.002));
    CHECK(s.weight_bytes ==
          Approx(weights_read_per_step(*m.architecture, find_format("bf16"), 1).value()).epsilon(1e-9));
    CHECK(s.kv_read_bytes == 0);
  }
}

TEST_CASE("step: a decode's KV reads are kvBytesPerSequence per sequence; attention's share grows with the context") {
  const Architecture& a = *find_model("llama3.1-8b").architecture;  // 128k tokens of context
  const Step s = run(a, Phase::decode, 4, 8192, "bf16");
  CHECK(s.kv_read_bytes == 4 * kv_bytes_per_sequence(a, 8192, Dtype::bf16).value());
  double last = 0;
  for (double c : {1024.0, 8192.0, 65536.0, 131072.0}) {
    const double share = run(a, Phase::decode, 1, c, "bf16").attention_share;
    CHECK(share > last);
    last = share;
  }
  CHECK(last > 0.5);  // at 128k tokens attention overtakes the weights
  // beyond the model's context, an error naming it
  CHECK_THROWS_AS(run(*find_model("llama3-8b").architecture, Phase::decode, 1, 8193, "bf16"), Error);
}

TEST_CASE("step: a prefill of L tokens is causal, L(L+1)/2 pairs per head; FlashAttention keeps the scores on chip") {
  const Architecture a = llama2();
  const Step s = run(a, Phase::prefill, 1, 1024);
  CHECK(op(s, "q_proj").flops / 32 == 1024.0 * 33554432);
  CHECK(op(s, "attn_scores").flops / 32 == 2.0 * 32 * 128 * (1024.0 * 1025 / 2));
  CHECK(op(s, "lm_head").flops == 2.0 * 4096 * 32000);  // the last token's logits
  const Step plain = run(a, Phase::prefill, 1, 1024, "fp16", false);
  CHECK(plain.activation_bytes > s.activation_bytes);
  CHECK(op(plain, "attn_softmax").activation_bytes == 32 * 2 * 32 * (1024.0 * 1025 / 2) * 2);
  CHECK(op(s, "attn_softmax").activation_bytes == 0);
  CHECK(plain.flops == s.flops);
}

TEST_CASE("step: Mixtral reads 2 of 8 experts per layer at batch 1, the expected count at batch 64") {
  const Architecture& a = *find_model("mixtral-8x7b").architecture;
  const ParamCounts p = param_counts(a);
  const double one = op(run(a, Phase::decode, 1, 0, "bf16"), "experts").weight_bytes;
  const double many = op(run(a, Phase::decode, 64, 0, "bf16"), "experts").weight_bytes;
  CHECK(one == Approx(32 * 2 * 2 * p.per_expert));
  CHECK(many == Approx(32 * 2 * experts_touched(*a.moe, 64) * p.per_expert));
  CHECK(op(run(a, Phase::decode, 1, 0, "bf16"), "router").count == 32);
}

TEST_CASE("step: DeepSeek-V3's MLA projections, its three dense layers and its shared expert") {
  const Architecture& a = *find_model("deepseek-v3").architecture;
  const Step s = run(a, Phase::decode, 1, 4096, "bf16");
  CHECK(op(s, "q_a_proj").count == 61);
  CHECK(op(s, "kv_a_proj").kv_write_bytes / 61 == (512 + 64) * 2);
  CHECK(op(s, "gate_proj").count == 3);
  CHECK(op(s, "experts").count == 58);
  CHECK(op(s, "shared_experts").count == 58);
  CHECK(s.kv_read_bytes == kv_bytes_per_sequence(a, 4096, Dtype::bf16).value());
}

TEST_CASE("rl.step: bad arguments named, a model without an architecture refused") {
  auto code = [](Value args) {
    try {
      api::call("step", args);
    } catch (const Error& e) {
      return std::pair{e.code(), e.field()};
    }
    return std::pair{ErrorCode::internal_error, std::string("none")};
  };
  const Value good = Value::object()
                         .set("model", "llama3-8b")
                         .set("gpu", "h100-sxm")
                         .set("phase", "decode")
                         .set("batch", 1.0)
                         .set("context", 1024.0);
  CHECK(api::call("step", good).get("operators").items().size() > 10);
  Value bad = good;
  bad.set("phase", "train");
  CHECK(code(bad) == std::pair{ErrorCode::out_of_range, std::string("phase")});
  bad = good;
  bad.set("context", 1e7);
  CHECK(code(bad) == std::pair{ErrorCode::out_of_range, std::string("context")});
  bad = good;
  bad.set("model", "c10-70b");
  CHECK(code(bad) == std::pair{ErrorCode::out_of_range, std::string("model")});
  bad = good;
  bad.set("flashAttention", "yes");
  CHECK(code(bad) == std::pair{ErrorCode::out_of_range, std::string("flashAttention")});
}
