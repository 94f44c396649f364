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
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(8), std::size_t(9), std::size_t(37)}) {
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

TEST_CASE("dot is exact on its inputs, tails included, and equals the double reference") {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(15), std::size_t(16), std::size_t(17),
                        std::size_t(223), std::size_t(224), std::size_t(1000), std::size_t(4099)}) {
    std::vector<float> a(n), b(n);
    fill_dot_inputs(a.data(), b.data(), n);
    double want = 0;
    for (std::size_t i = 0; i < n; ++i) want += double(1 + i % 7) * ((i / 16) % 2 ? -1.0 : 1.0);
    REQUIRE(dot_reference(a.data(), b.data(), n) == want);
    const float got = dot(a.data(), b.data(), n);
    REQUIRE(double(got) == want);
    REQUIRE(check_dot(got, want));
  }
}

TEST_CASE("dot stays exact on the sweep's sizes (16 KiB to 256 MiB of two arrays), where a plain FP32 sum would not") {
  // the largest size takes 256 MiB here too: the sum must be exact at every size the browser times
  for (std::size_t bytes = std::size_t(1) << 14; bytes <= (std::size_t(1) << 28); bytes <<= 2) {
    const std::size_t n = bytes / 8;
    std::vector<float> a(n), b(n);
    fill_dot_inputs(a.data(), b.data(), n);
    const double want = dot_reference(a.data(), b.data(), n);
    INFO(bytes << " bytes: reference " << want);
    REQUIRE(want != 0);  // a kernel that summed nothing would not pass
    REQUIRE(std::fabs(want) < 16 * 8 * 7);
    REQUIRE(check_dot(dot(a.data(), b.data(), n), want));
  }
  // the inputs matter: all-positive values of the same size lose exactness in one FP32 sum
  const std::size_t n = std::size_t(1) << 25;
  std::vector<float> a(n, 7.0f), b(n, 1.0f);
  float naive = 0;
  for (std::size_t i = 0; i < n; ++i) naive += a[i] * b[i];
  REQUIRE_FALSE(double(naive) == dot_reference(a.data(), b.data(), n));
}

TEST_CASE("check_dot rejects a wrong sum, NaN and infinity") {
  const std::size_t n = 1000;
  std::vector<float> a(n), b(n);
  fill_dot_inputs(a.data(), b.data(), n);
  const double want = dot_reference(a.data(), b.data(), n);
  REQUIRE(check_dot(dot(a.data(), b.data(), n), want));
  // one element changed: the sum changes
  a[517] += 1.0f;
  REQUIRE_FALSE(check_dot(dot(a.data(), b.data(), n), want));
  // one element skipped: the sum changes
  a[517] -= 1.0f;
  REQUIRE_FALSE(check_dot(dot(a.data(), b.data(), n - 1), want));
  REQUIRE_FALSE(check_dot(std::numeric_limits<float>::quiet_NaN(), want));
  REQUIRE_FALSE(check_dot(std::numeric_limits<float>::infinity(), want));
}

TEST_CASE("fill_dot_inputs writes its patterns to the last element, whatever n") {
  for (std::size_t n : {std::size_t(5), std::size_t(224), std::size_t(225), std::size_t(100007)}) {
    std::vector<float> a(n, -9.0f), b(n, -9.0f);
    fill_dot_inputs(a.data(), b.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(a[i] == float(1 + i % 7));
      REQUIRE(b[i] == ((i / 16) % 2 ? -1.0f : 1.0f));
    }
  }
}
