#include "output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>

#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/json.hpp"
#include "roofline/kernel_costs.hpp"

namespace rlk::bench {
namespace {

// Shortest text that reads back as the same double (the core's formatting), so sizes and counts
// in the files are exact.
std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  return roofline::format_number(v);
}

std::string fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

template <class T>
std::string opt(const std::optional<T>& v) {
  return v ? num(double(*v)) : "null";
}

/// A rate of arithmetic in `dtype`: OP/s for integers (INT8, INT4), FLOP/s for floating point.
const char* rate_unit(const std::string& dtype) {
  try {
    return roofline::is_integer(roofline::parse_dtype(dtype)) ? "OP/s" : "FLOP/s";
  } catch (const roofline::Error&) {
    return "FLOP/s";
  }
}

std::string si(double v, const char* unit) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int p = 0;
  while (std::fabs(v) >= 1000 && p < 5) {
    v /= 1000;
    ++p;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%7.3g %s%s", v, prefixes[p], unit);
  return buf;
}

// The JSON report is built as the core's json::Value and written by json::write_json
// (roofline/json.hpp): one writer for the core's API and the benchmark. Non-finite numbers become
// null (the core's writer would write NaN, which JSON has not).
using roofline::json::Value;

Value number(double v) { return std::isfinite(v) ? Value(v) : Value(); }

template <class T>
Value opt_number(const std::optional<T>& v) {
  return v ? number(double(*v)) : Value();
}

Value levels_value(const std::vector<levels::Level>& ls) {
  Value list = Value::array();
  for (const levels::Level& l : ls)
    list.push(Value::object()
                  .set("name", l.name)
                  .set("workingSetBytes", number(l.working_set_bytes))
                  .set("bytesPerSecond", number(l.bytes_per_second))
                  .set("kernel", l.kernel));
  return list;
}

Value ceilings_value(const Ceilings& c, bool with_levels) {
  Value peaks = Value::object(), from = Value::object();
  for (const auto& [dtype, peak] : c.peaks) peaks.set(dtype, number(peak.value()));
  for (const auto& [dtype, id] : c.peak_from) from.set(dtype, id);
  Value v = Value::object();
  v.set("bytesPerSecond", number(c.bandwidth.value())).set("peakFlopsPerSecond", peaks);
  v.set("bandwidthFrom", c.bandwidth_from).set("peakFrom", from);
  if (with_levels) v.set("levels", levels_value(c.levels));
  return v;
}

Value prediction_value(const std::optional<Prediction>& p) {
  if (!p) return Value();
  return Value::object()
      .set("flopsPerSecond", number(p->flops_per_second.value()))
      .set("bytesPerSecond", number(p->bytes_per_second.value()))
      .set("measuredOverPredicted", number(p->measured_over_predicted))
      .set("bound", p->bound);
}

/// What a kernel's arrays hold: the working set a memory level must hold for the kernel to run at
/// that level's speed. The streams, GEMVs and dense layers are counted by the core with each
/// array once, so their bytes are it; a matmul's count is its traffic through its tiles (the
/// naive kernel reads B once per row of A), and an unfused bias + ReLU reads its intermediate
/// back: their working set is every matrix once, the ideal matmul's bytes (and the bias).
double working_set_bytes(const Row& row) {
  const roofline::Dtype d = roofline::parse_dtype(row.c.dtype);
  if (row.c.family == "matmul") return roofline::matmul_ideal_cost(row.c.n, row.c.k, row.c.m, d).bytes.value();
  if (row.c.family == "fusion") return roofline::bias_relu_cost(row.c.n, row.c.k, row.c.m, d, true).bytes.value();
  return row.cost.bytes.value();
}

/// `threads`: how many threads share a CPU kernel's arrays (1 on a GPU), so that its working set
/// is given as the levels' are: per thread on the CPU, in total on the GPU.
Value kernel_value(const Row& row, double threads) {
  Value shape = Value::object();
  shape.set("n", number(row.c.n)).set("k", number(row.c.k)).set("m", number(row.c.m));
  if (row.c.group > 0) shape.set("groupSize", number(row.c.group)).set("scaleDtype", row.c.scale_dtype);
  if (row.c.tile_rows > 0) shape.set("tileRows", number(row.c.tile_rows)).set("tileCols", number(row.c.tile_cols));
  Value k = Value::object();
  k.set("id", row.c.id).set("name", row.c.name).set("family", row.c.family).set("dtype", row.c.dtype);
  k.set("computeDtype", row.c.compute_dtype).set("vendor", row.c.vendor).set("shape", shape);
  k.set("flops", number(row.cost.flops.value())).set("bytes", number(row.cost.bytes.value()));
  k.set("flopsPerByte", number(row.cost.intensity.value()));
  k.set("workingSetBytes", number(working_set_bytes(row) / threads));
  k.set("verified", row.m.verified).set("verification", row.m.detail);
  if (row.m.seconds.empty()) {
    k.set("flopsPerSecond", Value());
    return k;
  }
  k.set("repetitions", double(row.m.seconds.size()));
  k.set(
      "timeSeconds",
      Value::object().set("min", number(row.t_min)).set("median", number(row.t_median)).set("max", number(row.t_max)));
  k.set("flopsPerSecond", number(row.flops_per_second.value()));
  k.set("bytesPerSecond", number(row.bytes_per_second.value()));
  k.set("predicted", Value::object()
                         .set("measured", prediction_value(row.from_measured))
                         .set("datasheet", prediction_value(row.from_datasheet)));
  if (row.c.family == "gemv") {
    k.set("tokensPerSecond", number(row.tokens_per_second));
    k.set("tokensPerSecondCeiling", Value::object()
                                        .set("measured", opt_number(row.tokens_ceiling_measured))
                                        .set("datasheet", opt_number(row.tokens_ceiling_datasheet)));
    Value adjacent;
    if (const auto& a = row.adjacent) {
      adjacent = Value::object();
      adjacent.set("neighbour", a->neighbour).set("pairs", double(a->pairs));
      adjacent.set("bytesPerSecond", number(a->bandwidth.value()));
      adjacent.set("tokensPerSecondCeiling", number(a->tokens_ceiling)).set("share", number(a->share));
      adjacent.set("bestPairBytesPerSecond", number(a->best_pair_bandwidth.value()));
      adjacent.set("bestPairShare", number(a->best_pair_share)).set("medianPairShare", number(a->median_pair_share));
      adjacent.set("medianBytesPerSecond", number(a->median_bandwidth.value()));
      adjacent.set("steady", a->steady);
      if (!a->steady) adjacent.set("unsteady", a->unsteady_why);
    }
    k.set("adjacentCeiling", adjacent);
    Value read;
    if (const auto& rc = row.read_ceiling) {
      read = Value::object();
      read.set("from", rc->from).set("bytesPerSecond", number(rc->bandwidth.value()));
      read.set("tokensPerSecondCeiling", number(rc->tokens_ceiling)).set("share", number(rc->share));
    }
    k.set("readCeiling", read);
  }
  return k;
}

/// A level sweep's point: the kernel, the working set and the rate, with its verification.
Value sweep_value(const Row& row) {
  Value p = Value::object();
  p.set("id", row.c.id).set("kernel", row.c.kind == Kind::dot ? "dot" : "triad");
  p.set("workingSetBytes", number(row.c.working_set_bytes));
  p.set("bytes", number(row.cost.bytes.value()));
  p.set("verified", row.m.verified).set("verification", row.m.detail);
  if (!row.m.seconds.empty()) {
    p.set("repetitions", double(row.m.seconds.size()));
    p.set("timeSeconds", Value::object()
                             .set("min", number(row.t_min))
                             .set("median", number(row.t_median))
                             .set("max", number(row.t_max)));
    p.set("bytesPerSecond", number(row.bytes_per_second.value()));
  } else {
    p.set("bytesPerSecond", Value());
  }
  return p;
}

/// The core's compact text, laid out for reading: the top level and its members' members one per
/// line (a kernel per line), everything deeper as the core writes it.
void write_laid_out(std::ostream& o, const Value& v, int depth) {
  const bool object = v.is(Value::Kind::object), array = v.is(Value::Kind::array);
  if (depth >= 2 || (!object && !array) || v.items().empty()) {
    o << roofline::json::write_json(v);
    return;
  }
  const std::string pad(std::size_t(2 * (depth + 1)), ' ');
  o << (object ? "{" : "[");
  for (std::size_t i = 0; i < v.items().size(); ++i) {
    o << (i ? ",\n" : "\n") << pad;
    if (object) o << roofline::json::write_json(Value(v.keys()[i])) << ": ";
    write_laid_out(o, v.items()[i], depth + 1);
  }
  o << "\n" << std::string(std::size_t(2 * depth), ' ') << (object ? "}" : "]");
}

/// The hierarchy sweep: every working set with its dot and triad rates and the level it counts
/// for, then the levels.
void print_levels(std::ostream& o, const Report& r) {
  // working set (in pages: the dot's and the triad's differ by less than one) → (dot, triad)
  std::map<long long, std::pair<const Row*, const Row*>> sizes;
  for (const Row& row : r.rows) {
    if (row.c.family != "level") continue;
    auto& slot = sizes[std::llround(row.c.working_set_bytes / 4096)];
    (row.c.kind == Kind::dot ? slot.first : slot.second) = &row;
  }
  if (sizes.empty()) return;
  const unsigned threads = r.machine.threads;
  o << "\nmemory hierarchy (working set per thread, " << threads << " thread" << (threads == 1 ? "" : "s") << "):\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %14s %14s %14s  %s\n", "working set", "dot", "triad", "level");
  o << line;
  auto rate = [](const Row* row) -> std::string {
    if (!row) return "-";
    if (row->m.seconds.empty()) return row->m.verified ? "not timed" : "FAILED";
    return si(row->bytes_per_second.value(), "B/s");
  };
  // A point's size: the dot's (8 bytes per element); the triad's (12) can differ by a few bytes.
  for (const auto& [pages, pair] : sizes) {
    const double bytes = (pair.first ? pair.first : pair.second)->c.working_set_bytes;
    const std::string level = r.machine.caches ? levels::level_of(bytes, *r.machine.caches, threads) : "";
    std::snprintf(line, sizeof line, "  %14s %14s %14s  %s\n", si(bytes, "B").c_str(), rate(pair.first).c_str(),
                  rate(pair.second).c_str(), level.c_str());
    o << line;
  }
  o << "levels (best of the sizes that fit each: L1, L2 ≤ half of the cache per thread, L3 ≤ half in total, DRAM ≥ "
       "4 × the last-level cache in total):\n";
  for (const levels::Level& l : r.measured.levels) {
    std::snprintf(line, sizeof line, "  %-5s %14s  (%s per thread, %s)\n", l.name.c_str(),
                  si(l.bytes_per_second, "B/s").c_str(), si(l.working_set_bytes, "B").c_str(), l.kernel.c_str());
    o << line;
  }
  if (!r.measured.levels.empty())
    o << "  " << (levels::strictly_falling(r.measured.levels) ? "strictly falling" : "NOT strictly falling") << "\n";
}

}  // namespace

