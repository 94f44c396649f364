// Speculative decoding (issue "The third remedy and the serving levers"): the expected tokens of a
// verification with the bonus token, and its cost on the same roofline as decode.
#include <catch2/catch.hpp>

#include "roofline/api.hpp"
#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/speculative.hpp"

using namespace roofline;
using api::Value;

namespace {

// A target and a draft of a tenth of its bytes and FLOPs on one GPU, γ and α as given.
Value run(double acceptance, double gamma, double batch = 1, double peak = 1e18) {
  return api::call("speculative", Value::object()
                                      .set("weightBytes", 16e9)
                                      .set("flopsPerToken", 16e9)
                                      .set("draftWeightBytes", 1.6e9)
                                      .set("draftFlopsPerToken", 1.6e9)
                                      .set("gamma", gamma)
                                      .set("acceptance", acceptance)
                                      .set("bytesPerSecond", 1e12)
                                      .set("peakFlopsPerSecond", peak)
                                      .set("batch", batch));
}

}  // namespace

TEST_CASE("speculative: a verification yields (1 − α^(γ+1)) ÷ (1 − α) tokens, the bonus token included") {
  // α = 0.8, γ = 2: 1 + 0.8 + 0.64 = 2.44 (a sum capped at γ would say 2.00)
  CHECK(expected_tokens(0.8, 2) == Approx(2.44));
  CHECK(expected_tokens(1, 4) == 5);  // every draft token accepted, and the target's own
  CHECK(expected_tokens(0, 4) == 1);  // none: the target's token alone
  CHECK(expected_tokens(0.5, 1) == Approx(1.5));
  CHECK(expected_tokens(0.9, 4) == Approx(4.0951));  // the 4.10
}

TEST_CASE("speculative: memory-bound, the speedup is E ÷ (γ × draft cost + 1)") {
  // bandwidth alone sets both steps: a draft step costs 0.1 of a target step, the verification one
  const Value r = run(0.8, 2);
  CHECK(r.get("expectedTokens").number() == Approx(2.44));
  CHECK(r.get("verifyBound").string() == "memory");
  CHECK(r.get("plainStepSeconds").number() == Approx(16e-3));
  CHECK(r.get("cycleSeconds").number() == Approx(2 * 1.6e-3 + 16e-3));
  CHECK(r.get("speedup").number() == Approx(2.44 / 1.2));
  CHECK(r.get("tokensPerSecondPerSequence").number() ==
        Approx(r.get("speedup").number() * r.get("plainTokensPerSecondPerSequence").number()));
  // it breaks even where E(α) = 1.2: 1 + α + α² = 1.2 at α ≈ 0.1708
  CHECK(r.get("breakEvenAcceptance").number() == Approx((-1 + std::sqrt(1 + 4 * 0.2)) / 2).epsilon(1e-9));
  CHECK(run(r.get("breakEvenAcceptance").number(), 2).get("speedup").number() == Approx(1));
}

TEST_CASE("speculative: a large batch turns the verification compute-bound, and the gain shrinks") {
  // peak 100 TFLOPS, 1 TB/s: ridge 100 FLOPs/byte; 16 GB of weights at 1 FLOP/byte per token
  const double peak = 100e12;
  const Value small = run(0.8, 4, 8, peak);
  const Value large = run(0.8, 4, 64, peak);
  CHECK(small.get("verifyBound").string() == "memory");
  CHECK(large.get("verifyBound").string() == "compute");  // 64 × 5 positions: 320 FLOPs per byte
  CHECK(large.get("speedup").number() < small.get("speedup").number());
  CHECK(large.get("speedup").number() < 1);  // slower than plain decode: speculation no longer pays
  // at 256 sequences even plain decode is compute-bound: 5 tokens per verification never pay for
  // its 5 × the arithmetic and 4 draft steps
  CHECK(run(1, 4, 256, peak).get("breakEvenAcceptance").is(Value::Kind::null));
  CHECK(run(1, 4, 256, peak).get("speedup").number() < 1);
}

