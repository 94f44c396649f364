// The benchmark's analysis on synthetic rows: the ceiling timed next to each GEMV (the triads
// before and after each of its repetitions), the ratios built on it, and its JSON fields.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/analysis.hpp"
#include "bench/output.hpp"

using namespace rlk;
using namespace rlk::bench;

namespace {

constexpr double triad_n = 1e6;

Row gemv_row(const std::string& id, const std::string& dtype, std::vector<double> seconds, std::vector<double> before,
             std::vector<double> after) {
  Row r;
  r.c = make_case(id, id, "gemv", Kind::gemv, dtype, "fp32");
  r.c.m = 1024;
  r.c.k = 1024;
  r.c.n = 1;
  if (dtype != "bf16") {
    r.c.group = 128;
    r.c.scale_dtype = "bf16";
  }
  r.cost = cost_of(r.c);
  r.m.verified = true;
  r.m.seconds = std::move(seconds);
  Neighbours nb;
  nb.kind = Kind::triad;
  nb.n = triad_n;
  nb.dtype = "fp32";
  nb.before_seconds = std::move(before);
  nb.after_seconds = std::move(after);
  r.m.neighbours = std::move(nb);
  summarize_times(r);
  return r;
}

Row triad_row(double seconds) {
  Row r;
  r.c = make_case("triad", "triad", "stream", Kind::triad, "fp32", "fp32");
  r.c.n = triad_n;
  r.cost = cost_of(r.c);
  r.m.verified = true;
  r.m.seconds = {seconds, 2 * seconds};
  summarize_times(r);
  return r;
}

double triad_bytes() { return roofline::stream_triad_cost(triad_n, roofline::Dtype::fp32).bytes.value(); }

const Ratio* ratio(const Report& rep, const std::string& id) {
  for (const Ratio& q : rep.ratios)
    if (q.id == id) return &q;
  return nullptr;
}

}  // namespace

TEST_CASE("the adjacent ceiling: the best neighbouring triad, the best repetition's own pair, the median pair") {
  REQUIRE(triad_bytes() == 12e6);  // 3 arrays of 4-byte floats
  // Repetition 1 is the GEMV's best (2 ms); its faster neighbour took 1.0 ms. The fastest
  // neighbour of all (0.8 ms) sits next to repetition 2.
  const Row r =
      gemv_row("gemv_int8_dp", "int8", {0.004, 0.002, 0.003}, {0.001, 0.0015, 0.0008}, {0.0012, 0.0010, 0.002});
  const auto a = adjacent_ceiling(r);
  REQUIRE(a);
  const double bytes = r.cost.bytes.value();
  CHECK(a->pairs == 3);
  CHECK(a->bandwidth.value() == Approx(12e6 / 0.0008));
  CHECK(a->tokens_ceiling == Approx((12e6 / 0.0008) / bytes));
  CHECK(a->share == Approx(500.0 / a->tokens_ceiling));
  CHECK(a->best_pair_bandwidth.value() == Approx(12e6 / 0.0010));
  CHECK(a->best_pair_share == Approx(500.0 * bytes / (12e6 / 0.0010)));
  // Per repetition: 250 (ceiling at 12 GB/s), 500 (12 GB/s), 333.3 (15 GB/s) tokens/s.
  const double shares[] = {250 * bytes / 12e9, 500 * bytes / 12e9, (1 / 0.003) * bytes / 15e9};
  CHECK(a->median_pair_share == Approx(shares[2]));  // the middle of 20.8, 22.2, 41.7 × bytes ÷ 10⁹
  // The best neighbour can only raise the ceiling over the best repetition's own pair.
  CHECK(a->share <= a->best_pair_share);
}

TEST_CASE("the adjacent ceiling: an even count of repetitions takes the mean of the two middle shares") {
  const Row r = gemv_row("gemv_bf16", "bf16", {0.01, 0.02}, {0.001, 0.002}, {0.001, 0.002});
  const auto a = adjacent_ceiling(r);
  REQUIRE(a);
  const double bytes = r.cost.bytes.value();
  const double s0 = 100 * bytes / 12e9, s1 = 50 * bytes / 6e9;
  CHECK(a->median_pair_share == Approx(0.5 * (s0 + s1)));
  CHECK(a->best_pair_share == Approx(s0));
}

TEST_CASE("the adjacent ceiling: none without neighbours, or without one of each per repetition") {
  Row r = gemv_row("gemv_int8_dp", "int8", {0.004, 0.002}, {0.001, 0.001}, {0.001, 0.001});
  REQUIRE(adjacent_ceiling(r));
  r.m.neighbours->after_seconds.pop_back();
  CHECK_FALSE(adjacent_ceiling(r));
  r.m.neighbours.reset();
  CHECK_FALSE(adjacent_ceiling(r));
}

