#include <catch2/catch.hpp>

#include "roofline/error.hpp"
#include "roofline/training.hpp"

using namespace roofline;

TEST_CASE("LLM training ≈ 6 × parameters × tokens") {
  CHECK(llm_training_flops(8.03e9, 15e12).value() == Approx(6 * 8.03e9 * 15e12));
  CHECK(llm_training_flops(1, 1).value() == 6);
}

TEST_CASE("C01's monthly training: 1,840,211 photos × 8 epochs × 3 × 8.2 GFLOPs ≈ 3.6e17 FLOPs") {
  CHECK(cnn_training_flops(Flops{8.2e9}, 1'840'211, 8).value() == Approx(3.62e17).margin(0.005e17));
}

TEST_CASE("training inputs are validated; absurd products are refused, not infinite") {
  CHECK_THROWS_AS(llm_training_flops(0, 1), Error);
  CHECK_THROWS_AS(cnn_training_flops(Flops{1}, 1.5, 1), Error);
  try {
    llm_training_flops(1e29, 1e29);
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::too_large);
  }
}