void print_report(std::ostream& o, const Report& r) {
  o << "roofline-bench, backend " << r.backend << ": " << r.machine.name << (r.quick ? " (--quick)" : "") << "\n";
  // The instruction-set variants that ran (CPU: chosen at run time, or by --isa / --int-dot).
  std::string variants;
  for (const auto& [key, value] : r.machine.details)
    if (key == "isa" || key == "intDot")
      variants +=
          (variants.empty() ? "" : ", ") + std::string(key == "isa" ? "float kernels " : "integer dot ") + value;
  if (!variants.empty()) o << "instruction sets: " << variants << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-22s %-6s %9s %11s %11s %11s %13s %13s %13s %7s %13s %7s\n", "kernel", "dtype",
                "per byte", "t_min", "t_median", "t_max", "rate", "bytes/s", "roof(meas.)", "÷meas.", "roof(sheet)",
                "÷sheet");
  o << line;
  // The roof a prediction gives: FLOP/s for a kernel with FLOPs, bytes/s for pure data movement.
  auto roof = [](const Row& row, const std::optional<Prediction>& p) -> std::string {
    if (!p) return "-";
    return row.cost.flops.value() > 0 ? si(p->flops_per_second.value(), rate_unit(row.c.compute_dtype))
                                      : si(p->bytes_per_second.value(), "B/s");
  };
  for (const Row& row : r.rows) {
    if (row.c.family == "level") continue;  // below, as a sweep
    if (row.m.seconds.empty()) {
      o << "  " << row.c.id << ": " << (row.m.verified ? "not timed" : "VERIFICATION FAILED: ") << row.m.detail << "\n";
      continue;
    }
    std::snprintf(line, sizeof line, "%-22s %-6s %9.3g %9.3g s %9.3g s %9.3g s %13s %13s %13s %7s %13s %7s\n",
                  row.c.id.c_str(), row.c.dtype.c_str(), row.cost.intensity.value(), row.t_min, row.t_median, row.t_max,
                  si(row.flops_per_second.value(), rate_unit(row.c.compute_dtype)).c_str(),
                  si(row.bytes_per_second.value(), "B/s").c_str(), roof(row, row.from_measured).c_str(),
                  row.from_measured ? fixed(row.from_measured->measured_over_predicted).c_str() : "-",
                  roof(row, row.from_datasheet).c_str(),
                  row.from_datasheet ? fixed(row.from_datasheet->measured_over_predicted).c_str() : "-");
    o << line;
  }
  o << "(per byte: FLOPs per byte, or operations per byte where the arithmetic is on integers, rated in OP/s)\n";
  print_levels(o, r);
  o << "\nmeasured ceilings: bandwidth " << si(r.measured.bandwidth.value(), "B/s") << " (" << r.measured.bandwidth_from
    << ")";
  for (const auto& [d, p] : r.measured.peaks)
    o << ", " << d << " " << si(p.value(), rate_unit(d)) << " (" << r.measured.peak_from.at(d) << ")";
  o << "\ndatasheet ceilings: ";
  if (r.datasheet) {
    o << "bandwidth " << si(r.datasheet->bandwidth.value(), "B/s");
    for (const auto& [d, p] : r.datasheet->peaks) o << ", " << d << " " << si(p.value(), rate_unit(d));
  } else {
    o << r.datasheet_note;
  }
  o << "\n";
  for (const Row& row : r.rows) {
    if (row.c.family == "gemv" && !row.m.seconds.empty()) {
      std::snprintf(line, sizeof line, "  %-16s %10.1f tokens/s-equivalent (", row.c.id.c_str(), row.tokens_per_second);
      o << line;
      if (row.tokens_ceiling_measured) {
        std::snprintf(line, sizeof line, "ceiling %.1f at the measured bandwidth, %.0f %% of it",
                      *row.tokens_ceiling_measured, 100 * row.tokens_per_second / *row.tokens_ceiling_measured);
        o << line;
      } else {
        o << "no bandwidth measured in this run: add copy or triad to --only";
      }
      if (row.tokens_ceiling_datasheet) o << ", " << num(*row.tokens_ceiling_datasheet) << " at the datasheet's";
      o << ")\n";
      if (const auto& rc = row.read_ceiling) {
        std::snprintf(line, sizeof line, "%30s read-only ceiling (%s, %s): %.1f, %.0f %% of it\n", "", rc->from.c_str(),
                      si(rc->bandwidth.value(), "B/s").c_str(), rc->tokens_ceiling, 100 * rc->share);
        o << line;
      }
      if (const auto& a = row.adjacent) {
        std::snprintf(line, sizeof line,
                      "%30s %ss next to it: best %s, ceiling %.1f, %.0f %% of it (the best repetition's pair: "
                      "%s, %.0f %%; median pair %.0f %%)\n",
                      "", a->neighbour.c_str(), si(a->bandwidth.value(), "B/s").c_str(), a->tokens_ceiling,
                      100 * a->share, si(a->best_pair_bandwidth.value(), "B/s").c_str(), 100 * a->best_pair_share,
                      100 * a->median_pair_share);
        o << line;
        if (!a->steady)
          o << std::string(31, ' ') << "memory not steady around it (" << a->unsteady_why
            << "): this machine cannot judge its share\n";
      }
    }
  }
  for (const DenseKnee& k : r.knees) {
    o << "  " << k.series << " (" << num(k.inputs) << " × " << num(k.outputs) << ", " << k.dtype
      << "): measured knee at batch ≈ " << opt(k.measured_knee_batch) << ", predicted crossing batch "
      << opt(k.predicted_batch_measured) << " (measured ceilings)";
    if (r.datasheet) o << ", " << opt(k.predicted_batch_datasheet) << " (datasheet)";
    o << "\n";
    if (!k.note.empty()) o << "    " << k.note << "\n";
  }
  o << "\nratios (target):\n";
  for (const Ratio& q : r.ratios) {
    char range[48];
    if (std::isfinite(q.upper)) std::snprintf(range, sizeof range, "%.2f … %.2f", q.target, q.upper);
    else std::snprintf(range, sizeof range, "≥ %.2f", q.target);
    std::snprintf(line, sizeof line, "  %-34s %6.3f  (%s) %s  %s\n", q.id.c_str(), q.value, range,
                  q.met() ? "met" : "NOT MET", q.description.c_str());
    o << line;
  }
  o << (r.all_verified ? "all kernels verified\n" : "SOME KERNELS FAILED VERIFICATION\n");
}

