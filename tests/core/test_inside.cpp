#include <catch2/catch.hpp>
#include <utility>

#include "roofline/error.hpp"
#include "roofline/inside.hpp"

using namespace roofline;

TEST_CASE("no reuse (a 1 × 1 tile) is 0.5 FLOPs per byte in FP16, whatever the sizes") {
  CHECK(tile_intensity(1, 1, Dtype::fp16).value() == 0.5);
  CHECK(tile_intensity(1, 1, Dtype::fp32).value() == 0.25);
}

TEST_CASE("a T × T tile gives T ÷ 2 in FP16: 64 → 32, 256 → 128") {
  for (double t : {1.0, 2.0, 16.0, 64.0, 128.0, 256.0}) CHECK(tile_intensity(t, t, Dtype::fp16).value() == t / 2);
  CHECK(tile_intensity(64, 64, Dtype::fp16).value() == 32);
  CHECK(tile_intensity(256, 256, Dtype::fp16).value() == 128);
}

TEST_CASE("a rectangular tile lies between its sides' square tiles") {
  const double r = tile_intensity(64, 256, Dtype::fp16).value();
  CHECK(r > 32);
  CHECK(r < 128);
  CHECK(r == Approx(2.0 * 64 * 256 / (2 * (64 + 256))));
}

TEST_CASE("ResNet-50's first layer as a matmul: 12,544 × 147 by 147 × 64, 118,013,952 MACs") {
  const ConvAsMatmul c = conv_as_matmul({224, 224, 3, 7, 7, 64, 2, 3});
  CHECK(c.input_elements == 150'528);  // the colour photo: 3 × 224 × 224 numbers
  CHECK(c.output_height == 112);
  CHECK(c.output_width == 112);
  CHECK(c.rows == 12'544);
  CHECK(c.inner == 147);
  CHECK(c.cols == 64);
  CHECK(c.window_elements == 1'843'968);
  CHECK(c.weights == 9'408);
  CHECK(c.macs.value() == 118'013'952);
}

TEST_CASE("224 → 160 pixels leaves (160 ÷ 224)² ≈ 51 % of the FLOPs, as ResNet-50's first layer shows") {
  const ResolutionScale r = resolution_scale(224, 160);
  CHECK(r.from_pixels == 50'176);
  CHECK(r.to_pixels == 25'600);
  CHECK(r.flops_fraction == Approx(0.51).margin(0.005));
  // the first layer's own MACs at both sizes (stride 2, padding 3: 112 × 112 and 80 × 80 positions)
  const double at_224 = conv_as_matmul({224, 224, 3, 7, 7, 64, 2, 3}).macs.value();
  const double at_160 = conv_as_matmul({160, 160, 3, 7, 7, 64, 2, 3}).macs.value();
  CHECK(r.flops_fraction == Approx(at_160 / at_224).epsilon(1e-12));
  CHECK(resolution_scale(160, 224).flops_fraction > 1);  // a larger image costs more
  for (const auto& [from, to] : {std::pair{0.0, 160.0}, std::pair{224.0, -1.0}, std::pair{224.0, 0.5}}) {
    try {
      resolution_scale(from, to);
      FAIL("accepted " << from << " → " << to);
    } catch (const Error& e) {
      CHECK((e.field() == "fromSide" || e.field() == "toSide"));
    }
  }
}

TEST_CASE("a kernel larger than the padded input is refused") {
  try {
    conv_as_matmul({5, 5, 1, 7, 3, 1, 1, 0});
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::out_of_range);
    CHECK(e.field() == "kernelHeight");
  }
}

TEST_CASE("element-wise work in FP16 is 0.25 FLOPs per byte: read 2 bytes, write 2, one FLOP") {
  const Elementwise e = elementwise(1000, Dtype::fp16);
  CHECK(e.flops.value() == 1000);
  CHECK(e.bytes.value() == 4000);
  CHECK(e.intensity.value() == 0.25);
}

TEST_CASE("fusing conv + bias + ReLU moves the output once instead of five times") {
  const Fusion f = fusion(112.0 * 112 * 64, Dtype::fp16);
  CHECK(f.unfused.value() == 5 * 802'816.0 * 2);
  CHECK(f.fused.value() == 802'816.0 * 2);
  CHECK(f.saved.value() == 4 * 802'816.0 * 2);
  CHECK(f.unfused / f.fused == 5);
}
