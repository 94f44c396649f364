// The memory-hierarchy sweep: the host arithmetic the CPU and CUDA backends share
// (common/levels.hpp: sizes from the caches, the level each working set counts for, the best
// point per level), the CPU sweep's verification on small sizes (a corrupted result must fail),
// and the levels in the JSON report.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/analysis.hpp"
#include "bench/output.hpp"
#include "common/levels.hpp"
#include "cpu/kernels.hpp"

using namespace rlk;
using levels::CacheSizes;

namespace {
constexpr std::size_t KiB = 1024, MiB = 1024 * 1024;
const CacheSizes zen3{32 * KiB, 512 * KiB, 32 * MiB, true};
}  // namespace

TEST_CASE("cache sizes parse as Linux writes them", "[levels]") {
  CHECK(levels::parse_cache_size("48K") == 48 * KiB);
  CHECK(levels::parse_cache_size("1024K\n") == MiB);
  CHECK(levels::parse_cache_size("32M") == 32 * MiB);
  CHECK(levels::parse_cache_size("65536") == 65536);
  CHECK(levels::parse_cache_size("") == 0);
  CHECK(levels::parse_cache_size("K") == 0);
  CHECK(levels::parse_cache_size("12 apples") == 0);
}

TEST_CASE("the sweep spans 16 KiB to 4 x the last-level cache and halves of each cache", "[levels]") {
  for (unsigned threads : {1u, 2u, 16u}) {
    const auto sizes = levels::sweep_sizes(zen3, threads);
    REQUIRE(!sizes.empty());
    CHECK(sizes.front() == 16 * KiB);
    CHECK(std::is_sorted(sizes.begin(), sizes.end()));
    CHECK(std::adjacent_find(sizes.begin(), sizes.end()) == sizes.end());
    // the largest is DRAM by the rule, even after a kernel drops a few bytes to whole vector steps
    CHECK(double(threads) * double(sizes.back() - 192) >= 4.0 * double(zen3.l3));
    CHECK(levels::level_of(double(sizes.back() - 192), zen3, threads) == "DRAM");
    for (std::size_t s : sizes) CHECK(s % 4096 == 0);
    auto has = [&](std::size_t s) { return std::find(sizes.begin(), sizes.end(), s) != sizes.end(); };
    CHECK(has(16 * KiB));                                                // L1 ÷ 2
    CHECK(has(256 * KiB));                                               // L2 ÷ 2
    if (16 * MiB / threads > 512 * KiB) CHECK(has(16 * MiB / threads));  // L3 ÷ 2, shared
  }
  // Fallback: a machine that reports nothing still gets every level.
  const CacheSizes f = levels::fallback_caches();
  CHECK_FALSE(f.reported);
  CHECK(f.l1 > 0);
  CHECK(f.l2 > f.l1);
  CHECK(f.l3 > f.l2);
  // A GPU: an L2 only, working sets in total, from 1 MiB.
  const CacheSizes h100{0, 50 * MiB, 0, true};
  const auto gpu = levels::sweep_sizes(h100, 1, MiB, 1 << 16);
  CHECK(gpu.front() == MiB);
  CHECK(gpu.back() >= 200 * MiB);
  CHECK(std::find(gpu.begin(), gpu.end(), 25 * MiB) != gpu.end());
}

TEST_CASE("each working set counts for one level, or for none between levels", "[levels]") {
  CHECK(levels::level_of(16 * KiB, zen3, 2) == "L1");
  CHECK(levels::level_of(32 * KiB, zen3, 2) == "");  // fills L1: neither level
  CHECK(levels::level_of(64 * KiB, zen3, 2) == "L2");
  CHECK(levels::level_of(256 * KiB, zen3, 2) == "L2");
  CHECK(levels::level_of(512 * KiB, zen3, 2) == "");
  CHECK(levels::level_of(1 * MiB, zen3, 2) == "L3");  // 2 MiB in total
  CHECK(levels::level_of(8 * MiB, zen3, 2) == "L3");  // 16 MiB in total = L3 ÷ 2
  CHECK(levels::level_of(8 * MiB, zen3, 4) == "");    // 32 MiB in total
  CHECK(levels::level_of(64 * MiB, zen3, 2) == "DRAM");
  CHECK(levels::level_of(63 * MiB, zen3, 2) == "");
  const CacheSizes gpu{0, 50 * MiB, 0, true};
  CHECK(levels::level_of(16 * MiB, gpu, 1) == "L2");
  CHECK(levels::level_of(200 * MiB, gpu, 1) == "DRAM");
}

