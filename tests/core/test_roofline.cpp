#include <catch2/catch.hpp>
#include <limits>
#include <random>

#include "roofline/error.hpp"
#include "roofline/roofline.hpp"

using namespace roofline;

namespace {
const Device t4{teraflops_per_second(65), gigabytes_per_second(320)};
const Device l4{teraflops_per_second(121), gigabytes_per_second(300)};
}  // namespace

TEST_CASE("ridge points in FP16: T4 203, L4 403, A100 80 GB 153, H100 295") {
  CHECK(ridge(t4).value() == 203.125);
  CHECK(ridge(l4).value() == Approx(403.3).margin(0.05));
  CHECK(ridge({teraflops_per_second(312), gigabytes_per_second(2039)}).value() == Approx(153.0).margin(0.05));
  CHECK(ridge({teraflops_per_second(990), gigabytes_per_second(3350)}).value() == Approx(295.5).margin(0.05));
}

TEST_CASE("T4 at intensity 1: 0.32 TFLOP/s attainable, 0.5 % of peak, 0.005× the ridge, memory-bound") {
  const RooflinePoint p = roofline_point(t4, FlopsPerByte{1});
  CHECK(p.memory_fed.value() == 0.32e12);
  CHECK(p.attainable.value() == 0.32e12);
  CHECK(p.fraction_of_peak == Approx(0.00492).margin(0.00001));
  CHECK(p.intensity_over_ridge == Approx(0.00492).margin(0.00001));
  CHECK(p.bound == Bound::memory);
}

TEST_CASE("the L4 at intensity 1 attains a little less than the T4 despite twice the peak") {
  CHECK(roofline_point(l4, FlopsPerByte{1}).attainable < roofline_point(t4, FlopsPerByte{1}).attainable);
}

TEST_CASE("past the ridge the attainable rate stops growing: the flat roof") {
  CHECK(roofline_point(t4, FlopsPerByte{203.125}).bound == Bound::compute);
  CHECK(roofline_point(t4, FlopsPerByte{203.124}).bound == Bound::memory);
  CHECK(roofline_point(t4, FlopsPerByte{204}).attainable == t4.peak);
  CHECK(roofline_point(t4, FlopsPerByte{1365}).attainable == t4.peak);
  CHECK(roofline_point(t4, FlopsPerByte{1365}).fraction_of_peak == 1);
}

TEST_CASE("the two clocks of the 4,096 matmul on a T4: 2.11 ms compute, 0.31 ms memory") {
  const Clocks c = clocks(Flops{2.0 * 4096 * 4096 * 4096}, Bytes{3.0 * 4096 * 4096 * 2}, t4);
  CHECK(c.compute.value() == Approx(2.1144e-3).margin(0.00005e-3));
  CHECK(c.memory.value() == Approx(0.3146e-3).margin(0.00005e-3));
  CHECK(c.lower_bound == c.compute);
  CHECK(c.bound == Bound::compute);
}

TEST_CASE("property: attainable ≤ peak, monotone in intensity and bandwidth; the larger clock is the roofline time") {
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<double> exponent(-3, 6);
  for (int i = 0; i < 5000; ++i) {
    const Device d{FlopsPerSecond{std::pow(10.0, 12 + exponent(rng) / 3)},
                   BytesPerSecond{std::pow(10.0, 9 + exponent(rng) / 3)}};
    const FlopsPerByte x{std::pow(10.0, exponent(rng))};
    const RooflinePoint p = roofline_point(d, x);
    REQUIRE(p.attainable <= d.peak);
    REQUIRE(p.fraction_of_peak <= 1.0);
    REQUIRE(p.fraction_of_peak > 0.0);
    REQUIRE(roofline_point(d, x * 1.5).attainable >= p.attainable);
    REQUIRE(roofline_point({d.peak, d.bandwidth * 1.5}, x).attainable >= p.attainable);
    const Bytes bytes{std::pow(10.0, 3 + exponent(rng))};
    const Flops flops = x * bytes;
    const Clocks c = clocks(flops, bytes, d);
    REQUIRE(c.lower_bound == std::max(c.compute, c.memory));
    // Time at the roofline rate is the larger clock.
    REQUIRE((flops / p.attainable).value() == Approx(c.lower_bound.value()).epsilon(1e-12));
    REQUIRE((c.bound == Bound::compute) == (c.compute >= c.memory * (1 - 1e-12)));
  }
}