TEST_CASE("speculative: bad input names its field") {
  const auto code_of = [](Value args) {
    try {
      (void)api::call("speculative", args);
    } catch (const Error& e) {
      return std::pair{e.code(), std::string(e.field())};
    }
    return std::pair{ErrorCode::internal_error, std::string("none")};
  };
  Value good = Value::object()
                   .set("weightBytes", 16e9)
                   .set("flopsPerToken", 16e9)
                   .set("draftWeightBytes", 1.6e9)
                   .set("draftFlopsPerToken", 1.6e9)
                   .set("gamma", 4)
                   .set("acceptance", 0.7)
                   .set("bytesPerSecond", 1e12)
                   .set("peakFlopsPerSecond", 1e14);
  CHECK(code_of(Value(good).set("acceptance", 1.5)) == std::pair{ErrorCode::out_of_range, std::string("acceptance")});
  CHECK(code_of(Value(good).set("gamma", 0)) == std::pair{ErrorCode::not_positive, std::string("gamma")});
  CHECK(code_of(Value(good).set("gamma", 65)) == std::pair{ErrorCode::out_of_range, std::string("gamma")});
}

TEST_CASE("speculative: the target and the draft as models, Llama 3 8B checked by Llama 3.2 1B on an L4") {
  // the target as decode takes it (a catalog model, its KV cache at 8,192 tokens), the draft a model
  const Value l4 = api::call("device", Value::object().set("gpu", "l4").set("dtype", "bf16"));
  const Value r = api::call("speculative", Value::object()
                                               .set("model", "llama3-8b")
                                               .set("tokens", 8192)
                                               .set("draft", "llama3.2-1b")
                                               .set("draftFormat", "bf16")
                                               .set("gamma", 4)
                                               .set("acceptance", 0.8)
                                               .set("bytesPerSecond", l4.get("bytesPerSecond").number())
                                               .set("peakFlopsPerSecond", l4.get("peakFlopsPerSecond").number()));
  // the costs it used are the models' own, as modelWeights, flopsPerToken and kvCacheBytes give them
  const Value w = api::call("modelWeights", Value::object().set("model", "llama3-8b"));
  CHECK(r.get("weightBytes").number() == w.get("bytes").number());
  CHECK(r.get("flopsPerToken").number() == 2 * w.get("params").number());
  const Value kv =
      api::call("kvCacheBytes", Value::object().set("model", "llama3-8b").set("tokens", 8192).set("dtype", "bf16"));
  CHECK(r.get("kvBytesPerSequence").number() == kv.get("bytes").number());
  const Value dw =
      api::call("modelWeights", Value::object().set("model", "llama3.2-1b").set("format", "bf16").set("batch", 1));
  CHECK(r.get("draftWeightBytes").number() == dw.get("bytesReadPerStep").number());
  // and the same numbers given directly give the same answer
  const Value same =
      api::call("speculative", Value::object()
                                   .set("weightBytes", r.get("weightBytes").number())
                                   .set("flopsPerToken", r.get("flopsPerToken").number())
                                   .set("kvBytesPerSequence", r.get("kvBytesPerSequence").number())
                                   .set("draftWeightBytes", r.get("draftWeightBytes").number())
                                   .set("draftFlopsPerToken", r.get("draftFlopsPerToken").number())
                                   .set("draftKvBytesPerSequence", r.get("draftKvBytesPerSequence").number())
                                   .set("gamma", 4)
                                   .set("acceptance", 0.8)
                                   .set("bytesPerSecond", l4.get("bytesPerSecond").number())
                                   .set("peakFlopsPerSecond", l4.get("peakFlopsPerSecond").number()));
  CHECK(same.get("speedup").number() == r.get("speedup").number());
  CHECK(r.get("speedup").number() > 1.5);  // memory-bound at batch 1: the 1B draft's reads are cheap
  // without a target, the numbers are required and named
  CHECK_THROWS_WITH(api::call("speculative", Value::object()
                                                 .set("draft", "llama3.2-1b")
                                                 .set("gamma", 4)
                                                 .set("acceptance", 0.8)
                                                 .set("bytesPerSecond", 3e11)
                                                 .set("peakFlopsPerSecond", 1e14)),
                    Catch::Contains("weightBytes is required without model"));
}

