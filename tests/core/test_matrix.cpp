#include <catch2/catch.hpp>

#include "roofline/error.hpp"
#include "roofline/matrix.hpp"

using namespace roofline;

TEST_CASE("shape rule: (n × k)·(k × m) gives n × m") {
  CHECK(product_shape({2, 3}, {3, 2}) == Shape{2, 2});
  CHECK(product_shape({32, 2048}, {2048, 500}) == Shape{32, 500});
  CHECK(product_shape({3, 2}, {2, 3}) == Shape{3, 3});
}

TEST_CASE("shape rule: (2 × 3)·(2 × 3) is refused, naming both shapes") {
  try {
    product_shape({2, 3}, {2, 3});
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::shape_mismatch);
    CHECK_THAT(e.what(), Catch::Contains("2 × 3") && Catch::Contains("columns of A must equal the rows of B"));
  }
}

TEST_CASE("the shopping example: C = [[265, 650], [80, 300]] in 12 MACs") {
  const Matrix purchases{{2, 1, 3}, {1, 0, 2}};
  const Matrix products{{50, 200}, {120, 100}, {15, 50}};
  const auto [c, macs] = multiply(purchases, products);
  CHECK(c == Matrix{{265, 650}, {80, 300}});
  CHECK(macs.value() == 12);
  CHECK(to_flops(macs).value() == 24);
}

TEST_CASE("A·B ≠ B·A: [[19, 22], [43, 50]] and [[23, 34], [31, 46]], 8 MACs each") {
  const Matrix a{{1, 2}, {3, 4}};
  const Matrix b{{5, 6}, {7, 8}};
  CHECK(multiply(a, b).c == Matrix{{19, 22}, {43, 50}});
  CHECK(multiply(b, a).c == Matrix{{23, 34}, {31, 46}});
  CHECK(multiply(a, b).macs.value() == 8);
}

TEST_CASE("the counted MACs always equal n·m·k") {
  for (auto [n, k, m] : {std::tuple{4, 8, 5}, {1, 64, 10}, {16, 16, 16}, {1, 1, 1}, {3, 7, 2}}) {
    const Matrix a(n, k), b(k, m);
    const auto r = multiply(a, b);
    CHECK(r.macs.value() == double(n) * m * k);
    CHECK(matmul_cost(n, k, m, Dtype::fp16).macs == r.macs);
  }
}

TEST_CASE("ragged, empty or non-finite matrices are refused") {
  CHECK_THROWS_MATCHES(Matrix::from_rows({{1, 2}, {3}}, "a"), Error,
                       Catch::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::ragged_matrix; }));
  CHECK_THROWS_MATCHES(Matrix::from_rows({}, "a"), Error,
                       Catch::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::ragged_matrix; }));
  CHECK_THROWS_MATCHES(Matrix::from_rows({{1, std::numeric_limits<double>::infinity()}}, "b"), Error,
                       Catch::Predicate<Error>([](const Error& e) { return e.code() == ErrorCode::not_finite; }));
}

TEST_CASE("matmul cost of the C01 last layer at batch 32: 32,768,000 MACs, 65,536,000 FLOPs") {
  const MatmulCost c = matmul_cost(32, 2048, 500, Dtype::fp16);
  CHECK(c.result == Shape{32, 500});
  CHECK(c.macs.value() == 32'768'000);
  CHECK(c.flops.value() == 65'536'000);
  CHECK(c.bytes.value() == 2.0 * (32 * 2048 + 2048 * 500 + 32 * 500));
  CHECK(c.intensity.value() == Approx(29.64).margin(0.005));
}

TEST_CASE("two 4,096 matrices in FP16: ≈ 137.4 GFLOPs, ≈ 100.7 MB, ≈ 1,365 FLOPs per byte") {
  const MatmulCost c = matmul_cost(4096, 4096, 4096, Dtype::fp16);
  CHECK(c.flops.value() == 2.0 * 4096 * 4096 * 4096);
  CHECK(c.bytes.value() == 3.0 * 4096 * 4096 * 2);
  CHECK(c.intensity.value() == Approx(4096.0 / 3));
}

TEST_CASE("matmul cost validates every size, and refuses products beyond 2^53") {
  CHECK_THROWS_AS(matmul_cost(0, 1, 1, Dtype::fp16), Error);
  CHECK_THROWS_AS(matmul_cost(1, -1, 1, Dtype::fp16), Error);
  CHECK_THROWS_AS(matmul_cost(1, 1, 2.5, Dtype::fp16), Error);
  try {
    matmul_cost(1e6, 1e6, 1e6, Dtype::fp16);
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::too_large);
  }
}

TEST_CASE("a dense layer is a matmul with names; weights-only intensity equals the batch in FP16") {
  const DenseLayerCost d = dense_layer(64, 784, 128, Dtype::fp16);
  CHECK(d.matmul.macs.value() == 6'422'528);
  CHECK(d.matmul.flops.value() == 12'845'056);
  CHECK(d.matmul.bytes.value() == 317'440);
  CHECK(d.weight_bytes.value() == 784.0 * 128 * 2);
  CHECK(d.weights_only_intensity.value() == 64);
  CHECK(dense_layer(8, 4096, 4096, Dtype::int8).weights_only_intensity.value() == 16);
}

TEST_CASE("a dense layer's exact intensity stays below its limit and approaches it") {
  const DenseLayerCost small = dense_layer(1, 4096, 4096, Dtype::fp16);
  const DenseLayerCost big = dense_layer(1 << 20, 4096, 4096, Dtype::fp16);
  CHECK(small.limit_intensity.value() == 2048);
  CHECK(small.matmul.intensity < big.matmul.intensity);
  CHECK(big.matmul.intensity < big.limit_intensity);
  CHECK(big.matmul.intensity.value() == Approx(2048).epsilon(0.01));
}