TEST_CASE("time at peak: 65,536,000 FLOPs at 65 TFLOP/s take 0.0010 ms, 991,821 per second") {
  const AtPeak r = time_at_peak(Flops{65'536'000}, teraflops_per_second(65));
  CHECK(r.seconds.value() == Approx(1.0083e-6).margin(1e-10));
  CHECK(std::floor(r.per_second) == 991'821);
}

TEST_CASE("utilization: 9.84 of 65 TFLOP/s is ≈ 15 %; 82 of 65 is impossible") {
  const Utilization u = utilization(FlopsPerSecond{1200 * 8.2e9}, teraflops_per_second(65));
  CHECK(u.fraction == Approx(0.1514).margin(0.0001));
  CHECK(u.possible);
  const Utilization bogus = utilization(FlopsPerSecond{10000 * 8.2e9}, teraflops_per_second(65));
  CHECK_FALSE(bogus.possible);
  CHECK(bogus.fraction > 1);
  CHECK(utilization(FlopsPerSecond{0}, teraflops_per_second(65)).fraction == 0);
}

TEST_CASE("the roofline refuses zero, negative and non-finite inputs, naming the field") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto field_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.field();
    }
    return std::string("none");
  };
  CHECK(field_of([&] { ridge({FlopsPerSecond{0}, t4.bandwidth}); }) == "peakFlopsPerSecond");
  CHECK(field_of([&] { ridge({t4.peak, BytesPerSecond{-1}}); }) == "bytesPerSecond");
  CHECK(field_of([&] { roofline_point(t4, FlopsPerByte{nan}); }) == "flopsPerByte");
  CHECK(field_of([&] { clocks(Flops{0}, Bytes{1}, t4); }) == "flops");
  CHECK(field_of([&] { clocks(Flops{1}, Bytes{0}, t4); }) == "bytes");
  CHECK(field_of([&] { time_at_peak(Flops{1}, FlopsPerSecond{0}); }) == "peakFlopsPerSecond");
  CHECK(field_of([&] { utilization(FlopsPerSecond{-1}, t4.peak); }) == "achievedFlopsPerSecond");
}

TEST_CASE("throughput: 1,200 photos/s × 8.2 GFLOPs = 9.84 TFLOP/s, ≈ 15 % of a T4; 10,000 photos/s is impossible") {
  const Throughput t = throughput(Flops{8.2e9}, 1200, teraflops_per_second(65));
  CHECK(t.achieved.value() == Approx(9.84e12));
  CHECK(t.utilization.fraction == Approx(0.1514).margin(0.0001));
  CHECK(t.utilization.possible);
  CHECK(t.seconds_per_item_at_peak.value() == Approx(0.126e-3).margin(0.0005e-3));
  CHECK(t.ceiling_items_per_second == Approx(7927).margin(1));
  CHECK_FALSE(throughput(Flops{8.2e9}, 10000, teraflops_per_second(65)).utilization.possible);
}

TEST_CASE("total work: a day of C01 is 82 PFLOPs, ≈ 8,333 s at the measured 1,200 photos/s") {
  const TotalWork w = total_work(Flops{8.2e9}, 10'000'000, 1200);
  CHECK(w.flops.value() == Approx(8.2e16));
  CHECK(w.seconds.value() == Approx(8333.3).margin(0.1));
  CHECK(total_work(Flops{1}, 3).seconds.value() == 0);
  CHECK_THROWS_AS(total_work(Flops{1}, 2.5), Error);
}
