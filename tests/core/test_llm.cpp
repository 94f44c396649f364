#include <catch2/catch.hpp>
#include <random>

#include "roofline/error.hpp"
#include "roofline/llm.hpp"

using namespace roofline;

TEST_CASE("Llama 3 8B in BF16 on an L4: 16.06 GB per step, 53.5 ms, 18.7 tokens/s") {
  const DecodeStep s = decode({gigabytes(16.06), Bytes{0}, 1, gigabytes_per_second(300), 1});
  CHECK(s.bytes_per_step.value() == Approx(16.06e9));
  CHECK(s.step.value() == Approx(53.533e-3).margin(0.001e-3));
  CHECK(s.tokens_per_second_per_sequence == Approx(18.68).margin(0.01));
  CHECK(s.tokens_per_second == s.tokens_per_second_per_sequence);
}

TEST_CASE("four conversations with 1.07 GB of KV cache each: 20.3 GB, 68 ms, 59 in total, 15 each") {
  const DecodeStep s = decode({gigabytes(16.06), gigabytes(1.07), 4, gigabytes_per_second(300), 1});
  CHECK(s.bytes_per_step.value() == Approx(20.34e9));
  CHECK(s.step.value() == Approx(67.8e-3).margin(0.05e-3));
  CHECK(s.tokens_per_second == Approx(59.0).margin(0.05));
  CHECK(s.tokens_per_second_per_sequence == Approx(14.75).margin(0.01));
}

TEST_CASE("tensor parallelism: two H100 each read half of 70.6 GB: 10.5 ms; with 40 conversations 14.7 ms") {
  const DecodeStep alone = decode({gigabytes(70.6), Bytes{0}, 1, gigabytes_per_second(3350), 2});
  CHECK(alone.bytes_per_step.value() == Approx(35.3e9));
  CHECK(alone.step.value() == Approx(10.54e-3).margin(0.01e-3));
  // 13.9 GB of KV cache per GPU for 40 conversations: 27.8 GB in all, 0.695 GB per conversation.
  const DecodeStep busy = decode({gigabytes(70.6), gigabytes(27.8 / 40), 40, gigabytes_per_second(3350), 2});
  CHECK(busy.step.value() == Approx(14.69e-3).margin(0.01e-3));
  CHECK(busy.tokens_per_second == Approx(2723).margin(1));
  CHECK(busy.tokens_per_second_per_sequence == Approx(68.1).margin(0.1));
}

TEST_CASE("property: tokens/s never increases with more KV cache, and total never decreases with batch at KV 0") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.01, 100);
  for (int i = 0; i < 2000; ++i) {
    const Bytes w = gigabytes(u(rng));
    const Bytes kv = gigabytes(u(rng) / 10);
    const double b = std::floor(u(rng)) + 1;
    const BytesPerSecond bw = gigabytes_per_second(u(rng) * 50);
    const DecodeStep s = decode({w, kv, b, bw, 1});
    const DecodeStep more_kv = decode({w, kv * 1.5, b, bw, 1});
    REQUIRE(more_kv.tokens_per_second <= s.tokens_per_second);
    REQUIRE(more_kv.tokens_per_second_per_sequence <= s.tokens_per_second_per_sequence);
    REQUIRE(decode({w, Bytes{0}, b + 1, bw, 1}).tokens_per_second >= decode({w, Bytes{0}, b, bw, 1}).tokens_per_second);
  }
}

TEST_CASE("KV cache of Llama 3 8B: 131,072 bytes per token, 1.07 GB for 8,192 tokens") {
  CHECK(kv_cache_bytes(32, 8, 128, 1, Dtype::bf16).value() == 131072);
  CHECK(kv_cache_bytes(32, 8, 128, 8192, Dtype::bf16).value() == Approx(1.07e9).margin(0.005e9));
}

TEST_CASE("a token costs ≈ 2 FLOPs per parameter: Llama 3 8B ≈ 16 GFLOPs") {
  CHECK(flops_per_token(8.03e9).value() == 16.06e9);
}

TEST_CASE("prefill of 2,000 tokens on an L4 is compute-bound: 265.45 ms vs 53.53 ms") {
  const Prefill p =
      prefill({8.03e9, 2000, gigabytes(16.06), {teraflops_per_second(121), gigabytes_per_second(300)}, 1});
  CHECK(p.flops.value() == Approx(3.212e13));
  CHECK(p.clocks.intensity.value() == Approx(2000));
  CHECK(p.clocks.compute.value() == Approx(265.4545e-3).margin(0.00005e-3));
  CHECK(p.clocks.memory.value() == Approx(53.5333e-3).margin(0.00005e-3));
  CHECK(p.clocks.bound == Bound::compute);
}

TEST_CASE("C10 prefill of 2,000 tokens on two H100 in FP8: ≈ 71 ms, intensity ≈ 4,000") {
  const Prefill p =
      prefill({70.6e9, 2000, gigabytes(70.6), {teraflops_per_second(1979), gigabytes_per_second(3350)}, 2});
  CHECK(p.flops.value() == Approx(2.824e14));
  CHECK(p.clocks.intensity.value() == Approx(4000));
  CHECK(p.clocks.lower_bound.value() == Approx(71.3e-3).margin(0.1e-3));
}

TEST_CASE("decode and prefill validate their inputs") {
  auto code = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::unknown_function;
  };
  CHECK(code([] { decode({Bytes{0}, Bytes{0}, 1, BytesPerSecond{1}, 1}); }) == ErrorCode::not_positive);
  CHECK(code([] { decode({Bytes{1}, Bytes{-1}, 1, BytesPerSecond{1}, 1}); }) == ErrorCode::negative);
  CHECK(code([] { decode({Bytes{1}, Bytes{0}, 1.5, BytesPerSecond{1}, 1}); }) == ErrorCode::not_integer);
  CHECK(code([] { decode({Bytes{1}, Bytes{0}, 1, BytesPerSecond{1}, 0}); }) == ErrorCode::not_positive);
  CHECK(code([] { kv_cache_bytes(32, 8, 128, 0, Dtype::bf16); }) == ErrorCode::not_positive);
  CHECK(code([] { kv_cache_bytes(1e6, 1e6, 1e6, 1e6, Dtype::bf16); }) == ErrorCode::too_large);
  CHECK(code([] { decode({Bytes{1e-300}, Bytes{0}, 1, BytesPerSecond{1e30}, 1}); }) == ErrorCode::too_large);
}
