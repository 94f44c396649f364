#include <catch2/catch.hpp>

#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/precision.hpp"

using namespace roofline;

namespace {
QuantizedWeightsInput llama(Dtype d) {
  QuantizedWeightsInput in{};
  in.params = 8.03e9;
  in.dtype = d;
  return in;
}
double tokens_per_second_on_l4(Bytes weights) {
  return decode({weights, Bytes{0}, 1, gigabytes_per_second(300), 1}).tokens_per_second;
}
}  // namespace

TEST_CASE("Llama 3 8B on an L4: BF16 ≈ 19 tokens/s, INT8 ≈ 37, INT4 with group scales ≈ 52") {
  CHECK(quantized_weights(llama(Dtype::bf16)).bytes.value() == Approx(16.06e9));
  CHECK(quantized_weights(llama(Dtype::int8)).bytes.value() == Approx(8.03e9));
  CHECK(tokens_per_second_on_l4(quantized_weights(llama(Dtype::bf16)).bytes) == Approx(18.7).margin(0.05));
  CHECK(tokens_per_second_on_l4(quantized_weights(llama(Dtype::int8)).bytes) == Approx(37.4).margin(0.05));
  QuantizedWeightsInput int4 = llama(Dtype::int4);
  int4.group_size = 64;
  int4.scale_dtype = Dtype::fp16;
  int4.kept_params = 1e9;
  int4.kept_dtype = Dtype::bf16;
  const QuantizedWeights q = quantized_weights(int4);
  CHECK(q.kept.value() == 2e9);
  CHECK(q.quantized.value() == 3.515e9);
  CHECK(q.scales.value() == Approx(2 * 7.03e9 / 64).epsilon(1e-9));
  CHECK(q.bytes.value() == Approx(5.73e9).margin(0.005e9));
  CHECK(tokens_per_second_on_l4(q.bytes) == Approx(52.3).margin(0.05));
  // INT4 does not reach 4× because part of the model stays in BF16.
  CHECK(q.bytes.value() > 16.06e9 / 4);
  CHECK(q.bits_per_weight == Approx(5.71).margin(0.01));
}

TEST_CASE("scales are counted per started group") {
  QuantizedWeightsInput in{};
  in.params = 100;
  in.dtype = Dtype::int4;
  in.group_size = 64;
  in.scale_dtype = Dtype::fp16;
  CHECK(quantized_weights(in).scales.value() == 4);  // two groups, 2 bytes each
}

TEST_CASE("kept parameters cannot exceed all parameters") {
  QuantizedWeightsInput in = llama(Dtype::int4);
  in.kept_params = 9e9;
  try {
    quantized_weights(in);
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::out_of_range);
    CHECK(e.field() == "keptParams");
  }
  in.kept_params = 0;
  in.group_size = 0;
  CHECK_THROWS_AS(quantized_weights(in), Error);
}

TEST_CASE("speed-ups: decode follows bytes (2× for INT8), compute-bound follows peaks (T4 65 → 130 TOPS: 2×)") {
  const Speedups s = speedups(gigabytes(16.06), gigabytes(8.03), teraflops_per_second(65), teraflops_per_second(130));
  CHECK(s.memory_bound == 2);
  CHECK(s.compute_bound == 2);
  // The phone: 3e9 parameters at 3.5 bits vs BF16.
  CHECK(speedups(Bytes{6e9}, Bytes{3e9 * 3.5 / 8}, FlopsPerSecond{1}, FlopsPerSecond{1}).memory_bound ==
        Approx(16.0 / 3.5));
}

TEST_CASE("'with sparsity' datasheet figures are halved to dense") {
  CHECK(dense_from_sparsity(teraflops_per_second(1979)).value() == 989.5e12);
  CHECK_THROWS_AS(dense_from_sparsity(FlopsPerSecond{0}), Error);
}