TEST_CASE("speculative: DeepSeek-V3 drafts with its own MTP module, and an MoE's verification reads more experts") {
  const Value base = Value::object()
                         .set("model", "deepseek-v3")
                         .set("gamma", 1)
                         .set("acceptance", 0.85)
                         .set("bytesPerSecond", 3.35e12)
                         .set("peakFlopsPerSecond", 1979e12);
  Value mtp = base;
  mtp.set("draft", "mtp");
  const Value r = api::call("speculative", mtp);
  // one draft step reads the MTP module: one MoE layer (MLA attention ≈ 0.187B, 8 of 256 routed
  // experts and the shared one, 44M each), the [embedding; hidden] projection (2 × 7,168², 0.103B)
  // and the shared output layer (129,280 × 7,168, 0.927B): ≈ 1.61B parameters, 1 byte each in FP8
  CHECK(r.get("draftWeightBytes").number() == Approx(1.61e9).epsilon(0.01));
  // a verification of γ + 1 = 2 tokens touches ≈ 15.8 of 256 experts per MoE layer, not 8: it reads
  // more than a plain step, as a step of batch 2 does
  const Value two = api::call("modelWeights", Value::object().set("model", "deepseek-v3").set("batch", 2));
  CHECK(r.get("verifyWeightBytes").number() == two.get("bytesReadPerStep").number());
  CHECK(r.get("verifyWeightBytes").number() > 1.4 * r.get("weightBytes").number());
  CHECK(r.get("verifySeconds").number() > 1.4 * r.get("plainStepSeconds").number());
  // so the gain is far from expectedTokens × plain ÷ cycle with the step's bytes
  CHECK(r.get("expectedTokens").number() == Approx(1.85));
  CHECK(r.get("speedup").number() < 1.3);
  // the architecture a host passes on (as modelFromConfig or model return it) keeps its modules
  const Value arch = api::call("model", Value::object().set("id", "deepseek-v3")).get("architecture");
  CHECK(arch.get("mtpLayers").number() == 1);
  Value passed = mtp;
  passed.set("model", Value::object().set("architecture", arch))
      .set("format", "fp8");  // the module in the target's format
  CHECK(api::call("speculative", passed).get("draftWeightBytes").number() == r.get("draftWeightBytes").number());
  // a model without MTP modules cannot draft with them; the draft's kind rejects other names
  Value llama = mtp;
  llama.set("model", "llama3-8b");
  CHECK_THROWS_WITH(api::call("speculative", llama), Catch::Contains("multi-token-prediction"));
  Value none = base;
  none.set("draft", "mtp2");
  CHECK_THROWS_AS(api::call("speculative", none), Error);
}

TEST_CASE("prefixCache: nothing cached is the prefill; 90 % cached prefills a tenth; decode takes no cache") {
  // the lesson's prompt: 2,000 tokens of Llama 3 8B on an L4 (the clocks calculator's prefill)
  const Value l4 = api::call("device", Value::object().set("gpu", "l4").set("dtype", "bf16"));
  const auto args = [&](double share) {
    return Value::object()
        .set("params", 8.03e9)
        .set("promptTokens", 2000)
        .set("cachedShare", share)
        .set("weightBytes", 16.06e9)
        .set("peakFlopsPerSecond", l4.get("peakFlopsPerSecond").number())
        .set("bytesPerSecond", l4.get("bytesPerSecond").number());
  };
  const Value prefill = api::call("prefill", Value::object()
                                                 .set("params", 8.03e9)
                                                 .set("tokens", 2000)
                                                 .set("weightBytes", 16.06e9)
                                                 .set("peakFlopsPerSecond", l4.get("peakFlopsPerSecond").number())
                                                 .set("bytesPerSecond", l4.get("bytesPerSecond").number()));
  const Value none = api::call("prefixCache", args(0));
  CHECK(none.get("uncachedTokens").number() == 2000);
  CHECK(none.get("timeToFirstTokenSeconds").number() == prefill.get("seconds").number());  // ≈ 265 ms
  const Value most = api::call("prefixCache", args(0.9));
  CHECK(most.get("cachedTokens").number() == 1800);
  CHECK(most.get("uncachedTokens").number() == 200);
  // 200 tokens: a tenth of the arithmetic (≈ 26.5 ms), below the weights' one read (≈ 53.5 ms): the
  // time to first token falls from ≈ 265 ms to the memory floor, not to a tenth
  CHECK(most.get("computeSeconds").number() == Approx(prefill.get("computeSeconds").number() / 10));
  CHECK(most.get("bound").string() == "memory");
  CHECK(most.get("timeToFirstTokenSeconds").number() == prefill.get("memorySeconds").number());
  CHECK(most.get("uncachedTimeToFirstTokenSeconds").number() == prefill.get("seconds").number());
  // everything cached still runs the last token: the weights' read is the floor
  const Value all = api::call("prefixCache", args(1));
  CHECK(all.get("uncachedTokens").number() == 1);
  CHECK(all.get("bound").string() == "memory");
  // decode has no cache to take: a prefix cache changes prefill alone
  CHECK_THROWS_WITH(api::call("decode", Value::object()
                                            .set("weightBytes", 16.06e9)
                                            .set("batch", 1)
                                            .set("bytesPerSecond", 3e11)
                                            .set("cachedShare", 0.9)),
                    Catch::Contains("decode takes no argument \"cachedShare\""));
}