roofline::json::Value report_value(const Report& r) {
  Value machine = Value::object();
  machine.set("name", r.machine.name).set("slug", r.machine.slug);
  if (!r.machine.catalog_id.empty()) machine.set("catalogId", r.machine.catalog_id);
  for (const auto& [key, value] : r.machine.details) machine.set(key, value);
  Value ceilings = Value::object();
  ceilings.set("measured", ceilings_value(r.measured, true));
  ceilings.set("datasheet", r.datasheet ? ceilings_value(*r.datasheet, false) : Value());
  ceilings.set("datasheetNote", r.datasheet_note);
  // Roofline points (FLOPs > 0) in "kernels"; pure data movement (copy, memcpy: 0 FLOPs, no
  // place on a log-log roofline) in "bandwidthKernels", same fields; the hierarchy sweep's
  // points in "levelSweep".
  Value kernels = Value::array(), bandwidth = Value::array(), sweep = Value::array();
  const double sharing = r.backend == "cpu" ? std::max(1.0, double(r.machine.threads)) : 1.0;
  for (const Row& row : r.rows) {
    if (row.c.kind == Kind::peak) continue;
    if (row.c.family == "level") sweep.push(sweep_value(row));
    else if (row.cost.flops.value() > 0) kernels.push(kernel_value(row, sharing));
    else bandwidth.push(kernel_value(row, sharing));
  }
  Value knees = Value::array();
  for (const DenseKnee& k : r.knees) {
    knees.push(Value::object()
                   .set("series", k.series)
                   .set("inputs", number(k.inputs))
                   .set("outputs", number(k.outputs))
                   .set("dtype", k.dtype)
                   .set("measuredKneeBatch", opt_number(k.measured_knee_batch))
                   .set("predictedCrossingBatch", Value::object()
                                                      .set("measured", opt_number(k.predicted_batch_measured))
                                                      .set("datasheet", opt_number(k.predicted_batch_datasheet)))
                   .set("note", k.note));
  }
  Value ratios = Value::array();
  for (const Ratio& q : r.ratios) {
    Value v = Value::object();
    v.set("id", q.id).set("description", q.description).set("value", number(q.value)).set("target", number(q.target));
    if (std::isfinite(q.upper)) v.set("upper", q.upper);  // a ratio that must also stay below it
    ratios.push(v.set("met", q.met()));
  }
  Value out = Value::object();
  out.set("schema", "roofline-bench/1").set("date", r.date).set("machine", machine).set("backend", r.backend);
  out.set("quick", r.quick).set("allVerified", r.all_verified).set("ceilings", ceilings);
  out.set("kernels", kernels).set("bandwidthKernels", bandwidth).set("levelSweep", sweep);
  out.set("denseKnees", knees).set("ratios", ratios);
  return out;
}

