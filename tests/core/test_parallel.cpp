// Tensor parallelism's all-reduces: the ring's cost, and the step, decode and prefill that carry
// them. The link figures come from the catalog (core/catalog/links/): NVLink 4 is 450 GB/s each way
// per GPU (the H100 datasheet's 900 GB/s, both directions) with 8 µs per all-reduce (llm-analysis's
// smallest-message latency for the H100 SXM).
#include <catch2/catch.hpp>

#include "roofline/api.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/parallel.hpp"

using namespace roofline;
using api::Value;

namespace {

ErrorCode code_of(std::string_view name, const Value& args) {
  try {
    api::call(name, args);
  } catch (const Error& e) {
    return e.code();
  }
  FAIL("no error");
  return ErrorCode::internal_error;
}

const Value* op(const Value& step, std::string_view id) {
  for (const Value& o : step.get("operators").items()) {
    if (o.get("id").string() == id) return &o;
  }
  return nullptr;
}

Value llama70b_step(double gpus, std::string_view gpu = "h100-sxm") {
  return api::call("step", Value::object()
                               .set("model", "llama3.1-70b")
                               .set("format", "bf16")
                               .set("gpu", std::string(gpu))
                               .set("phase", "decode")
                               .set("batch", 1)
                               .set("context", 8192)
                               .set("gpus", gpus));
}

}  // namespace

TEST_CASE("a ring all-reduce sends 2(p − 1)/p of its message after the link's latency") {
  const LinkFigures nvlink4{BytesPerSecond{450e9}, Seconds{8e-6}};
  const AllReduce r = all_reduce({8, Bytes{16384}, nvlink4});
  CHECK(r.sent_per_gpu.value() == Approx(28672));  // 2 × 7/8 × 16,384
  CHECK(r.seconds.value() == Approx(8e-6 + 28672 / 450e9));
  // two GPUs send the whole message once each way; one GPU sends nothing
  CHECK(all_reduce({2, Bytes{1e6}, nvlink4}).sent_per_gpu.value() == Approx(1e6));
  CHECK(all_reduce({1, Bytes{1e6}, nvlink4}).seconds.value() == 0);
  CHECK_THROWS_AS(all_reduce({8, Bytes{1e6}, {BytesPerSecond{0}, Seconds{8e-6}}}), Error);
}

TEST_CASE("the catalog's links carry their figures and sources, and devices name theirs") {
  const Link& nv4 = find_link("nvlink4");
  CHECK(nv4.bandwidth.value() == 450e9);
  CHECK(nv4.latency.value() == 8e-6);
  CHECK(nv4.source.find("H100 datasheet") != std::string::npos);
  CHECK(find_link("pcie5-x16").bandwidth.value() == 63e9);
  CHECK(find_link("pcie4-x16").bandwidth.value() == 31.5e9);
  CHECK(find_gpu("h100-sxm").link == "nvlink4");
  CHECK(find_gpu("a100-80gb").link == "nvlink3");
  CHECK(find_gpu("b200").link == "nvlink5");
  CHECK_FALSE(find_gpu("m4-max").link.has_value());
  for (std::size_t i = 1; i < links().size(); ++i) CHECK(links()[i - 1].bandwidth <= links()[i].bandwidth);
  CHECK_THROWS_AS(find_link("nvlink9"), Error);
  CHECK(code_of("step", Value::object()
                            .set("model", "llama3-8b")
                            .set("gpu", "h100-sxm")
                            .set("phase", "decode")
                            .set("batch", 1)
                            .set("context", 8)
                            .set("gpus", 2)
                            .set("link", "nvlink9")) == ErrorCode::unknown_link);
}

TEST_CASE("Llama 3.1 70B in BF16 at TP 8 on H100 SXM: 160 all-reduces, ~1.3 ms beside ~5.3 ms of weight reads") {
  const Value s = llama70b_step(8);
  const Value* ar = op(s, "allreduce");
  REQUIRE(ar != nullptr);
  CHECK(ar->get("count").number() == 160);  // two a layer, 80 layers
  CHECK(ar->get("group").string() == "communication");
  CHECK(ar->get("bound").string() == "link");
  // each: 8 µs + 2 × 7/8 × (1 token × 8,192 × 2 bytes) ÷ 450 GB/s
  const double each = 8e-6 + 2.0 * 7 / 8 * 8192 * 2 / 450e9;
  CHECK(ar->get("seconds").number() == Approx(160 * each));
  const Value& totals = s.get("totals");
  CHECK(totals.get("communicationSeconds").number() == Approx(1.29e-3).epsilon(0.005));
  // bandwidth alone (no latency) would give 160 × 28,672 B ÷ 450 GB/s ≈ 10 µs: the latency is the cost
  CHECK(totals.get("communicationSeconds").number() > 100 * 160 * 28672 / 450e9);
  // one GPU's weight reads: 1/8 of the 70.55B parameters but the input table's 128,256 × 8,192
  // (a step looks up one row), in BF16, at 3.35 TB/s: ≈ 5.19 ms
  const double weights = totals.get("weightBytes").number();
  CHECK(weights / 3.35e12 == Approx((70.553706496e9 - 128256.0 * 8192) * 2 / 8 / 3.35e12).epsilon(0.001));
  const Value one = llama70b_step(1);
  const double norms = op(one, "norm")->get("weightBytes").number();
  CHECK(weights == Approx((one.get("totals").get("weightBytes").number() - norms) / 8 + norms));
  CHECK(op(one, "allreduce") == nullptr);
  CHECK(one.get("totals").get("communicationSeconds").number() == 0);
  CHECK(totals.get("rooflineSeconds").number() ==
        Approx(std::max(totals.get("flops").number() / 990e12, totals.get("bytes").number() / 3.35e12) + 160 * each));
  // the norms are the same on every GPU: not split
  CHECK(op(s, "norm")->get("flops").number() == op(one, "norm")->get("flops").number());
}

