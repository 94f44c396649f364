// Checks a roofline-bench JSON report (and its CSV): its structure against the schema file
// bench/roofline-bench.schema.json (every field's type, range and presence), then what a schema
// cannot say: the relations between fields (docs/benchmark.md, "JSON"), and what a version has.
//
//   roofline_bench_json_check [--shipped] report.json [report.csv]
//
// Without --shipped (a fresh --quick run): the current version of the schema, every kernel of a
// full CPU run and the GEMV ratios must be there. With --shipped (docs/results/*.json): the
// kernels a run chose (--only), and files of the older version explicitly accepted: a file without
// `levelSweep` predates the hierarchy sweep and the read-only neighbours, so its GEMVs may lack
// `adjacentCeiling` (before 2026-12-01b) or have triads as neighbours, and its integer-dot GEMVs
// may have `computeDtype` fp32 where it measured no INT8 ceiling (before 2026-12-03).
// Exit status 0 when it conforms, 1 when it does not (each failure named on stderr), 2 on usage.
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "json_schema.hpp"

using nlohmann::json;

namespace {
int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "FAIL: " << what << "\n";
    ++failures;
  }
}
bool finite(const json& v) { return v.is_number() && std::isfinite(v.get<double>()); }
bool positive(const json& v) { return finite(v) && v.get<double>() > 0; }
bool text(const json& v) { return v.is_string(); }
/// Relations between numbers hold to the digits written: all of them now (shortest round trip), 6
/// significant digits in files of the older version.
double tolerance = 1e-9;
bool near(double x, double y) { return std::fabs(x - y) <= tolerance * std::fabs(y); }
/// A member that is absent reads as null, never throws.
const json& at(const json& o, const char* key) {
  static const json null;
  return o.is_object() && o.contains(key) ? o[key] : null;
}

/// The current version's measured ceilings list the levels (the schema allows their absence in
/// the older one).
void check_ceilings(const json& c, bool current) {
  if (current) expect(at(c, "levels").is_array(), "ceilings.measured.levels is an array");
}

/// ceilings.measured.levels: L1, L2, L3, DRAM in that order (any may be missing), each the best
/// of the sweep's points at its working set.
void check_levels(const json& levels, const json& sweep) {
  if (!levels.is_array()) return;
  const char* order[] = {"L1", "L2", "L3", "DRAM"};
  int last = -1;
  for (const json& l : levels) {
    const std::string name = at(l, "name").is_string() ? at(l, "name").get<std::string>() : "";
    int rank = -1;
    for (int i = 0; i < 4; ++i)
      if (name == order[i]) rank = i;
    if (rank < 0) continue;  // the schema names it
    expect(rank > last, "levels in order L1, L2, L3, DRAM, each once: " + name);
    last = std::max(last, rank);
    bool found = false;
    if (sweep.is_array())
      for (const json& p : sweep)
        found = found || (at(p, "kernel") == at(l, "kernel") && at(p, "workingSetBytes") == at(l, "workingSetBytes") &&
                          at(p, "bytesPerSecond") == at(l, "bytesPerSecond"));
    expect(found, "level " + name + ": one of levelSweep's points");
  }
}