void write_json(std::ostream& o, const Report& r) {
  write_laid_out(o, report_value(r), 0);
  o << "\n";
}

void write_csv(std::ostream& o, const Report& r) {
  o << "backend,id,family,dtype,compute_dtype,vendor,n,k,m,flops,bytes,flops_per_byte,time_min_s,time_median_s,"
       "time_max_s,flops_per_s,bytes_per_s,predicted_flops_per_s_measured,predicted_bytes_per_s_measured,"
       "measured_over_predicted_measured,predicted_flops_per_s_datasheet,measured_over_predicted_datasheet,"
       "tokens_per_s,verified,adjacent_bytes_per_s,tokens_per_s_ceiling_adjacent\n";
  for (const Row& row : r.rows) {
    if (row.c.kind == Kind::peak) continue;
    const auto& pm = row.from_measured;
    const auto& pd = row.from_datasheet;
    o << r.backend << ',' << row.c.id << ',' << row.c.family << ',' << row.c.dtype << ',' << row.c.compute_dtype << ','
      << (row.c.vendor ? 1 : 0) << ',' << num(row.c.n) << ',' << num(row.c.k) << ',' << num(row.c.m) << ','
      << num(row.cost.flops.value()) << ',' << num(row.cost.bytes.value()) << ',' << num(row.cost.intensity.value())
      << ',' << num(row.t_min) << ',' << num(row.t_median) << ',' << num(row.t_max) << ','
      << num(row.flops_per_second.value()) << ',' << num(row.bytes_per_second.value()) << ','
      << (pm ? num(pm->flops_per_second.value()) : "") << ',' << (pm ? num(pm->bytes_per_second.value()) : "") << ','
      << (pm ? num(pm->measured_over_predicted) : "") << ',' << (pd ? num(pd->flops_per_second.value()) : "") << ','
      << (pd ? num(pd->measured_over_predicted) : "") << ','
      << (row.c.family == "gemv" ? num(row.tokens_per_second) : "") << ',' << (row.m.verified ? 1 : 0) << ','
      << (row.adjacent ? num(row.adjacent->bandwidth.value()) : "") << ','
      << (row.adjacent ? num(row.adjacent->tokens_ceiling) : "") << '\n';
  }
}

}  // namespace rlk::bench