TEST_CASE("a device with no link in the catalog leaves the all-reduces uncounted, and says so") {
  const Value s = llama70b_step(8, "mi300x");
  CHECK(op(s, "allreduce") == nullptr);
  CHECK(s.get("totals").get("communicationSeconds").is(Value::Kind::null));
  // a link given by its figures counts them
  const Value given = api::call("step", Value::object()
                                            .set("model", "llama3.1-70b")
                                            .set("format", "bf16")
                                            .set("gpu", "mi300x")
                                            .set("phase", "decode")
                                            .set("batch", 1)
                                            .set("context", 8192)
                                            .set("gpus", 8)
                                            .set("linkBytesPerSecond", 64e9)
                                            .set("linkLatencySeconds", 10e-6));
  CHECK(given.get("totals").get("communicationSeconds").number() == Approx(160 * (10e-6 + 2.0 * 7 / 8 * 16384 / 64e9)));
}

TEST_CASE("decode adds the all-reduces to its step; prefill too, of the whole prompt's activations") {
  const Value base = Value::object()
                         .set("model", "llama3.1-70b")
                         .set("format", "bf16")
                         .set("batch", 1)
                         .set("tokens", 8192)
                         .set("bytesPerSecond", 3.35e12)
                         .set("gpus", 8);
  const Value none = api::call("decode", base);
  CHECK(none.get("communicationSeconds").is(Value::Kind::null));
  Value with_link = base;
  with_link.set("link", "nvlink4");
  const Value d = api::call("decode", with_link);
  const double each = 8e-6 + 2.0 * 7 / 8 * 8192 * 2 / 450e9;
  CHECK(d.get("communicationSeconds").number() == Approx(160 * each));
  CHECK(d.get("stepSeconds").number() == Approx(d.get("memorySeconds").number() + 160 * each));
  CHECK(d.get("memorySeconds").number() == Approx(none.get("memorySeconds").number()));
  CHECK(d.get("tokensPerSecond").number() == Approx(1 / d.get("stepSeconds").number()));
  Value one = with_link;
  one.set("gpus", 1);
  CHECK(api::call("decode", one).get("communicationSeconds").number() == 0);

  // the rules between arguments
  Value half = base;
  half.set("linkBytesPerSecond", 450e9);
  CHECK(code_of("decode", half) == ErrorCode::missing_field);
  // a figure given replaces the named link's
  Value slower = with_link;
  slower.set("linkLatencySeconds", 20e-6);
  CHECK(api::call("decode", slower).get("communicationSeconds").number() ==
        Approx(160 * (20e-6 + 2.0 * 7 / 8 * 8192 * 2 / 450e9)));
  const Value bare = Value::object()
                         .set("weightBytes", 141e9)
                         .set("kvBytesPerSequence", 0)
                         .set("batch", 1)
                         .set("bytesPerSecond", 3.35e12)
                         .set("gpus", 8)
                         .set("link", "nvlink4");
  CHECK(code_of("decode", bare) == ErrorCode::missing_field);

  // prefill: 8,192 tokens × 8,192 BF16 activations per all-reduce
  const Value pre = Value::object()
                        .set("params", 70.6e9)
                        .set("tokens", 8192)
                        .set("weightBytes", 141.1e9)
                        .set("peakFlopsPerSecond", 990e12)
                        .set("bytesPerSecond", 3.35e12)
                        .set("gpus", 8)
                        .set("layers", 80)
                        .set("hiddenSize", 8192)
                        .set("link", "nvlink4");
  const Value p = api::call("prefill", pre);
  const double each_prefill = 8e-6 + 2.0 * 7 / 8 * 8192.0 * 8192 * 2 / 450e9;
  CHECK(p.get("communicationSeconds").number() == Approx(160 * each_prefill));
  CHECK(p.get("seconds").number() == Approx(p.get("computeSeconds").number() + 160 * each_prefill));
}
