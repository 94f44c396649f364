#include <catch2/catch.hpp>

#include "roofline/batching.hpp"
#include "roofline/error.hpp"
#include "roofline/matrix.hpp"

using namespace roofline;

TEST_CASE("a 4,096 × 4,096 FP16 layer crosses the T4 ridge at batch 226, not 204") {
  const FlopsPerByte t4_ridge{65e12 / 320e9};
  CHECK(min_batch_for_ridge(4096, 4096, Dtype::fp16, t4_ridge) == 226);
  CHECK(dense_layer(226, 4096, 4096, Dtype::fp16).matmul.intensity.value() == Approx(203.5).margin(0.05));
  CHECK(dense_layer(225, 4096, 4096, Dtype::fp16).matmul.intensity < t4_ridge);
  // The weights-only approximation would say 204.
  CHECK(dense_layer(204, 4096, 4096, Dtype::fp16).weights_only_intensity >= t4_ridge);
  CHECK(dense_layer(203, 4096, 4096, Dtype::fp16).weights_only_intensity < t4_ridge);
}

TEST_CASE("the lesson's rounded ridge 203.1 also gives 226") {
  CHECK(min_batch_for_ridge(4096, 4096, Dtype::fp16, FlopsPerByte{203.1}) == 226);
}

TEST_CASE("property: the crossing batch is the smallest one at or above the ridge") {
  for (double in : {64.0, 500.0, 2048.0, 4096.0, 12288.0}) {
    for (double out : {64.0, 500.0, 4096.0}) {
      for (Dtype d : {Dtype::fp16, Dtype::int8, Dtype::fp32}) {
        for (double r : {1.0, 10.0, 50.0, 153.0, 203.125, 295.5, 403.3}) {
          const double limit = dense_layer(1, in, out, d).limit_intensity.value();
          if (limit <= r) {
            CHECK_THROWS_AS(min_batch_for_ridge(in, out, d, FlopsPerByte{r}), Error);
            continue;
          }
          const double b = min_batch_for_ridge(in, out, d, FlopsPerByte{r});
          REQUIRE(dense_layer(b, in, out, d).matmul.intensity.value() >= r);
          if (b > 1) REQUIRE(dense_layer(b - 1, in, out, d).matmul.intensity.value() < r);
        }
      }
    }
  }
}

TEST_CASE("a layer whose intensity limit lies below the ridge never crosses it, and says why") {
  // 2,048 → 500 in FP16 tends to 2·2048·500 ÷ (2·2548) ≈ 402 FLOPs per byte: never an L4's 403.3.
  try {
    min_batch_for_ridge(2048, 500, Dtype::fp16, FlopsPerByte{121e12 / 300e9});
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::never_crosses_ridge);
    CHECK_THAT(e.what(), Catch::Contains("ridgeFlopsPerByte must be below 401.9, the intensity a 2048 × 500 layer") &&
                             Catch::Contains("never reaches"));
  }
}
