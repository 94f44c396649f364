// The browser benchmark's kernels (wasm/measure/kernels.cpp) on small arrays, natively: the
// scalar path the WebAssembly build without SIMD128 runs. The SIMD128 build is checked through
// the module itself (tests/node/measure.test.mjs).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels.hpp"

using namespace roofline::measure;

TEST_CASE("triad writes b[i] + s·c[i] for every length, tails included") {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(8), std::size_t(9), std::size_t(37)}) {
    std::vector<float> a(n, -1.0f), b(n), c(n);
    fill_small_ints(b.data(), n, 1);
    fill_small_ints(c.data(), n, 2);
    triad(a.data(), b.data(), c.data(), 3.0f, n);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(a[i] == float(1 + (i + 1) % 7) + 3.0f * float(1 + (i + 2) % 7));
    const Check k = check_triad(a.data(), b.data(), c.data(), 3.0f, n);
    REQUIRE(k.ok);
    REQUIRE(k.first_bad == n);
  }
}

TEST_CASE("check_triad finds a wrong element and a NaN, and says where") {
  const std::size_t n = 21;
  std::vector<float> a(n), b(n), c(n);
  fill_small_ints(b.data(), n, 1);
  fill_small_ints(c.data(), n, 2);
  triad(a.data(), b.data(), c.data(), 3.0f, n);
  a[13] += 1.0f;
  Check k = check_triad(a.data(), b.data(), c.data(), 3.0f, n);
  REQUIRE_FALSE(k.ok);
  REQUIRE(k.first_bad == 13);
  triad(a.data(), b.data(), c.data(), 3.0f, n);
  a[4] = std::numeric_limits<float>::quiet_NaN();
  k = check_triad(a.data(), b.data(), c.data(), 3.0f, n);
  REQUIRE_FALSE(k.ok);
  REQUIRE(k.first_bad == 4);
}

TEST_CASE("fill_small_ints gives 1..7, exact in FP32, not all equal") {
  std::vector<float> x(10);
  fill_small_ints(x.data(), x.size(), 0);
  REQUIRE(x[0] == 1.0f);
  REQUIRE(x[6] == 7.0f);
  REQUIRE(x[7] == 1.0f);
}

TEST_CASE("the register loop matches its scalar reference, and the check rejects NaN and a wrong sum") {
  for (long iterations : {0L, 1L, 10L, 1000L}) {
    const float got = peak_mul_add(iterations, 0.5f);
    REQUIRE(std::isfinite(got));
    REQUIRE(check_peak(got, iterations, 0.5f));
  }
  // 48 lanes seeded 0.5, 1.5, …: the sum of the seeds before any iteration
  REQUIRE(peak_mul_add(0, 0.5f) == Approx(48 * 0.5 + 47 * 48 / 2.0));
  const float good = peak_mul_add(1000, 0.5f);
  REQUIRE_FALSE(check_peak(good * 1.001f, 1000, 0.5f));
  REQUIRE_FALSE(check_peak(std::numeric_limits<float>::quiet_NaN(), 1000, 0.5f));
  REQUIRE_FALSE(check_peak(std::numeric_limits<float>::infinity(), 1000, 0.5f));
}

TEST_CASE("the register loop does one multiply-add per lane of each chain per iteration") {
  STATIC_REQUIRE(peak_mul_adds_per_iteration == peak_chains * peak_lanes);
  STATIC_REQUIRE(peak_chains >= 8);
  REQUIRE_FALSE(simd_build());  // natively, the scalar path
}
