#include <catch2/catch.hpp>

#include "roofline/error.hpp"
#include "roofline/inside.hpp"
#include "roofline/kernel_costs.hpp"
#include "roofline/matrix.hpp"
#include "roofline/precision.hpp"

using namespace roofline;

TEST_CASE("copy moves two arrays and does no FLOPs", "[kernel_costs]") {
  const KernelCost c = stream_copy_cost(1000, Dtype::fp32);
  CHECK(c.flops.value() == 0);
  CHECK(c.bytes.value() == 8000);
  CHECK(c.intensity.value() == 0);
}

TEST_CASE("triad: 2 FLOPs and 3 arrays per element", "[kernel_costs]") {
  const KernelCost c = stream_triad_cost(double(1 << 26), Dtype::fp32);
  CHECK(c.flops.value() == 2.0 * (1 << 26));
  CHECK(c.bytes.value() == 805306368.0);
  CHECK(c.intensity.value() == Approx(2.0 / 12.0));
}

TEST_CASE("dot: 2 FLOPs and 2 arrays read per element, nothing written", "[kernel_costs]") {
  const KernelCost c = stream_dot_cost(1000, Dtype::fp32);
  CHECK(c.flops.value() == 2000);
  CHECK(c.bytes.value() == 8000);
  CHECK(c.intensity.value() == 0.25);
}

TEST_CASE("an FMA is one MAC: 2 FLOPs", "[kernel_costs]") {
  CHECK(fma_flops(1e9).value() == 2e9);
  CHECK_THROWS_AS(fma_flops(0), Error);
}

TEST_CASE("the naive matmul reuses nothing: 0.5 FLOPs per byte in FP16", "[kernel_costs]") {
  const KernelCost c = matmul_no_reuse_cost(4096, 4096, 4096, Dtype::fp16);
  // 4 bytes of operands per MAC, plus C written once.
  CHECK(c.flops.value() == matmul_cost(4096, 4096, 4096, Dtype::fp16).flops.value());
  CHECK(c.bytes.value() == 4.0 * 4096.0 * 4096.0 * 4096.0 + 2.0 * 4096.0 * 4096.0);
  CHECK(c.intensity.value() == Approx(0.5).epsilon(1e-3));
  CHECK(matmul_no_reuse_cost(64, 64, 64, Dtype::fp32).intensity.value() == Approx(0.25).epsilon(1e-2));
}

TEST_CASE("tiles raise intensity to the core's tile intensity", "[kernel_costs]") {
  const KernelCost t64 = matmul_tiled_cost(4096, 4096, 4096, 64, 64, Dtype::fp16);
  // Slightly below T ÷ 2: C is also written once.
  CHECK(t64.intensity.value() == Approx(tile_intensity(64, 64, Dtype::fp16).value()).epsilon(1e-2));
  CHECK(t64.intensity < tile_intensity(64, 64, Dtype::fp16));
  const KernelCost t256 = matmul_tiled_cost(4096, 4096, 4096, 256, 256, Dtype::fp16);
  CHECK(t256.intensity > t64.intensity);
  // A tile as large as the matrix: each matrix moved once, the ideal count.
  const KernelCost whole = matmul_tiled_cost(512, 512, 512, 4096, 4096, Dtype::fp32);
  CHECK(whole.bytes.value() == matmul_cost(512, 512, 512, Dtype::fp32).bytes.value());
  CHECK_THROWS_AS(matmul_tiled_cost(64, 64, 64, 0, 64, Dtype::fp32), Error);
}

TEST_CASE("the ideal matmul is matmul_cost", "[kernel_costs]") {
  const KernelCost c = matmul_ideal_cost(32, 2048, 500, Dtype::fp16);
  CHECK(c.flops.value() == 65536000.0);
  CHECK(c.bytes.value() == matmul_cost(32, 2048, 500, Dtype::fp16).bytes.value());
}

TEST_CASE("GEMV bytes: the weights as quantized_weights counts them, plus x and y", "[kernel_costs]") {
  const GemvCost bf16 = gemv_cost({4096, 4096, Dtype::bf16, std::nullopt});
  CHECK(bf16.cost.flops.value() == 2.0 * 4096 * 4096);
  CHECK(bf16.weight_bytes.value() == 2.0 * 4096 * 4096);
  CHECK(bf16.cost.bytes.value() == 2.0 * 4096 * 4096 + 4.0 * (4096 + 4096));
  CHECK(bf16.cost.intensity.value() == Approx(1.0).epsilon(1e-3));

  const GemvCost int4 = gemv_cost({4096, 4096, Dtype::int4, 128, Dtype::bf16});
  QuantizedWeightsInput q{4096.0 * 4096, Dtype::int4, 128, Dtype::bf16};
  CHECK(int4.weight_bytes.value() == quantized_weights(q).bytes.value());
  CHECK(int4.weight_bytes.value() == 4096.0 * 4096 / 2 + 4096.0 * 4096 / 128 * 2);  // 8,650,752
  CHECK(bf16.weight_bytes / int4.weight_bytes == Approx(3.879).epsilon(1e-3));

  const GemvCost int8 = gemv_cost({4096, 4096, Dtype::int8, 128, Dtype::bf16});
  CHECK(int8.weight_bytes.value() == 4096.0 * 4096 + 4096.0 * 32 * 2);
  CHECK_THROWS_AS(gemv_cost({0, 4096, Dtype::bf16, std::nullopt}), Error);
}

TEST_CASE("a decode step's tokens/s ceiling is bandwidth ÷ bytes per step", "[kernel_costs]") {
  // The lesson: Llama 3 8B in BF16 (16.06 GB) on an L4 (300 GB/s): ≈ 19 tokens/s.
  CHECK(steps_per_second_ceiling(gigabytes(16.06), gigabytes_per_second(300)) == Approx(18.68).epsilon(1e-3));
  CHECK_THROWS_AS(steps_per_second_ceiling(Bytes{0}, gigabytes_per_second(300)), Error);
}

TEST_CASE("a dense layer's cost is the core's dense_layer", "[kernel_costs]") {
  const KernelCost c = dense_cost(8, 4096, 4096, Dtype::fp16);
  const DenseLayerCost d = dense_layer(8, 4096, 4096, Dtype::fp16);
  CHECK(c.flops.value() == d.matmul.flops.value());
  CHECK(c.bytes.value() == d.matmul.bytes.value());
}

TEST_CASE("bias + ReLU: unfused moves C five times, fused once", "[kernel_costs]") {
  const double n = 100352, k = 64, m = 256;
  const KernelCost unfused = bias_relu_cost(n, k, m, Dtype::fp32, false);
  const KernelCost fused = bias_relu_cost(n, k, m, Dtype::fp32, true);
  CHECK(unfused.flops.value() == fused.flops.value());
  CHECK(fused.flops.value() == 2 * n * k * m + 2 * n * m);
  const Fusion f = fusion(n * m, Dtype::fp32);
  CHECK(unfused.bytes.value() - fused.bytes.value() == f.saved.value() + 4 * m);
  CHECK(fused.bytes.value() == matmul_cost(n, k, m, Dtype::fp32).bytes.value() + 4 * m);
}

TEST_CASE("the measured knee uses the same crossing rule as the prediction", "[kernel_costs]") {
  // A kernel whose own line is the T4's: its knee is the lesson's 226.
  CHECK(measured_knee_batch(4096, 4096, Dtype::fp16, gigabytes_per_second(320), teraflops_per_second(65)) == 226);
  CHECK_THROWS_AS(measured_knee_batch(4096, 4096, Dtype::fp16, BytesPerSecond{0}, teraflops_per_second(65)), Error);
}
