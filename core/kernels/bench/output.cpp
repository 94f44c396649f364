#include "output.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "roofline/dtype.hpp"
#include "roofline/error.hpp"

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

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          out += buf;
        } else {
          out += char(ch);
        }
    }
  }
  return out + "\"";
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

void ceilings_json(std::ostream& o, const Ceilings& c, const char* indent) {
  o << "{\"bytesPerSecond\": " << num(c.bandwidth.value()) << ", \"peakFlopsPerSecond\": {";
  bool first = true;
  for (const auto& [dtype, peak] : c.peaks) {
    o << (first ? "" : ", ") << quote(dtype) << ": " << num(peak.value());
    first = false;
  }
  o << "},\n" << indent << "  \"bandwidthFrom\": " << quote(c.bandwidth_from) << ", \"peakFrom\": {";
  first = true;
  for (const auto& [dtype, from] : c.peak_from) {
    o << (first ? "" : ", ") << quote(dtype) << ": " << quote(from);
    first = false;
  }
  o << "}}";
}

void prediction_json(std::ostream& o, const std::optional<Prediction>& p) {
  if (!p) {
    o << "null";
    return;
  }
  o << "{\"flopsPerSecond\": " << num(p->flops_per_second.value())
    << ", \"bytesPerSecond\": " << num(p->bytes_per_second.value())
    << ", \"measuredOverPredicted\": " << num(p->measured_over_predicted) << ", \"bound\": " << quote(p->bound)
    << "}";
}

void kernel_json(std::ostream& o, const Row& row) {
  o << "    {\"id\": " << quote(row.c.id) << ", \"name\": " << quote(row.c.name)
    << ", \"family\": " << quote(row.c.family) << ", \"dtype\": " << quote(row.c.dtype)
    << ", \"computeDtype\": " << quote(row.c.compute_dtype) << ", \"vendor\": " << (row.c.vendor ? "true" : "false")
    << ",\n     \"shape\": {\"n\": " << num(row.c.n) << ", \"k\": " << num(row.c.k) << ", \"m\": " << num(row.c.m);
  if (row.c.group > 0) o << ", \"groupSize\": " << num(row.c.group) << ", \"scaleDtype\": " << quote(row.c.scale_dtype);
  if (row.c.tile_rows > 0) o << ", \"tileRows\": " << num(row.c.tile_rows) << ", \"tileCols\": " << num(row.c.tile_cols);
  o << "},\n     \"flops\": " << num(row.cost.flops.value()) << ", \"bytes\": " << num(row.cost.bytes.value())
    << ", \"flopsPerByte\": " << num(row.cost.intensity.value())
    << ",\n     \"verified\": " << (row.m.verified ? "true" : "false") << ", \"verification\": " << quote(row.m.detail);
  if (!row.m.seconds.empty()) {
    o << ",\n     \"repetitions\": " << row.m.seconds.size() << ", \"timeSeconds\": {\"min\": " << num(row.t_min)
      << ", \"median\": " << num(row.t_median) << ", \"max\": " << num(row.t_max) << "}"
      << ",\n     \"flopsPerSecond\": " << num(row.flops_per_second.value())
      << ", \"bytesPerSecond\": " << num(row.bytes_per_second.value())
      << ",\n     \"predicted\": {\"measured\": ";
    prediction_json(o, row.from_measured);
    o << ",\n                   \"datasheet\": ";
    prediction_json(o, row.from_datasheet);
    o << "}";
    if (row.c.family == "gemv") {
      o << ",\n     \"tokensPerSecond\": " << num(row.tokens_per_second)
        << ", \"tokensPerSecondCeiling\": {\"measured\": " << opt(row.tokens_ceiling_measured)
        << ", \"datasheet\": " << opt(row.tokens_ceiling_datasheet) << "}"
        << ",\n     \"adjacentCeiling\": ";
      if (const auto& a = row.adjacent) {
        o << "{\"neighbour\": \"triad\", \"pairs\": " << a->pairs << ", \"bytesPerSecond\": " << num(a->bandwidth.value())
          << ", \"tokensPerSecondCeiling\": " << num(a->tokens_ceiling) << ", \"share\": " << num(a->share)
          << ",\n                         \"bestPairBytesPerSecond\": " << num(a->best_pair_bandwidth.value())
          << ", \"bestPairShare\": " << num(a->best_pair_share) << ", \"medianPairShare\": " << num(a->median_pair_share)
          << "}";
      } else {
        o << "null";
      }
    }
  } else {
    o << ", \"flopsPerSecond\": null";
  }
  o << "}";
}

}  // namespace

