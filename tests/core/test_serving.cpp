#include <catch2/catch.hpp>

#include "roofline/api.hpp"
#include "roofline/error.hpp"
#include "roofline/serving.hpp"

using namespace roofline;

TEST_CASE("C01's day: 10 million photos over 86,400 s ≈ 116/s, ≈ 58 per T4, ≈ 5 % of 1,200") {
  const DailyLoad l = daily_load(10e6, 2, 1200);
  CHECK(l.items_per_second == Approx(115.74).margin(0.005));
  CHECK(l.items_per_second_per_gpu == Approx(57.87).margin(0.005));
  CHECK(l.load == Approx(0.048225).margin(1e-6));
  CHECK(daily_load(86'400, 1, 1).load == 1);
}

TEST_CASE("GPUs for a demand: 500 photos/s at 100 each is exactly 5, at 1,200 each 1") {
  CHECK(gpus_needed(500, 100).gpus == 5);
  CHECK(gpus_needed(500, 100).exact == 5);
  CHECK(gpus_needed(500, 1200).gpus == 1);
  CHECK(gpus_needed(501, 100).gpus == 6);
  CHECK(gpus_needed(0.3, 0.1).gpus == 3);  // 0.3 ÷ 0.1 is 2.9999999999999996 in binary: still 3
}

TEST_CASE("a 50 ms TPOT target is 20 tokens per second; 1080p at 60 frames/s is 124,416,000 pixels/s") {
  CHECK(per_second(Seconds{0.05}) == Approx(20));
  const FramePixels f = frame_pixels(1920, 1080, 60);
  CHECK(f.pixels == 2'073'600);
  CHECK(f.per_second == 124'416'000);
}

TEST_CASE("serving inputs are validated, each error naming its field") {
  const auto field_of = [](auto&& fn) {
    try {
      fn();
    } catch (const Error& e) {
      return std::string(e.field());
    }
    return std::string("none");
  };
  CHECK(field_of([] { daily_load(-1, 2, 1200); }) == "items");
  CHECK(field_of([] { daily_load(10, 0, 1200); }) == "gpus");
  CHECK(field_of([] { daily_load(10, 1.5, 1200); }) == "gpus");
  CHECK(field_of([] { gpus_needed(500, 0); }) == "itemsPerSecond");
  CHECK(field_of([] { per_second(Seconds{0}); }) == "seconds");
  CHECK(field_of([] { frame_pixels(1920.5, 1080, 60); }) == "width");
  CHECK(field_of([] { frame_pixels(2e15, 2e15, 1); }) == "pixels");
  CHECK(field_of([] { frame_pixels(1e12, 1e12, 1e10); }) == "pixelsPerSecond");
}

TEST_CASE("the real-life cases give these functions their arguments (rl.caseArgs)") {
  using api::Value;
  const auto args = [](const char* id, const char* fn) {
    return api::call("caseArgs", Value::object().set("id", id).set("function", fn));
  };
  // C01's day: 82 PFLOPs, ≈ 8,300 s on one T4 at its measured rate, ≈ 5 % load, ≈ US$768 a month
  CHECK(api::call("totalWork", args("c01-day", "totalWork")).get("flops").number() == Approx(8.2e16));
  CHECK(api::call("totalWork", args("c01-day", "totalWork")).get("seconds").number() == Approx(8333.3).margin(0.1));
  CHECK(api::call("dailyLoad", args("c01-day", "dailyLoad")).get("load").number() == Approx(0.048).margin(0.0005));
  CHECK(api::call("rentalCost", args("c01-day", "rentalCost")).get("usd").number() == Approx(768).margin(0.5));
  // one T4's measured rate against one T4's peak (the case's two GPUs serve the day, not one photo)
  Value one = args("c01-day", "throughput");
  one.set("gpus", 1.0);
  CHECK(api::call("throughput", one).get("fraction").number() == Approx(0.15).margin(0.005));
  // training: ≈ 3.6 × 10¹⁷ FLOPs
  CHECK(api::call("cnnTrainingFlops", args("c01-training", "cnnTrainingFlops")).get("flops").number() ==
        Approx(3.6e17).margin(0.05e17));
  // float32: 0.82 TFLOPS, ≈ 10 % of the T4's FP32 peak, 5 GPUs for 500 photos/s
  const Value fp32 = api::call("throughput", args("c01-fp32", "throughput"));
  CHECK(fp32.get("achievedFlopsPerSecond").number() == Approx(0.82e12));
  CHECK(fp32.get("fraction").number() == Approx(0.1).margin(0.005));
  CHECK(api::call("gpusNeeded", args("c01-fp32", "gpusNeeded")).get("gpus").number() == 5);
  // C10: 4.2 questions/s of 1,000 tokens on two H100 in FP8 ≈ 593 TFLOPS, ≈ 15 % of 3,958
  Value c10 = args("c10-serving", "throughput");
  c10.set("flopsPerItem", api::call("prefill", args("c10-serving", "prefill")).get("flops").number());
  const Value t = api::call("throughput", c10);
  CHECK(t.get("achievedFlopsPerSecond").number() == Approx(593e12).margin(0.5e12));
  CHECK(t.get("fraction").number() == Approx(0.15).margin(0.005));
  CHECK(api::call("perSecond", args("c10-serving", "perSecond")).get("perSecond").number() == Approx(20));
  // the phone: ≈ 38 tokens/s at ≈ 50 GB/s; games: 124,416,000 pixels per second
  // (the phone has no compute peak in the catalog: its decode is the memory roof alone)
  const Value p = args("phone-decode", "decode");
  const Value phone = Value::object()
                          .set("weightBytes", p.get("weightBytes"))
                          .set("kvBytesPerSequence", p.get("kvBytesPerSequence"))
                          .set("batch", p.get("batch"))
                          .set("bytesPerSecond", p.get("bytesPerSecond"));
  CHECK(api::call("decode", phone).get("tokensPerSecond").number() == Approx(38.1).margin(0.05));
  CHECK(api::call("framePixels", args("game-frame", "framePixels")).get("pixelsPerSecond").number() == 124'416'000);
}

TEST_CASE("a CNN stage over a batch, counting only its weights: stage 4 ≈ 54, × 4 ≈ 216, × 32 ≈ 1,730") {
  using api::Value;
  const auto at = [](double batch) {
    return api::call("stageIntensity",
                     Value::object().set("model", "resnet50").set("stage", "stage4").set("batch", batch));
  };
  CHECK(at(1).get("weightsOnlyFlopsPerByte").number() == Approx(809.0 / 15.0));
  CHECK(at(4).get("weightsOnlyFlopsPerByte").number() == Approx(4 * 809.0 / 15.0));
  CHECK(at(32).get("weightsOnlyFlopsPerByte").number() == Approx(1730).margin(5));
  CHECK(at(32).get("usesPerWeight").number() ==
        at(32).get("weightsOnlyFlopsPerByte").number());  // FP16: 2 FLOPs ÷ 2 bytes
  CHECK(at(4).get("weightBytes").number() == 30e6);
  std::string field;
  try {
    api::call("stageIntensity", Value::object().set("model", "llama3-8b").set("stage", "stage4").set("batch", 1.0));
  } catch (const Error& e) {
    field = e.field();
    CHECK(e.code() == ErrorCode::out_of_range);
  }
  CHECK(field == "stage");
}
