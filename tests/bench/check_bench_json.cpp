// Checks a roofline-bench JSON report (and its CSV) against the contract in docs/benchmark.md.
// Usage: roofline_bench_json_check report.json [report.csv]. Exit status 0 when it conforms.
#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

using nlohmann::json;

namespace {
int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "FAIL: " << what << "\n";
    ++failures;
  }
}
bool positive(const json& v) { return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0; }
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: roofline_bench_json_check report.json [report.csv]\n";
    return 2;
  }
  std::ifstream f(argv[1]);
  json j;
  try {
    j = json::parse(f);
  } catch (const std::exception& e) {
    std::cerr << "FAIL: not JSON: " << e.what() << "\n";
    return 1;
  }
  expect(j.value("schema", "") == "roofline-bench/1", "schema is roofline-bench/1");
  expect(j["date"].is_string() && j["date"].get<std::string>().size() >= 20, "date is ISO 8601");
  expect(j["machine"]["name"].is_string(), "machine.name is a string");
  const std::string backend = j.value("backend", "");
  expect(backend == "cpu" || backend == "cuda", "backend is cpu or cuda");
  expect(j["allVerified"] == true, "every kernel verified");
  const json& measured = j["ceilings"]["measured"];
  expect(positive(measured["bytesPerSecond"]), "ceilings.measured.bytesPerSecond > 0");
  expect(positive(measured["peakFlopsPerSecond"]["fp32"]), "ceilings.measured.peakFlopsPerSecond.fp32 > 0");
  expect(j["ceilings"].contains("datasheet"), "ceilings.datasheet present");
  const json& ds = j["ceilings"]["datasheet"];
  expect(ds.is_null() || (positive(ds["bytesPerSecond"]) && ds["peakFlopsPerSecond"].is_object()),
         "ceilings.datasheet is null or has the measured shape");
  expect(j["kernels"].is_array() && !j["kernels"].empty(), "kernels is a non-empty array");
  expect(j["bandwidthKernels"].is_array(), "bandwidthKernels is an array");
  std::set<std::string> ids;
  for (const char* list : {"kernels", "bandwidthKernels"}) {
    const bool points = std::string(list) == "kernels";
    for (const json& k : j[list]) {
      const std::string id = k.value("id", "");
      expect(!id.empty() && ids.insert(id).second, "kernel id unique and non-empty: " + id);
      expect(k["name"].is_string() && k["dtype"].is_string(), id + ": name and dtype are strings");
      // The page plots "kernels" on log-log axes: intensity and rate must be positive there.
      if (points) {
        expect(positive(k["flopsPerByte"]), id + ": flopsPerByte > 0");
        expect(positive(k["flopsPerSecond"]), id + ": flopsPerSecond > 0");
        // its roof is the ceiling of the precision its arithmetic is in: integer dot products
        // (OPS) against the INT8 one, the GEMVs that convert to FP32 first against FP32
        const std::string compute = k.value("computeDtype", "");
        const json& peaks = measured["peakFlopsPerSecond"];
        expect(peaks.contains(compute) && positive(peaks[compute]), id + ": a measured ceiling for its computeDtype " + compute);
        const bool int_dot = id.ends_with("_dp") || id.ends_with("_dp4a");
        if (k.value("family", "") == "gemv" && k.value("dtype", "") != "bf16" && k.value("dtype", "") != "fp32")
          expect(compute == (int_dot ? "int8" : "fp32"), id + ": computeDtype " + (int_dot ? "int8" : "fp32"));
      } else {
        expect(k["flops"] == 0 && k["flopsPerByte"] == 0, id + ": a bandwidth kernel does no FLOPs");
      }
      expect(positive(k["bytesPerSecond"]), id + ": bytesPerSecond > 0");
      const json& t = k["timeSeconds"];
      expect(positive(t["min"]) && t["min"] <= t["median"] && t["median"] <= t["max"], id + ": min ≤ median ≤ max");
      expect(k["predicted"]["measured"].is_object(), id + ": predicted.measured present");
      // CPU GEMVs: the ceiling at the triads timed next to their repetitions.
      if (backend == "cpu" && k.value("family", "") == "gemv") {
        const json& a = k["adjacentCeiling"];
        const bool ok = a.is_object() && positive(a["bytesPerSecond"]) && positive(a["tokensPerSecondCeiling"]) &&
                        positive(a["share"]) && positive(a["bestPairBytesPerSecond"]) && positive(a["medianPairShare"]);
        expect(ok, id + ": adjacentCeiling present with positive rates and shares");
        if (ok) {
          auto near = [](double x, double y) { return std::fabs(x - y) <= 1e-9 * std::fabs(y); };
          expect(near(a["share"].get<double>(),
                      k["tokensPerSecond"].get<double>() / a["tokensPerSecondCeiling"].get<double>()),
                 id + ": adjacentCeiling.share = tokensPerSecond ÷ tokensPerSecondCeiling");
          expect(near(a["tokensPerSecondCeiling"].get<double>(), a["bytesPerSecond"].get<double>() / k["bytes"].get<double>()),
                 id + ": adjacentCeiling.tokensPerSecondCeiling = bytesPerSecond ÷ bytes");
          expect(a["bestPairBytesPerSecond"] <= a["bytesPerSecond"], id + ": the best pair is at most the best neighbour");
          expect(a["pairs"] == k["repetitions"], id + ": one pair of neighbours per repetition");
        }
      }
    }
  }
  for (const char* id : {"copy", "triad", "matmul_naive", "matmul_tiled", "matmul_register", "gemv_bf16", "gemv_int8",
                         "gemv_int4", "gemv_int8_dp", "gemv_int4_dp", "bias_relu_unfused", "bias_relu_fused"}) {
    expect(ids.count(id) == 1, std::string("kernel ") + id + " reported");
  }
  expect(j["ratios"].is_array() && !j["ratios"].empty(), "ratios reported");
  std::set<std::string> ratio_ids;
  if (j["ratios"].is_array())
    for (const json& q : j["ratios"]) ratio_ids.insert(q.value("id", ""));
  for (const char* id : {"gemv_int8_dp_over_bf16", "gemv_int4_dp_over_bf16", "gemv_int8_dp_over_ceiling",
                         "gemv_int4_dp_over_ceiling", "gemv_int8_dp_over_adjacent_ceiling",
                         "gemv_int4_dp_over_adjacent_ceiling"}) {
    expect(ratio_ids.count(id) == 1, std::string("ratio ") + id + " reported");
  }
  // An adjacent ratio is its kernel's share, not a figure of its own.
  for (const json& q : j["ratios"]) {
    const std::string id = q.value("id", "");
    const std::string suffix = "_over_adjacent_ceiling";
    if (id.size() <= suffix.size() || id.compare(id.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const std::string kernel = id.substr(0, id.size() - suffix.size());
    bool matched = false;
    for (const json& k : j["kernels"])
      if (k.value("id", "") == kernel && k["adjacentCeiling"].is_object())
        matched = q["value"] == k["adjacentCeiling"]["share"];
    expect(matched, "ratio " + id + " equals " + kernel + "'s adjacentCeiling.share");
  }
  if (argc > 2) {
    std::ifstream c(argv[2]);
    std::string header, line;
    std::getline(c, header);
    expect(header.find("flops_per_s") != std::string::npos && header.find("time_median_s") != std::string::npos &&
               header.find("bytes_per_s") != std::string::npos,
           "CSV header carries units");
    std::size_t rows = 0;
    while (std::getline(c, line)) ++rows;
    expect(rows == j["kernels"].size() + j["bandwidthKernels"].size(), "CSV has one row per kernel");
  }
  if (failures == 0) std::cout << "report conforms to roofline-bench/1\n";
  return failures == 0 ? 0 : 1;
}