TEST_CASE("a level takes the best point that fits it, over both kernels", "[levels]") {
  const std::vector<levels::Point> points = {
      {"dot", 16 * KiB, 300e9},  {"triad", 16 * KiB, 350e9},  {"dot", 32 * KiB, 900e9},  // 32 KiB: no level
      {"dot", 128 * KiB, 200e9}, {"triad", 256 * KiB, 180e9}, {"dot", 4 * MiB, 120e9},
      {"triad", 4 * MiB, NAN},   {"dot", 64 * MiB, 40e9},     {"triad", 64 * MiB, 45e9}};
  const auto ls = levels::select_levels(points, zen3, 2);
  REQUIRE(ls.size() == 4);
  CHECK(ls[0].name == "L1");
  CHECK(ls[0].bytes_per_second == 350e9);
  CHECK(ls[0].kernel == "triad");
  CHECK(ls[1].name == "L2");
  CHECK(ls[1].bytes_per_second == 200e9);
  CHECK(ls[1].working_set_bytes == 128 * KiB);
  CHECK(ls[2].name == "L3");
  CHECK(ls[2].kernel == "dot");
  CHECK(ls[3].name == "DRAM");
  CHECK(ls[3].bytes_per_second == 45e9);
  CHECK(levels::strictly_falling(ls));
  auto flat = ls;
  flat[2].bytes_per_second = flat[1].bytes_per_second;
  CHECK_FALSE(levels::strictly_falling(flat));
  // No L3 points: that level is left out, the others keep their order.
  const auto two = levels::select_levels({{"dot", 16 * KiB, 1e9}, {"dot", 64 * MiB, 2e9}}, zen3, 2);
  REQUIRE(two.size() == 2);
  CHECK(two[0].name == "L1");
  CHECK(two[1].name == "DRAM");
  CHECK_FALSE(levels::strictly_falling(two));
  CHECK(levels::passes_for(16 * KiB, 256.0 * MiB) == 16384);
  CHECK(levels::passes_for(1e12, 1.0) == 1);
}

TEST_CASE("the CPU sweep verifies on small sizes and catches a corrupted result", "[levels]") {
  for (unsigned threads : {1u, 3u}) {
    cpu::ThreadPool pool(threads);
    cpu::LevelArrays arrays(pool, 96 * KiB, 5);
    for (std::size_t bytes : {16 * KiB, 24 * KiB + 100, 96 * KiB}) {
      for (long passes : {1L, 3L}) {
        const std::size_t n = cpu::level_dot_floats(bytes);
        std::string detail;
        auto sums = cpu::level_dot(pool, arrays, n, passes);
        CHECK(cpu::check_level_dot(arrays, n, passes, sums, detail));
        INFO(detail);
        sums.back() += 1;  // one thread's sum off by one
        CHECK_FALSE(cpu::check_level_dot(arrays, n, passes, sums, detail));
        const std::size_t m = cpu::level_triad_floats(bytes);
        for (bool streaming : {false, true}) {
          for (unsigned t = 0; t < threads; ++t) std::fill(arrays.out(t), arrays.out(t) + m, std::nanf(""));
          cpu::level_triad(pool, arrays, m, passes, streaming);
          CHECK(cpu::check_level_triad(arrays, threads, m, detail));
          arrays.out(threads - 1)[m - 1] += 1;  // the last element of the last thread
          CHECK_FALSE(cpu::check_level_triad(arrays, threads, m, detail));
          cpu::level_triad(pool, arrays, m, 1, streaming);
          arrays.out(0)[m / 2] = std::nanf("");  // an unwritten element
          CHECK_FALSE(cpu::check_level_triad(arrays, threads, m, detail));
        }
      }
    }
  }
}

namespace {
bench::Row level_row(Kind kind, double working_set, double seconds, double threads) {
  bench::Row r;
  r.c = make_case(kind == Kind::dot ? "levels_dot" : "levels_triad", "sweep", "level", kind, "fp32", "fp32");
  r.c.working_set_bytes = working_set;
  r.c.n = threads * std::floor(working_set / (kind == Kind::dot ? 8 : 12));
  r.cost = bench::cost_of(r.c);
  r.m.verified = true;
  r.m.seconds = {seconds, 2 * seconds};
  bench::summarize_times(r);
  return r;
}
}  // namespace