TEST_CASE("analyse: adjacent ratios next to the run-wide ones, each from its own ceiling") {
  Report rep;
  rep.backend = "cpu";
  // The run-wide ceiling (triad, 12e6 B in 0.5 ms: 24 GB/s) is twice the fastest neighbour of
  // the GEMVs (12 GB/s): the two ratios must differ by that factor.
  rep.rows.push_back(triad_row(0.0005));
  rep.rows.push_back(gemv_row("gemv_bf16", "bf16", {0.004, 0.003}, {0.001, 0.001}, {0.0015, 0.001}));
  rep.rows.push_back(gemv_row("gemv_int8_dp", "int8", {0.002, 0.0015}, {0.001, 0.002}, {0.002, 0.0011}));
  rep.rows.push_back(gemv_row("gemv_int4_dp", "int4", {0.001, 0.0011}, {0.001, 0.001}, {0.001, 0.001}));
  rep.measured = measure_ceilings(rep.rows);
  REQUIRE(rep.measured.bandwidth.value() == Approx(24e9));
  analyse(rep);
  for (const char* kernel : {"int8", "int4"}) {
    const std::string k = kernel;
    const Ratio* run_wide = ratio(rep, "gemv_" + k + "_dp_over_ceiling");
    const Ratio* adjacent = ratio(rep, "gemv_" + k + "_dp_over_adjacent_ceiling");
    REQUIRE(run_wide);
    REQUIRE(adjacent);
    const Row& row = rep.rows[k == "int8" ? 2 : 3];
    REQUIRE(row.adjacent);
    CHECK(adjacent->value == row.adjacent->share);
    CHECK(adjacent->value == Approx(2 * run_wide->value));
    CHECK(run_wide->value == Approx(row.tokens_per_second / *row.tokens_ceiling_measured));
    CHECK(adjacent->target == (k == "int8" ? 0.85 : 0.70));
    CHECK(adjacent->met() == (adjacent->value >= adjacent->target));
  }
  // Without neighbours (as from the CUDA backend) there is no adjacent ratio, and the run-wide one stays.
  Report gpu = rep;
  for (Row& r : gpu.rows) r.m.neighbours.reset();
  gpu.ratios.clear();
  analyse(gpu);
  CHECK(ratio(gpu, "gemv_int8_dp_over_ceiling"));
  CHECK_FALSE(ratio(gpu, "gemv_int8_dp_over_adjacent_ceiling"));
  CHECK_FALSE(gpu.rows[2].adjacent);
}

TEST_CASE("JSON: every GEMV has adjacentCeiling, its share = tokens/s ÷ its ceiling, ceiling = bytes/s ÷ bytes") {
  Report rep;
  rep.backend = "cpu";
  rep.date = "2026-12-01T00:00:00Z";
  rep.rows.push_back(triad_row(0.0005));
  rep.rows.push_back(
      gemv_row("gemv_int8_dp", "int8", {0.002, 0.0015, 0.0017}, {0.001, 0.002, 0.0012}, {0.002, 0.0011, 0.0009}));
  Row plain = gemv_row("gemv_int4", "int4", {0.001}, {0.001}, {0.001});
  plain.m.neighbours.reset();
  rep.rows.push_back(plain);
  rep.measured = measure_ceilings(rep.rows);
  analyse(rep);
  std::ostringstream out;
  write_json(out, rep);
  const auto j = nlohmann::json::parse(out.str());
  int seen = 0;
  for (const auto& k : j["kernels"]) {
    if (k["family"] != "gemv") continue;
    REQUIRE(k.contains("adjacentCeiling"));
    const auto& a = k["adjacentCeiling"];
    if (k["id"] == "gemv_int4") {
      CHECK(a.is_null());
      continue;
    }
    ++seen;
    CHECK(a["neighbour"] == "triad");
    CHECK(a["pairs"] == 3);
    CHECK(a["tokensPerSecondCeiling"].get<double>() ==
          Approx(a["bytesPerSecond"].get<double>() / k["bytes"].get<double>()));
    CHECK(a["share"].get<double>() ==
          Approx(k["tokensPerSecond"].get<double>() / a["tokensPerSecondCeiling"].get<double>()));
    CHECK(a["bestPairBytesPerSecond"].get<double>() <= a["bytesPerSecond"].get<double>());
    CHECK(a["bytesPerSecond"].get<double>() == Approx(12e6 / 0.0009));
  }
  CHECK(seen == 1);
  bool found = false;
  for (const auto& q : j["ratios"])
    if (q["id"] == "gemv_int8_dp_over_adjacent_ceiling") {
      found = true;
      CHECK(q["target"] == 0.85);
    }
  CHECK(found);
}