TEST_CASE("prefixCache from host memory: the cached KV crosses the link, during the prefill or before it") {
  // Llama 3 8B's KV in BF16 (2 × 32 layers × 8 heads × 128 × 2 bytes per token) over a 32 GB/s link
  const double kv = kv_cache_bytes(32, 8, 128, 1, Dtype::bf16).value();
  REQUIRE(kv == 131072);
  const Device l4{teraflops_per_second(121), gigabytes_per_second(300)};
  const PrefillInput in{8.03e9, 2000, gigabytes(16.06), l4};
  const PrefixCache gpu = prefix_cache(in, 0.9);
  CHECK(gpu.load.value() == 0);  // the cache in GPU memory: nothing to load
  CHECK(gpu.time_to_first_token == gpu.prefill.clocks.lower_bound);
  HostLoad host{Bytes{kv}, gigabytes_per_second(32)};
  const PrefixCache over = prefix_cache(in, 0.9, host);
  // 1,800 tokens × 131,072 bytes ÷ 32 GB/s ≈ 7.4 ms, under the ≈ 53.5 ms weight read: hidden
  CHECK(over.load.value() == Approx(1800 * 131072 / 32e9));
  CHECK(over.time_to_first_token == over.prefill.clocks.lower_bound);
  host.overlap = false;
  const PrefixCache after = prefix_cache(in, 0.9, host);
  CHECK(after.load == over.load);
  CHECK(after.time_to_first_token.value() == Approx(over.load.value() + over.prefill.clocks.lower_bound.value()));
  // a slow link (1 GB/s, ≈ 236 ms) sets the time to first token even overlapped
  host = {Bytes{kv}, gigabytes_per_second(1)};
  const PrefixCache slow = prefix_cache(in, 0.9, host);
  CHECK(slow.load.value() == Approx(1800 * 131072 / 1e9));
  CHECK(slow.time_to_first_token == slow.load);
  // two GPUs in tensor parallel each hold half the KV heads and load half over their own link
  PrefillInput two = in;
  two.gpus = 2;
  CHECK(prefix_cache(two, 0.9, host).load.value() == Approx(slow.load.value() / 2));
  // nothing cached: nothing to load, the time to first token is the whole prompt's prefill
  const PrefixCache none = prefix_cache(in, 0, host);
  CHECK(none.load.value() == 0);
  CHECK(none.time_to_first_token == none.without_cache.clocks.lower_bound);
}

TEST_CASE("prefixCache API: loadSeconds, overlap, and the link's two numbers both or neither") {
  const auto args = [](double share) {
    return Value::object()
        .set("params", 8.03e9)
        .set("promptTokens", 2000)
        .set("cachedShare", share)
        .set("weightBytes", 16.06e9)
        .set("peakFlopsPerSecond", 121e12)
        .set("bytesPerSecond", 300e9);
  };
  const Value plain = api::call("prefixCache", args(0.9));
  CHECK(plain.get("loadSeconds").number() == 0);
  const Value host = api::call("prefixCache", args(0.9).set("kvBytesPerToken", 131072).set("hostBytesPerSecond", 32e9));
  CHECK(host.get("loadSeconds").number() == Approx(0.0073728));
  CHECK(host.get("timeToFirstTokenSeconds").number() == plain.get("timeToFirstTokenSeconds").number());
  const Value serial = api::call(
      "prefixCache", args(0.9).set("kvBytesPerToken", 131072).set("hostBytesPerSecond", 32e9).set("overlap", false));
  CHECK(serial.get("timeToFirstTokenSeconds").number() ==
        Approx(plain.get("timeToFirstTokenSeconds").number() + 0.0073728));
  CHECK(serial.get("memorySeconds").number() == plain.get("memorySeconds").number());  // the prefill's own clocks
  // one of the two: the other is named, as decode names its compute roof's missing half
  try {
    api::call("prefixCache", args(0.9).set("kvBytesPerToken", 131072));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::missing_field);
    CHECK(e.field() == "hostBytesPerSecond");
  }
  try {
    api::call("prefixCache", args(0.9).set("hostBytesPerSecond", 32e9));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::missing_field);
    CHECK(e.field() == "kvBytesPerToken");
    CHECK_THAT(e.what(), Catch::Contains("kvBytesPerToken is required with hostBytesPerSecond"));
  }
  CHECK_THROWS_WITH(api::call("prefixCache", args(0.9).set("overlap", 1)), Catch::Contains("overlap"));
}

