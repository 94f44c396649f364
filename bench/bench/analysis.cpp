#include "analysis.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "roofline/batching.hpp"
#include "roofline/catalog.hpp"
#include "roofline/dtype.hpp"
#include "roofline/error.hpp"
#include "roofline/roofline.hpp"

namespace rlk::bench {

using namespace roofline;

KernelCost cost_of(const Case& c) {
  const Dtype d = parse_dtype(c.dtype);
  switch (c.kind) {
    case Kind::peak: return {fma_flops(c.n), Bytes{0}, FlopsPerByte{0}};
    case Kind::copy: return stream_copy_cost(c.n, d);
    case Kind::triad: return stream_triad_cost(c.n, d);
    case Kind::dot: return stream_dot_cost(c.n, d);
    case Kind::matmul_no_reuse: return matmul_no_reuse_cost(c.n, c.k, c.m, d);
    case Kind::matmul_tiled: return matmul_tiled_cost(c.n, c.k, c.m, c.tile_rows, c.tile_cols, d);
    case Kind::matmul_ideal: return matmul_ideal_cost(c.n, c.k, c.m, d);
    case Kind::gemv: {
      GemvInput in{c.m, c.k, d, std::nullopt};
      if (c.group > 0) {
        in.group_size = c.group;
        in.scale_dtype = parse_dtype(c.scale_dtype);
      }
      return gemv_cost(in).cost;
    }
    case Kind::dense: return dense_cost(c.n, c.k, c.m, d);
    case Kind::bias_relu_unfused: return bias_relu_cost(c.n, c.k, c.m, d, false);
    case Kind::bias_relu_fused: return bias_relu_cost(c.n, c.k, c.m, d, true);
  }
  return {};
}

void summarize_times(Row& row) {
  auto s = row.m.seconds;
  if (s.empty()) return;
  std::sort(s.begin(), s.end());
  row.t_min = s.front();
  row.t_max = s.back();
  row.t_median = s.size() % 2 ? s[s.size() / 2] : 0.5 * (s[s.size() / 2 - 1] + s[s.size() / 2]);
  const Seconds best{row.t_min};
  row.flops_per_second = row.cost.flops / best;
  row.bytes_per_second = row.cost.bytes / best;
}

Ceilings measure_ceilings(const std::vector<Row>& rows) {
  Ceilings c;
  for (const Row& r : rows) {
    if (r.m.seconds.empty()) continue;
    if (r.c.family == "stream" && r.bytes_per_second > c.bandwidth) {
      c.bandwidth = r.bytes_per_second;
      c.bandwidth_from = r.c.id;
    }
    if (r.cost.flops.value() > 0 && r.c.family != "level") {  // a dot in L1 is no compute ceiling
      auto& best = c.peaks[r.c.compute_dtype];
      if (r.flops_per_second > best) {
        best = r.flops_per_second;
        c.peak_from[r.c.compute_dtype] = r.c.id;
      }
    }
  }
  return c;
}

std::optional<Ceilings> datasheet_ceilings(const std::string& catalog_id, std::string& note) {
  if (catalog_id.empty()) {
    note =
        "no datasheet entry: the core's catalog lists GPUs only, so CPU points are compared with the "
        "measured ceilings alone";
    return std::nullopt;
  }
  try {
    const Gpu& gpu = find_gpu(catalog_id);
    Ceilings c;
    c.bandwidth = gpu.bandwidth;
    c.bandwidth_from = std::string(gpu.name) + " datasheet";
    for (Dtype d : all_dtypes) {
      if (auto p = gpu.peak(d)) c.peaks[std::string(dtype_id(d))] = *p;
    }
    note = std::string(gpu.source);
    return c;
  } catch (const Error& e) {
    note = std::string("no datasheet entry: ") + e.what();
    return std::nullopt;
  }
}

std::string catalog_id_for(const std::string& device_name) {
  std::string name;
  for (char ch : device_name) name += char(std::tolower(static_cast<unsigned char>(ch)));
  auto has_word = [&](std::string_view word) {
    for (std::size_t pos = name.find(word); pos != std::string::npos; pos = name.find(word, pos + 1)) {
      const std::size_t end = pos + word.size();
      const bool starts = pos == 0 || !std::isalnum(static_cast<unsigned char>(name[pos - 1]));
      const bool ends = end == name.size() || !std::isalnum(static_cast<unsigned char>(name[end]));
      if (starts && ends) return true;
    }
    return false;
  };
  // Exact id first ("h200"), then the id's model part with its variant ("a100" + "80gb"), then
  // the model part alone ("h100" for "h100-sxm").
  for (const Gpu& gpu : gpus())
    if (has_word(gpu.id)) return std::string(gpu.id);
  std::string fallback;
  for (const Gpu& gpu : gpus()) {
    const std::size_t dash = gpu.id.find('-');
    if (dash == std::string::npos || !has_word(gpu.id.substr(0, dash))) continue;
    if (has_word(gpu.id.substr(dash + 1))) return std::string(gpu.id);
    if (fallback.empty()) fallback = gpu.id;
  }
  return fallback;
}

std::optional<AdjacentCeiling> adjacent_ceiling(const Row& row) {
  if (!row.m.neighbours || row.m.seconds.empty()) return std::nullopt;
  const Neighbours& nb = *row.m.neighbours;
  const std::size_t reps = row.m.seconds.size();
  if (nb.before_seconds.size() != reps || nb.after_seconds.size() != reps) return std::nullopt;
  Case stream;
  stream.kind = nb.kind;
  stream.n = nb.n;
  stream.dtype = nb.dtype;
  const Bytes moved = cost_of(stream).bytes;
  if (moved.value() <= 0 || row.cost.bytes.value() <= 0) return std::nullopt;
  AdjacentCeiling a;
  a.pairs = reps;
  a.neighbour = nb.kind == Kind::dot ? "dot" : nb.kind == Kind::copy ? "copy" : "triad";
  std::vector<double> shares, memories;
  std::size_t best = 0;
  for (std::size_t i = 0; i < reps; ++i) {
    const BytesPerSecond memory = moved / Seconds{std::min(nb.before_seconds[i], nb.after_seconds[i])};
    shares.push_back((1.0 / row.m.seconds[i]) / steps_per_second_ceiling(row.cost.bytes, memory));
    memories.push_back(memory.value());
    if (memory > a.bandwidth) a.bandwidth = memory;
    if (row.m.seconds[i] < row.m.seconds[best]) best = i;
  }
  const double tokens = 1.0 / row.m.seconds[best];
  a.tokens_ceiling = steps_per_second_ceiling(row.cost.bytes, a.bandwidth);
  a.share = tokens / a.tokens_ceiling;
  a.best_pair_bandwidth = moved / Seconds{std::min(nb.before_seconds[best], nb.after_seconds[best])};
  a.best_pair_share = shares[best];
  std::sort(shares.begin(), shares.end());
  a.median_pair_share = reps % 2 ? shares[reps / 2] : 0.5 * (shares[reps / 2 - 1] + shares[reps / 2]);
  std::sort(memories.begin(), memories.end());
  a.median_bandwidth =
      BytesPerSecond{reps % 2 ? memories[reps / 2] : 0.5 * (memories[reps / 2 - 1] + memories[reps / 2])};
  a.steady = a.bandwidth.value() <= 1.15 * a.median_bandwidth.value();
  if (!a.steady) a.unsteady_why = "the best neighbour is more than 15 % above their median";
  return a;
}

std::vector<levels::Level> measure_levels(const std::vector<Row>& rows, const MachineInfo& machine) {
  if (!machine.caches) return {};
  std::vector<levels::Point> points;
  for (const Row& r : rows) {
    if (r.c.family != "level" || r.m.seconds.empty()) continue;
    points.push_back({r.c.kind == Kind::dot ? "dot" : "triad", r.c.working_set_bytes, r.bytes_per_second.value()});
  }
  return levels::select_levels(points, *machine.caches, machine.threads);
}

namespace {

std::optional<Prediction> predict(const Row& r, const Ceilings& c) {
  if (r.m.seconds.empty() || r.c.kind == Kind::peak || r.c.family == "level" || c.bandwidth.value() <= 0)
    return std::nullopt;
  Prediction p;
  if (r.cost.flops.value() == 0) {  // pure data movement: the bandwidth is the roof
    p.bytes_per_second = c.bandwidth;
    p.measured_over_predicted = r.bytes_per_second / c.bandwidth;
    p.bound = "memory";
    return p;
  }
  auto peak = c.peaks.find(r.c.compute_dtype);
  if (peak == c.peaks.end()) return std::nullopt;
  const RooflinePoint point = roofline_point(Device{peak->second, c.bandwidth}, r.cost.intensity);
  p.flops_per_second = point.attainable;
  p.bytes_per_second = BytesPerSecond{point.attainable.value() / r.cost.intensity.value()};
  p.measured_over_predicted = r.flops_per_second / point.attainable;
  p.bound = std::string(bound_id(point.bound));
  return p;
}

const Row* find(const Report& rep, const std::string& id) {
  for (const Row& r : rep.rows)
    if (r.c.id == id && !r.m.seconds.empty()) return &r;
  return nullptr;
}

void add_ratio(Report& rep, std::string id, std::string description, const Row* num, const Row* den,
               double (*rate)(const Row&), double target) {
  if (!num || !den) return;
  rep.ratios.push_back({std::move(id), std::move(description), rate(*num) / rate(*den), target});
}

/// tokens/s ÷ the tokens/s ceiling at the measured bandwidth (set by analyse() before).
void add_ceiling_ratio(Report& rep, std::string id, std::string description, const Row* row, double target) {
  if (!row || !row->tokens_ceiling_measured) return;
  rep.ratios.push_back(
      {std::move(id), std::move(description), row->tokens_per_second / *row->tokens_ceiling_measured, target});
}

/// tokens/s ÷ the tokens/s ceiling at the bandwidth of the triads timed next to its repetitions.
void add_adjacent_ratio(Report& rep, std::string id, std::string description, const Row* row, double target) {
  if (!row || !row->adjacent) return;
  rep.ratios.push_back({std::move(id), std::move(description), row->adjacent->share, target});
}

/// tokens/s ÷ the tokens/s ceiling at the run's read-only stream (dot, or the DRAM level).
void add_read_ratio(Report& rep, std::string id, std::string description, const Row* row, double target) {
  if (!row || !row->read_ceiling) return;
  description += " (" + row->read_ceiling->from + ")";
  if (row->adjacent && !row->adjacent->steady) description += "; memory not steady around it: not judged";
  rep.ratios.push_back({std::move(id), std::move(description), row->read_ceiling->share, target});
}

double bytes_rate(const Row& r) { return r.bytes_per_second.value(); }
double flops_rate(const Row& r) { return r.flops_per_second.value(); }
double speed(const Row& r) { return 1.0 / r.t_min; }

}  // namespace

void analyse(Report& rep) {
  rep.measured.levels = measure_levels(rep.rows, rep.machine);
  const Row* dot_row = find(rep, "dot");
  const levels::Level* dram = nullptr;
  for (const levels::Level& l : rep.measured.levels)
    if (l.name == "DRAM") dram = &l;
  for (Row& r : rep.rows) {
    r.from_measured = predict(r, rep.measured);
    if (rep.datasheet) r.from_datasheet = predict(r, *rep.datasheet);
    if (r.c.family == "gemv" && !r.m.seconds.empty()) {
      r.tokens_per_second = 1.0 / r.t_min;
      if (rep.measured.bandwidth.value() > 0)
        r.tokens_ceiling_measured = steps_per_second_ceiling(r.cost.bytes, rep.measured.bandwidth);
      if (rep.datasheet) r.tokens_ceiling_datasheet = steps_per_second_ceiling(r.cost.bytes, rep.datasheet->bandwidth);
      r.adjacent = adjacent_ceiling(r);
      if (r.adjacent && dot_row && r.adjacent->neighbour == "dot") {
        // The memory also moved between kernels when the neighbours' best is far from the run's dot.
        const double q = r.adjacent->bandwidth / dot_row->bytes_per_second;
        if (q > 1.15 || q < 1 / 1.15) {
          r.adjacent->steady = false;
          if (!r.adjacent->unsteady_why.empty()) r.adjacent->unsteady_why += "; ";
          r.adjacent->unsteady_why +=
              "the best neighbour is " + std::to_string(int(std::lround(100 * q))) + " % of the run's dot";
        }
      }
    }
  }

  // The read-only ceiling of the GEMVs: the best read-only dot of the run, the `dot` case or any
  // of the dots timed next to the GEMVs (same kernel, same arrays); the DRAM level without them.
  BytesPerSecond best_read{0};
  std::string read_from;
  if (dot_row) {
    best_read = dot_row->bytes_per_second;
    read_from = "dot";
  }
  for (const Row& r : rep.rows)
    if (r.adjacent && r.adjacent->neighbour == "dot" && r.adjacent->bandwidth > best_read) {
      best_read = r.adjacent->bandwidth;
      read_from = "dot";
    }
  if (best_read.value() <= 0 && dram) {
    best_read = BytesPerSecond{dram->bytes_per_second};
    read_from = "DRAM level";
  }
  if (best_read.value() > 0) {
    for (Row& r : rep.rows) {
      if (r.c.family != "gemv" || r.m.seconds.empty()) continue;
      ReadCeiling rc;
      rc.from = read_from;
      rc.bandwidth = best_read;
      rc.tokens_ceiling = steps_per_second_ceiling(r.cost.bytes, rc.bandwidth);
      rc.share = r.tokens_per_second / rc.tokens_ceiling;
      r.read_ceiling = rc;
    }
  }

  // Ratios with their targets (docs/benchmark.md).
  const bool gpu = rep.backend == "cuda";
  const Row* triad = find(rep, "triad");
  const Row* copy = find(rep, "copy");
  const Row* memcpy_row = find(rep, gpu ? "memcpy_cuda" : "memcpy");
  const Row* best_copy = copy;
  if (memcpy_row && (!best_copy || memcpy_row->bytes_per_second > best_copy->bytes_per_second)) best_copy = memcpy_row;
  const Row* bf16 = find(rep, "gemv_bf16");
  const Row* best_tiled = find(rep, "matmul_tiled");
  if (const Row* reg = find(rep, "matmul_register");
      reg && (!best_tiled || reg->flops_per_second > best_tiled->flops_per_second))
    best_tiled = reg;
  if (!gpu) {
    add_ratio(rep, "triad_over_best_copy", "triad ÷ best copy (copy, memcpy), bytes/s", triad, best_copy, bytes_rate,
              0.85);
    add_ratio(rep, "gemv_bf16_over_sgemv", "BF16 GEMV ÷ OpenBLAS SGEMV, bytes/s", bf16, find(rep, "sgemv_openblas"),
              bytes_rate, 0.90);
    add_ratio(rep, "best_tiled_over_sgemm", "best tiled matmul ÷ OpenBLAS SGEMM, FLOP/s", best_tiled,
              find(rep, "sgemm_openblas"), flops_rate, 0.50);
    add_ratio(rep, "gemv_int8_over_bf16", "INT8 GEMV ÷ BF16 GEMV, tokens/s", find(rep, "gemv_int8"), bf16, speed, 1.5);
    add_ratio(rep, "gemv_int4_over_bf16", "INT4 GEMV ÷ BF16 GEMV, tokens/s", find(rep, "gemv_int4"), bf16, speed, 2.0);
    add_ratio(rep, "gemv_int8_dp_over_bf16", "INT8 integer-dot GEMV ÷ BF16 GEMV, tokens/s", find(rep, "gemv_int8_dp"),
              bf16, speed, 1.5);
    add_ratio(rep, "gemv_int4_dp_over_bf16", "INT4 integer-dot GEMV ÷ BF16 GEMV, tokens/s", find(rep, "gemv_int4_dp"),
              bf16, speed, 2.5);
    add_ceiling_ratio(rep, "gemv_int8_dp_over_ceiling",
                      "INT8 integer-dot GEMV ÷ its ceiling at the measured bandwidth, tokens/s",
                      find(rep, "gemv_int8_dp"), 0.85);
    add_ceiling_ratio(rep, "gemv_int4_dp_over_ceiling",
                      "INT4 integer-dot GEMV ÷ its ceiling at the measured bandwidth, tokens/s",
                      find(rep, "gemv_int4_dp"), 0.70);
    add_adjacent_ratio(rep, "gemv_int8_dp_over_adjacent_ceiling",
                       "INT8 integer-dot GEMV ÷ its ceiling at the read-only dots timed next to it, tokens/s",
                       find(rep, "gemv_int8_dp"), 0.85);
    add_adjacent_ratio(rep, "gemv_int4_dp_over_adjacent_ceiling",
                       "INT4 integer-dot GEMV ÷ its ceiling at the read-only dots timed next to it, tokens/s",
                       find(rep, "gemv_int4_dp"), 0.70);
    add_read_ratio(rep, "gemv_int8_dp_over_read_ceiling",
                   "INT8 integer-dot GEMV ÷ its ceiling at the best read-only dot of the run, tokens/s",
                   find(rep, "gemv_int8_dp"), 0.90);
    add_read_ratio(rep, "gemv_int4_dp_over_read_ceiling",
                   "INT4 integer-dot GEMV ÷ its ceiling at the best read-only dot of the run, tokens/s",
                   find(rep, "gemv_int4_dp"), 0.80);
    add_ratio(rep, "fused_over_unfused", "bias + ReLU fused ÷ unfused, runs/s", find(rep, "bias_relu_fused"),
              find(rep, "bias_relu_unfused"), speed, 1.0);
  } else {
    if (triad && rep.datasheet) {
      rep.ratios.push_back({"triad_over_datasheet", "triad ÷ datasheet bandwidth, bytes/s",
                            triad->bytes_per_second / rep.datasheet->bandwidth, 0.88});
    }
    add_ratio(rep, "gemv_bf16_over_triad", "BF16 GEMV ÷ triad, bytes/s", bf16, triad, bytes_rate, 0.85);
    add_ratio(rep, "best_tiled_over_sgemm", "best FP32 tiled matmul ÷ cuBLAS SGEMM, FLOP/s", best_tiled,
              find(rep, "sgemm_cublas"), flops_rate, 0.70);
    add_ratio(rep, "gemv_int8_over_bf16", "INT8 GEMV ÷ BF16 GEMV, tokens/s", find(rep, "gemv_int8"), bf16, speed, 1.5);
    add_ratio(rep, "gemv_int4_over_bf16", "INT4 GEMV ÷ BF16 GEMV, tokens/s", find(rep, "gemv_int4"), bf16, speed, 3.0);
    add_ratio(rep, "gemv_int8_dp4a_over_bf16", "INT8 __dp4a GEMV ÷ BF16 GEMV, tokens/s", find(rep, "gemv_int8_dp4a"),
              bf16, speed, 1.5);
    add_ratio(rep, "gemv_int4_dp4a_over_bf16", "INT4 __dp4a GEMV ÷ BF16 GEMV, tokens/s", find(rep, "gemv_int4_dp4a"),
              bf16, speed, 3.0);
    add_ratio(rep, "fused_over_unfused", "bias + ReLU fused ÷ unfused, runs/s", find(rep, "bias_relu_fused"),
              find(rep, "bias_relu_unfused"), speed, 2.0);
  }

  // The hierarchy's last level against the run's stream ceiling: within 25 % of it.
  if (dram && rep.measured.bandwidth.value() > 0)
    rep.ratios.push_back({"levels_dram_over_bandwidth",
                          "the sweep's DRAM level ÷ the run's bandwidth ceiling (" + rep.measured.bandwidth_from +
                              "), bytes/s, within 25 %",
                          dram->bytes_per_second / rep.measured.bandwidth.value(), 0.75, 1.25});

  // Dense-layer sweeps: the measured knee next to the predicted crossing batch.
  std::map<std::string, std::vector<const Row*>> series;
  for (const Row& r : rep.rows) {
    if (r.c.family != "dense" || r.m.seconds.empty()) continue;
    series[r.c.id.substr(0, r.c.id.rfind("_b"))].push_back(&r);
  }
  for (auto& entry : series) {
    // (not a structured binding: Clang 14 does not let a lambda capture one, as C++20 allows)
    const auto& name = entry.first;
    auto& rows = entry.second;
    std::sort(rows.begin(), rows.end(), [](const Row* a, const Row* b) { return a->c.n < b->c.n; });
    DenseKnee k;
    k.series = name;
    k.inputs = rows.front()->c.k;
    k.outputs = rows.front()->c.m;
    k.dtype = rows.front()->c.dtype;
    const Dtype d = parse_dtype(k.dtype);
    FlopsPerSecond plateau{0};
    for (const Row* r : rows) plateau = std::max(plateau, r->flops_per_second);
    try {
      k.measured_knee_batch = measured_knee_batch(k.inputs, k.outputs, d, rows.front()->bytes_per_second, plateau);
    } catch (const Error& e) {
      k.note += std::string("measured knee: ") + e.what() + ". ";
    }
    auto crossing = [&](const Ceilings& c) -> std::optional<double> {
      auto peak = c.peaks.find(rows.front()->c.compute_dtype);
      if (peak == c.peaks.end() || c.bandwidth.value() <= 0) return std::nullopt;
      try {
        return min_batch_for_ridge(k.inputs, k.outputs, d, ridge(Device{peak->second, c.bandwidth}));
      } catch (const Error& e) {
        k.note += std::string("predicted crossing: ") + e.what() + ". ";
        return std::nullopt;
      }
    };
    k.predicted_batch_measured = crossing(rep.measured);
    if (rep.datasheet) k.predicted_batch_datasheet = crossing(*rep.datasheet);
    rep.knees.push_back(k);
  }
}

}  // namespace rlk::bench