void print_report(std::ostream& o, const Report& r) {
  o << "roofline-bench, backend " << r.backend << ": " << r.machine.name << (r.quick ? " (--quick)" : "") << "\n";
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
    if (row.m.seconds.empty()) {
      o << "  " << row.c.id << ": " << (row.m.verified ? "not timed" : "VERIFICATION FAILED: ") << row.m.detail
        << "\n";
      continue;
    }
    std::snprintf(line, sizeof line, "%-22s %-6s %9.3g %9.3g s %9.3g s %9.3g s %13s %13s %13s %7s %13s %7s\n",
                  row.c.id.c_str(), row.c.dtype.c_str(), row.cost.intensity.value(), row.t_min, row.t_median,
                  row.t_max, si(row.flops_per_second.value(), rate_unit(row.c.compute_dtype)).c_str(),
                  si(row.bytes_per_second.value(), "B/s").c_str(), roof(row, row.from_measured).c_str(),
                  row.from_measured ? fixed(row.from_measured->measured_over_predicted).c_str() : "-",
                  roof(row, row.from_datasheet).c_str(),
                  row.from_datasheet ? fixed(row.from_datasheet->measured_over_predicted).c_str() : "-");
    o << line;
  }
  o << "(per byte: FLOPs per byte, or operations per byte where the arithmetic is on integers, rated in OP/s)\n";
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
      if (const auto& a = row.adjacent) {
        std::snprintf(line, sizeof line,
                      "%30s triads next to it: best %s, ceiling %.1f, %.0f %% of it (the best repetition's pair: "
                      "%s, %.0f %%; median pair %.0f %%)\n",
                      "", si(a->bandwidth.value(), "B/s").c_str(), a->tokens_ceiling, 100 * a->share,
                      si(a->best_pair_bandwidth.value(), "B/s").c_str(), 100 * a->best_pair_share,
                      100 * a->median_pair_share);
        o << line;
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
    std::snprintf(line, sizeof line, "  %-34s %6.3f  (≥ %.2f) %s  %s\n", q.id.c_str(), q.value, q.target,
                  q.met() ? "met" : "NOT MET", q.description.c_str());
    o << line;
  }
  o << (r.all_verified ? "all kernels verified\n" : "SOME KERNELS FAILED VERIFICATION\n");
}

void write_json(std::ostream& o, const Report& r) {
  o << "{\n  \"schema\": \"roofline-bench/1\",\n  \"date\": " << quote(r.date) << ",\n  \"machine\": {\"name\": "
    << quote(r.machine.name) << ", \"slug\": " << quote(r.machine.slug);
  if (!r.machine.catalog_id.empty()) o << ", \"catalogId\": " << quote(r.machine.catalog_id);
  for (const auto& [key, value] : r.machine.details) o << ", " << quote(key) << ": " << quote(value);
  o << "},\n  \"backend\": " << quote(r.backend) << ",\n  \"quick\": " << (r.quick ? "true" : "false")
    << ",\n  \"allVerified\": " << (r.all_verified ? "true" : "false") << ",\n  \"ceilings\": {\n    \"measured\": ";
  ceilings_json(o, r.measured, "    ");
  o << ",\n    \"datasheet\": ";
  if (r.datasheet) ceilings_json(o, *r.datasheet, "    ");
  else o << "null";
  o << ",\n    \"datasheetNote\": " << quote(r.datasheet_note) << "\n  },\n  \"kernels\": [";
  // Roofline points (FLOPs > 0) in "kernels"; pure data movement (copy, memcpy: 0 FLOPs, no
  // place on a log-log roofline) in "bandwidthKernels", same fields.
  for (int list = 0; list < 2; ++list) {
    if (list == 1) o << "\n  ],\n  \"bandwidthKernels\": [";
    bool first = true;
    for (const Row& row : r.rows) {
      if (row.c.kind == Kind::peak || (row.cost.flops.value() > 0) != (list == 0)) continue;
      o << (first ? "\n" : ",\n");
      kernel_json(o, row);
      first = false;
    }
  }
  o << "\n  ],\n  \"denseKnees\": [";
  bool first = true;
  for (const DenseKnee& k : r.knees) {
    o << (first ? "\n" : ",\n") << "    {\"series\": " << quote(k.series) << ", \"inputs\": " << num(k.inputs)
      << ", \"outputs\": " << num(k.outputs) << ", \"dtype\": " << quote(k.dtype)
      << ", \"measuredKneeBatch\": " << opt(k.measured_knee_batch)
      << ", \"predictedCrossingBatch\": {\"measured\": " << opt(k.predicted_batch_measured)
      << ", \"datasheet\": " << opt(k.predicted_batch_datasheet) << "}, \"note\": " << quote(k.note) << "}";
    first = false;
  }
  o << "\n  ],\n  \"ratios\": [";
  first = true;
  for (const Ratio& q : r.ratios) {
    o << (first ? "\n" : ",\n") << "    {\"id\": " << quote(q.id) << ", \"description\": " << quote(q.description)
      << ", \"value\": " << num(q.value) << ", \"target\": " << num(q.target) << ", \"met\": " << (q.met() ? "true" : "false")
      << "}";
    first = false;
  }
  o << "\n  ]\n}\n";
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
