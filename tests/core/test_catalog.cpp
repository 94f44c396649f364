#include <catch2/catch.hpp>
#include <set>

#include "roofline/api.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"

using namespace roofline;

TEST_CASE("the catalog holds the lesson's GPUs and the H200 first, in the lesson's order, with unique ids") {
  std::set<std::string> ids;
  std::vector<std::string> lesson;
  for (const Gpu& g : gpus()) {
    CHECK(ids.insert(g.id).second);
    CHECK(g.bandwidth.value() > 0);
    CHECK(g.memory.value() > 0);
    CHECK_FALSE(g.source.empty());
    if (g.lesson_order > 0) {
      CHECK(lesson.size() == ids.size() - 1);  // no other device comes before a lesson one
      lesson.push_back(g.id);
      CHECK(g.peak(Dtype::fp16).has_value());
    }
  }
  CHECK(lesson == std::vector<std::string>{"t4", "l4", "a100-40gb", "a100-80gb", "h100-sxm", "h200"});
}

TEST_CASE("devices after the lesson's are grouped by kind; unified memory says what share the GPU may use") {
  const Gpu* previous = nullptr;
  int unified = 0;
  for (const Gpu& g : gpus()) {
    if (g.lesson_order > 0) continue;
    if (previous) CHECK(previous->kind <= g.kind);
    previous = &g;
    if (g.kind == DeviceKind::unified_memory) {
      ++unified;
      REQUIRE(g.gpu_memory_share);
      CHECK(*g.gpu_memory_share > 0);
      CHECK(*g.gpu_memory_share <= 1);
    } else {
      CHECK_FALSE(g.gpu_memory_share);
    }
    for (Dtype d : all_dtypes) {
      if (auto p = g.peak(d)) CHECK(p->value() > 1e11);  // in FLOP/s (or OP/s), not TFLOPS
    }
    CHECK(g.memory.value() > 1e9);      // bytes, not GB
    CHECK(g.bandwidth.value() > 1e10);  // bytes/s, not GB/s
  }
  CHECK(unified >= 4);
  // the scaling book's TPU v5e: 197 TFLOPS in BF16 over 820 GB/s
  const Gpu& tpu = find_gpu("tpu-v5e");
  CHECK(tpu.kind == DeviceKind::tpu);
  CHECK(tpu.peak(Dtype::bf16)->value() == 197e12);
  CHECK(tpu.bandwidth.value() == 820e9);
}

TEST_CASE("T4: 16 GB, 320 GB/s, FP32 8.1, FP16 65, INT8 130 TOPS; no FP8 or BF16") {
  const Gpu& t4 = find_gpu("t4");
  CHECK(t4.memory.value() == 16e9);
  CHECK(t4.bandwidth.value() == 320e9);
  CHECK(t4.peak(Dtype::fp32)->value() == 8.1e12);
  CHECK(t4.peak(Dtype::fp16)->value() == 65e12);
  CHECK(t4.peak(Dtype::int8)->value() == 130e12);
  CHECK_FALSE(t4.peak(Dtype::fp8));
  CHECK_FALSE(t4.peak(Dtype::bf16));
  CHECK(*t4.price_per_hour_usd == 0.526);  // AWS g4dn.xlarge; the lesson's table rounds it to ≈ US$0.53
  // With FP16 tensor cores the T4 does eight times its FP32 rate.
  CHECK(*t4.peak(Dtype::fp16) / *t4.peak(Dtype::fp32) == Approx(8).margin(0.05));
}

TEST_CASE("from the T4 to the H100, FLOP/s grow ≈ 15× and bandwidth ≈ 10×") {
  const Gpu& t4 = find_gpu("t4");
  const Gpu& h100 = find_gpu("h100-sxm");
  CHECK(*h100.peak(Dtype::fp16) / *t4.peak(Dtype::fp16) == Approx(15.2).margin(0.05));
  CHECK(h100.bandwidth / t4.bandwidth == Approx(10.5).margin(0.05));
  CHECK_FALSE(find_gpu("a100-80gb").peak(Dtype::fp8));
  CHECK(find_gpu("h200").memory.value() == 141e9);
  CHECK_FALSE(find_gpu("h200").price_per_hour_usd);
}