TEST_CASE("prefixCache with a model: the uncached tokens' causal attention reaches back over the cached prefix") {
  // Llama 3.1 8B (32 layers, 32 heads of 128): 2 × 32 × (128 + 128) = 16,384 FLOPs a pair and layer
  const double per_pair = 32 * 2.0 * 32 * (128 + 128);
  const auto args = [](double share, double tokens) {
    return Value::object()
        .set("params", 8.03e9)
        .set("promptTokens", tokens)
        .set("cachedShare", share)
        .set("weightBytes", 16.06e9)
        .set("peakFlopsPerSecond", 121e12)
        .set("bytesPerSecond", 3e11)
        .set("model", "llama3.1-8b");
  };
  const double L = 32768;
  const Value none = api::call("prefixCache", args(0, L));
  CHECK(none.get("attentionFlops").number() == Approx(per_pair * L * (L + 1) / 2));  // L(L + 1)/2 pairs
  // with r = 0 it is prefill with the same model
  const Value prefill = api::call("prefill", Value::object()
                                                 .set("params", 8.03e9)
                                                 .set("tokens", L)
                                                 .set("weightBytes", 16.06e9)
                                                 .set("peakFlopsPerSecond", 121e12)
                                                 .set("bytesPerSecond", 3e11)
                                                 .set("model", "llama3.1-8b"));
  CHECK(none.get("timeToFirstTokenSeconds").number() == prefill.get("seconds").number());
  CHECK(prefill.get("flops").number() == Approx(2 * 8.03e9 * L + per_pair * L * (L + 1) / 2));
  // r = 0.9: the last 10 % attend to everything before them, so attention falls to
  // (L(L + 1) − c(c + 1)) ÷ (L(L + 1)) ≈ 19 % of the whole, not to 10 %
  const Value most = api::call("prefixCache", args(0.9, L));
  const double c = std::floor(0.9 * L);
  CHECK(most.get("attentionFlops").number() == Approx(per_pair * (L * (L + 1) - c * (c + 1)) / 2));
  CHECK(most.get("attentionFlops").number() / none.get("attentionFlops").number() == Approx(0.19).epsilon(0.01));
  CHECK(most.get("computeSeconds").number() ==
        Approx((2 * 8.03e9 * (L - c) + most.get("attentionFlops").number()) / 121e12));
  // a sliding-window layer attends to its window at most: Gemma 2 9B's every other layer (4,096)
  const Value gemma = api::call("prefill", Value::object()
                                               .set("params", 9.24e9)
                                               .set("tokens", 8192)
                                               .set("weightBytes", 18.5e9)
                                               .set("peakFlopsPerSecond", 121e12)
                                               .set("bytesPerSecond", 3e11)
                                               .set("model", "gemma2-9b"));
  const Value full = api::call("prefill", Value::object()
                                              .set("params", 9.24e9)
                                              .set("tokens", 4096)
                                              .set("weightBytes", 18.5e9)
                                              .set("peakFlopsPerSecond", 121e12)
                                              .set("bytesPerSecond", 3e11)
                                              .set("model", "gemma2-9b"));
  // up to the window both kinds of layer attend alike: 8,192 tokens cost less than 4 × 4,096's
  CHECK(gemma.get("attentionFlops").number() < 4 * full.get("attentionFlops").number());
  CHECK(gemma.get("attentionFlops").number() > 2 * full.get("attentionFlops").number());
  // without a model, the lesson's rule: no attention term
  CHECK(api::call("prefixCache", Value::object()
                                     .set("params", 8.03e9)
                                     .set("promptTokens", L)
                                     .set("cachedShare", 0.0)
                                     .set("weightBytes", 16.06e9)
                                     .set("peakFlopsPerSecond", 121e12)
                                     .set("bytesPerSecond", 3e11))
            .get("attentionFlops")
            .number() == 0);
}