TEST_CASE("the report carries the levels in ceilings.measured.levels", "[levels]") {
  bench::Report rep;
  rep.backend = "cpu";
  rep.date = "2026-12-04T00:00:00Z";
  rep.machine.name = "test";
  rep.machine.caches = zen3;
  rep.machine.threads = 2;
  // 2 threads × 16 KiB in 1 µs = 32.8 GB/s … bytes from the core's stream costs.
  rep.rows.push_back(level_row(Kind::dot, 16 * KiB, 1e-7, 2));
  rep.rows.push_back(level_row(Kind::triad, 128 * KiB, 2e-6, 2));
  rep.rows.push_back(level_row(Kind::dot, 4 * MiB, 1e-4, 2));
  rep.rows.push_back(level_row(Kind::dot, 64 * MiB, 5e-3, 2));
  bench::Row copy;
  copy.c = make_case("copy", "copy", "stream", Kind::copy, "fp32", "fp32");
  copy.c.n = 1e6;
  copy.cost = bench::cost_of(copy.c);
  copy.m.verified = true;
  copy.m.seconds = {8e6 / 30e9};
  bench::summarize_times(copy);
  rep.rows.push_back(copy);
  rep.measured = bench::measure_ceilings(rep.rows);
  CHECK(rep.measured.bandwidth_from == "copy");  // a level is no stream ceiling
  CHECK(rep.measured.peaks.count("fp32") == 0);  // nor a compute ceiling
  bench::analyse(rep);
  REQUIRE(rep.measured.levels.size() == 4);
  CHECK(rep.measured.levels[0].bytes_per_second == Approx(2 * 16384 / 1e-7));
  std::ostringstream out;
  bench::write_json(out, rep);
  const auto j = nlohmann::json::parse(out.str());
  const auto& ls = j["ceilings"]["measured"]["levels"];
  REQUIRE(ls.size() == 4);
  CHECK(ls[0]["name"] == "L1");
  CHECK(ls[0]["workingSetBytes"] == 16384);
  CHECK(ls[0]["kernel"] == "dot");
  CHECK(ls[1]["kernel"] == "triad");
  CHECK(ls[3]["name"] == "DRAM");
  CHECK(ls[3]["bytesPerSecond"].get<double>() == Approx(2 * 64.0 * MiB / 5e-3));
  CHECK(j["levelSweep"].size() == 4);
  CHECK(j["kernels"].size() == 0);  // sweep points are not roofline points
  bool ratio = false;
  for (const auto& q : j["ratios"])
    if (q["id"] == "levels_dram_over_bandwidth") {
      ratio = true;
      CHECK(q["value"].get<double>() == Approx((2 * 64.0 * MiB / 5e-3) / 30e9));
    }
  CHECK(ratio);
}

TEST_CASE("the shared checks of a sweep (the CUDA backend's on the host) catch a corrupted result", "[levels]") {
  std::vector<float> in(2 * 1000);
  fill_small_ints(in.data(), in.size(), 9);
  const float* a = in.data();
  const float* b = in.data() + 1000;
  double want = 0;
  for (int i = 0; i < 1000; ++i) want += double(a[i]) * b[i];
  std::string detail;
  CHECK(levels::check_dot(3 * want, a, b, 1000, 3, detail));
  CHECK_FALSE(levels::check_dot(3 * want + 1, a, b, 1000, 3, detail));
  CHECK_FALSE(levels::check_dot(want, a, b, 1000, 3, detail));  // one pass's sum for three
  std::vector<float> out(1000);
  for (int i = 0; i < 1000; ++i) out[i] = a[i] + 3.0f * b[i];
  CHECK(levels::check_triad(out.data(), a, b, 3.0f, 1000, detail));
  out[999] = std::nanf("");
  CHECK_FALSE(levels::check_triad(out.data(), a, b, 3.0f, 1000, detail));
  out[999] = a[999] + 3.0f * b[999] + 1;
  CHECK_FALSE(levels::check_triad(out.data(), a, b, 3.0f, 1000, detail));
}