TEST_CASE("device_for refuses a precision the GPU has no peak for") {
  CHECK(device_for(find_gpu("l4"), Dtype::fp8).peak.value() == 242e12);
  try {
    device_for(find_gpu("t4"), Dtype::fp8);
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::unsupported_dtype);
    CHECK_THAT(e.what(), Catch::Contains("NVIDIA T4") && Catch::Contains("FP8"));
  }
}

TEST_CASE("models: Llama 3 8B weighs 16.06 GB in BF16; ResNet-50 reuses each weight ≈ 167 times") {
  CHECK(model_weights(find_model("llama3-8b")).bytes.value() == Approx(16.06e9));
  CHECK(model_weights(find_model("c10-70b")).bytes.value() == Approx(70.6e9));
  CHECK(model_weights(find_model("qwen-27b")).bytes.value() == Approx(54e9));
  CHECK(model_weights(find_model("phone-3b")).bytes.value() == Approx(1.3125e9));
  const Model& r = find_model("resnet50");
  CHECK(*r.macs_per_example / r.params == Approx(166.9).margin(0.05));
  CHECK(r.stages.size() == 6);
  // the 1 × 1 convolution of stage 1: 256 → 64 channels at 56 × 56 positions, its maps ≈ 2 MB in FP16
  const Stage& one = r.stages.back();
  CHECK(one.id == "stage1-1x1");
  CHECK(one.macs == 56 * 56 * 256 * 64);
  CHECK(one.weights == 256 * 64);
  CHECK(one.activations == 56 * 56 * (256 + 64));
  CHECK(r.stages.front().activations == 0);  // the lesson's table gives no maps
}

TEST_CASE(
    "ResNet-50 at batch 1: each weight is used ≈ 3,100, 206, 54 and 1 times in stages 1, 3, 4 and the last layer") {
  const Model& r = find_model("resnet50");
  auto uses = [&](std::string_view id) {
    for (const Stage& s : r.stages) {
      if (s.id == id) return s.uses_per_weight();
    }
    FAIL("no stage " << id);
    return 0.0;
  };
  CHECK(uses("stage1") == Approx(3092.6).margin(0.05));  // the lesson prints ≈ 3,100
  CHECK(uses("stage3") == Approx(206.2).margin(0.05));
  CHECK(uses("stage4") == Approx(53.93).margin(0.005));
  CHECK(uses("fc") == Approx(0.9995).margin(0.0001));
  CHECK(uses("conv1") == 12544);  // 112 × 112 positions
}

TEST_CASE("unknown ids are refused with the known ones listed") {
  try {
    find_gpu("rtx4090", "gpu");
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::unknown_gpu);
    CHECK(e.field() == "gpu");
    CHECK_THAT(e.what(), Catch::Contains("t4, l4"));
  }
  CHECK_THROWS_AS(find_model("gpt-5"), Error);
}

TEST_CASE("renting two T4 for a 30-day month costs ≈ US$763 at US$0.53 per hour") {
  CHECK(rental_cost_usd(0.53, 2, 720) == Approx(763.2));
  CHECK_THROWS_AS(rental_cost_usd(0.53, 1.5, 720), Error);
  CHECK_THROWS_AS(rental_cost_usd(0, 1, 720), Error);
}

TEST_CASE("from the T4 to the H100 the FP16 peak grew ≈ 15 times and the bandwidth ≈ 10 (compareGpus)") {
  const api::Value r =
      api::call("compareGpus", api::Value::object().set("from", "t4").set("to", "h100-sxm").set("dtype", "fp16"));
  CHECK(r.get("peakRatio").number() == Approx(990.0 / 65).epsilon(1e-12));
  CHECK(r.get("bandwidthRatio").number() == Approx(3350.0 / 320).epsilon(1e-12));
  CHECK(r.get("memoryRatio").number() == Approx(5));
  // a precision one of the two lacks is an error naming it, not a ratio to nothing
  CHECK_THROWS_AS(
      api::call("compareGpus", api::Value::object().set("from", "t4").set("to", "h100-sxm").set("dtype", "bf16")),
      Error);
}