void check_sweep(const json& sweep) {
  if (!sweep.is_array()) return;
  std::set<std::string> ids;
  for (const json& p : sweep) {
    const std::string id = at(p, "id").is_string() ? at(p, "id").get<std::string>() : "";
    expect(ids.insert(id).second, "levelSweep id unique: " + id);
    if (at(p, "verified") == true) {
      expect(positive(at(p, "bytesPerSecond")), id + ": bytesPerSecond > 0");
      const json& t = at(p, "timeSeconds");
      expect(positive(at(t, "min")) && at(t, "min") <= at(t, "median") && at(t, "median") <= at(t, "max"),
             id + ": min ≤ median ≤ max");
      if (positive(at(p, "bytesPerSecond")) && positive(at(t, "min")))
        expect(near(at(p, "bytesPerSecond").get<double>(), at(p, "bytes").get<double>() / at(t, "min").get<double>()),
               id + ": bytesPerSecond = bytes ÷ timeSeconds.min");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool shipped = false;
  int arg = 1;
  if (arg < argc && std::strcmp(argv[arg], "--shipped") == 0) {
    shipped = true;
    ++arg;
  }
  if (arg >= argc) {
    std::cerr << "usage: roofline_bench_json_check [--shipped] report.json [report.csv]\n";
    return 2;
  }
  const std::string path = argv[arg];
  std::ifstream f(path);
  json j;
  try {
    j = json::parse(f);
  } catch (const std::exception& e) {
    std::cerr << "FAIL: " << path << " is not JSON: " << e.what() << "\n";
    return 1;
  }
  // the structure, as the schema file says it
  std::ifstream schema_file(ROOFLINE_BENCH_SCHEMA);
  const roofline::testing::JsonSchema schema(json::parse(schema_file));
  for (const std::string& e : schema.errors(j)) expect(false, e);
  if (!j.is_object()) return 1;
  // The current version has levelSweep (possibly empty); older files are accepted only when shipped.
  const bool current = j.contains("levelSweep");
  if (!current) tolerance = 1e-5;
  if (!shipped) expect(current, "levelSweep present (the current version of the schema)");
  const std::string backend = at(j, "backend").is_string() ? at(j, "backend").get<std::string>() : "";
  const json& ceilings = at(j, "ceilings");
  const json& measured = at(ceilings, "measured");
  check_ceilings(measured, current);
  check_sweep(at(j, "levelSweep"));
  check_levels(at(measured, "levels"), at(j, "levelSweep"));
  const json& peaks = at(measured, "peakFlopsPerSecond");
  const bool int8_ceiling = peaks.is_object() && peaks.contains("int8");

  std::set<std::string> ids;
  bool dot_timed = false;
  for (const char* list : {"bandwidthKernels", "kernels"})
    for (const json& k : at(j, list))
      if (at(k, "id") == "dot") dot_timed = true;
  for (const char* list : {"kernels", "bandwidthKernels"}) {
    const bool points = std::string(list) == "kernels";
    if (!at(j, list).is_array()) continue;
    for (const json& k : at(j, list)) {
      const std::string id = at(k, "id").is_string() ? at(k, "id").get<std::string>() : "";
      expect(ids.insert(id).second, "kernel id unique: " + id);
      // the working set (bytes per thread on the CPU), in files written since it was added
      if (k.contains("workingSetBytes")) {
        expect(!positive(at(k, "workingSetBytes")) || !positive(at(k, "bytes")) ||
                   at(k, "workingSetBytes").get<double>() <= at(k, "bytes").get<double>(),
               id + ": workingSetBytes ≤ bytes");
      } else {
        expect(shipped, id + ": workingSetBytes present (the current version of the schema)");
      }
      // The page plots "kernels" on log-log axes: intensity and rate must be positive there.
      if (points) {
        expect(positive(at(k, "flopsPerByte")), id + ": flopsPerByte > 0");
        expect(positive(at(k, "flopsPerSecond")), id + ": flopsPerSecond > 0");
        // its roof is the ceiling of the precision its arithmetic is in: integer dot products
        // (OPS) against the INT8 one, the GEMVs that convert to FP32 first against FP32
        const std::string compute = at(k, "computeDtype").is_string() ? at(k, "computeDtype").get<std::string>() : "";
        expect(peaks.is_object() && peaks.contains(compute) && positive(peaks[compute]),
               id + ": a measured ceiling for its computeDtype " + compute);
        const bool int_dot = id.ends_with("_dp") || id.ends_with("_dp4a");
        const std::string want = int_dot && (current || int8_ceiling) ? "int8" : "fp32";
        if (at(k, "family") == "gemv" && at(k, "dtype") != "bf16" && at(k, "dtype") != "fp32")
          expect(compute == want, id + ": computeDtype " + want);
      } else {
        expect(at(k, "flops") == 0 && at(k, "flopsPerByte") == 0, id + ": a bandwidth kernel does no FLOPs");
      }
      const json& t = at(k, "timeSeconds");
      expect(!positive(at(t, "min")) || (at(t, "min") <= at(t, "median") && at(t, "median") <= at(t, "max")),
             id + ": min ≤ median ≤ max");
      if (positive(at(k, "bytesPerSecond")) && positive(at(t, "min")))
        expect(near(at(k, "bytesPerSecond").get<double>(), at(k, "bytes").get<double>() / at(t, "min").get<double>()),
               id + ": bytesPerSecond = bytes ÷ timeSeconds.min");
      expect(at(at(k, "predicted"), "measured").is_object(), id + ": predicted.measured is not null");
      if (at(k, "family") != "gemv") continue;
      expect(positive(at(k, "tokensPerSecond")), id + ": tokensPerSecond > 0");
      expect(at(k, "tokensPerSecondCeiling").is_object(), id + ": tokensPerSecondCeiling {measured, datasheet}");
      // CPU GEMVs: the ceiling at the streams timed next to their repetitions.
      const json& a = at(k, "adjacentCeiling");
      if (backend == "cpu" && (current || !a.is_null())) {
        const bool ok = a.is_object() && positive(at(a, "bytesPerSecond")) &&
                        positive(at(a, "tokensPerSecondCeiling")) && positive(at(a, "share")) &&
                        positive(at(a, "bestPairBytesPerSecond")) && positive(at(a, "medianPairShare"));
        expect(ok, id + ": adjacentCeiling present with positive rates and shares");
        if (ok) {
          expect(near(at(a, "share").get<double>(),
                      at(k, "tokensPerSecond").get<double>() / at(a, "tokensPerSecondCeiling").get<double>()),
                 id + ": adjacentCeiling.share = tokensPerSecond ÷ tokensPerSecondCeiling");
          expect(near(at(a, "tokensPerSecondCeiling").get<double>(),
                      at(a, "bytesPerSecond").get<double>() / at(k, "bytes").get<double>()),
                 id + ": adjacentCeiling.tokensPerSecondCeiling = bytesPerSecond ÷ bytes");
          expect(at(a, "bestPairBytesPerSecond") <= at(a, "bytesPerSecond"),
                 id + ": the best pair is at most the best neighbour");
          expect(at(a, "pairs") == at(k, "repetitions"), id + ": one pair of neighbours per repetition");
          if (current) {
            expect(at(a, "neighbour") == "dot", id + ": adjacentCeiling.neighbour is the read-only dot");
            expect(at(a, "steady").is_boolean() && positive(at(a, "medianBytesPerSecond")) &&
                       at(a, "medianBytesPerSecond") <= at(a, "bytesPerSecond"),
                   id + ": adjacentCeiling.steady and medianBytesPerSecond ≤ bytesPerSecond");
            expect(at(a, "steady") == true || text(at(a, "unsteady")), id + ": an unsteady neighbourhood says why");
          } else {
            expect(at(a, "neighbour") == "triad", id + ": adjacentCeiling.neighbour is triad (older version)");
          }
        }
      }
      // The ceiling at the run's read-only stream (current version, where the run timed one).
      const json& rc = at(k, "readCeiling");
      if (current && backend == "cpu" && dot_timed)
        expect(rc.is_object(), id + ": readCeiling present (the run timed dot)");
      if (rc.is_object()) {
        const bool ok = (at(rc, "from") == "dot" || at(rc, "from") == "DRAM level") &&
                        positive(at(rc, "bytesPerSecond")) && positive(at(rc, "tokensPerSecondCeiling")) &&
                        positive(at(rc, "share"));
        expect(ok, id + ": readCeiling {from, bytesPerSecond, tokensPerSecondCeiling, share}");
        if (ok) {
          expect(near(at(rc, "share").get<double>(),
                      at(k, "tokensPerSecond").get<double>() / at(rc, "tokensPerSecondCeiling").get<double>()),
                 id + ": readCeiling.share = tokensPerSecond ÷ tokensPerSecondCeiling");
          expect(near(at(rc, "tokensPerSecondCeiling").get<double>(),
                      at(rc, "bytesPerSecond").get<double>() / at(k, "bytes").get<double>()),
                 id + ": readCeiling.tokensPerSecondCeiling = bytesPerSecond ÷ bytes");
        }
      }
    }
  }
  if (!shipped) {
    for (const char* id :
         {"copy", "triad", "dot", "matmul_naive", "matmul_tiled", "matmul_register", "gemv_bf16", "gemv_int8",
          "gemv_int4", "gemv_int8_dp", "gemv_int4_dp", "bias_relu_unfused", "bias_relu_fused"}) {
      expect(ids.count(id) == 1, std::string("kernel ") + id + " reported");
    }
    expect(at(j, "levelSweep").is_array() && !at(j, "levelSweep").empty(), "levelSweep has points");
    expect(at(measured, "levels").is_array() && !at(measured, "levels").empty(),
           "ceilings.measured.levels has a level");
  }
  const json& ratios = at(j, "ratios");
  std::set<std::string> ratio_ids;
  if (ratios.is_array())
    for (const json& q : ratios) {
      const std::string id = at(q, "id").is_string() ? at(q, "id").get<std::string>() : "";
      ratio_ids.insert(id);
      if (finite(at(q, "value")) && finite(at(q, "target")) && at(q, "met").is_boolean()) {
        const double v = at(q, "value").get<double>();
        const bool below = !q.contains("upper") || (finite(at(q, "upper")) && v <= at(q, "upper").get<double>());
        expect(at(q, "met").get<bool>() == (v >= at(q, "target").get<double>() && below),
               "ratio " + id + ": met = value ≥ target (and ≤ upper)");
      }
    }
  if (!shipped)
    for (const char* id :
         {"gemv_int8_dp_over_bf16", "gemv_int4_dp_over_bf16", "gemv_int8_dp_over_ceiling", "gemv_int4_dp_over_ceiling",
          "gemv_int8_dp_over_adjacent_ceiling", "gemv_int4_dp_over_adjacent_ceiling", "gemv_int8_dp_over_read_ceiling",
          "gemv_int4_dp_over_read_ceiling"})
      expect(ratio_ids.count(id) == 1, std::string("ratio ") + id + " reported");
  // An adjacent (read) ratio is its kernel's share, not a figure of its own.
  for (const auto& [suffix, field] : {std::pair<std::string, const char*>{"_over_adjacent_ceiling", "adjacentCeiling"},
                                      {"_over_read_ceiling", "readCeiling"}}) {
    if (!ratios.is_array()) break;
    for (const json& q : ratios) {
      const std::string id = at(q, "id").is_string() ? at(q, "id").get<std::string>() : "";
      if (id.size() <= suffix.size() || id.compare(id.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
      const std::string kernel = id.substr(0, id.size() - suffix.size());
      bool matched = false;
      for (const json& k : at(j, "kernels"))
        if (at(k, "id") == kernel && at(k, field).is_object()) matched = at(q, "value") == at(at(k, field), "share");
      expect(matched, "ratio " + id + " equals " + kernel + "'s " + field + ".share");
    }
  }
  if (arg + 1 < argc) {
    std::ifstream c(argv[arg + 1]);
    std::string header, line;
    std::getline(c, header);
    expect(header.find("flops_per_s") != std::string::npos && header.find("time_median_s") != std::string::npos &&
               header.find("bytes_per_s") != std::string::npos,
           "CSV header carries units");
    std::size_t rows = 0;
    while (std::getline(c, line)) ++rows;
    const std::size_t want = at(j, "kernels").size() + at(j, "bandwidthKernels").size() +
                             (at(j, "levelSweep").is_array() ? at(j, "levelSweep").size() : 0);
    expect(rows == want, "CSV has one row per kernel and sweep point");
  }
  if (failures == 0)
    std::cout << path << ": conforms to roofline-bench/1" << (current ? "" : " (older version)") << "\n";
  return failures == 0 ? 0 : 1;
}
