// From timed cases to roofline points: the core's FLOP and byte counts per kernel, the measured
// and datasheet ceilings, the predictions and the ratios the benchmark reports.
#pragma once

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../common/case.hpp"
#include "roofline/kernel_costs.hpp"

namespace rlk::bench {

struct Ceilings {
  roofline::BytesPerSecond bandwidth{0};
  std::map<std::string, roofline::FlopsPerSecond> peaks;  ///< by dtype id
  std::string bandwidth_from;                             ///< id of the kernel that set it
  std::map<std::string, std::string> peak_from;
  std::vector<levels::Level> levels;  ///< the hierarchy sweep's levels (measured ceilings only)
};

struct Prediction {
  roofline::FlopsPerSecond flops_per_second{0};  ///< the roof at the kernel's intensity
  roofline::BytesPerSecond bytes_per_second{0};
  double measured_over_predicted = 0;  ///< measured rate ÷ the roof (time ratio)
  std::string bound;                   ///< "memory" | "compute"
};

/// A GEMV's ceiling from the read-only streams (the dot; older runs: the triad) timed right before and after each of
/// its repetitions (Measurement::neighbours): the memory's rate in the seconds the GEMV ran, not at the start of the
/// run. Per repetition the faster of its two neighbours stands for the memory at that moment.
struct AdjacentCeiling {
  std::size_t pairs = 0;                            ///< repetitions with both neighbours timed
  roofline::BytesPerSecond bandwidth{0};            ///< the best neighbour over all repetitions
  double tokens_ceiling = 0;                        ///< steps_per_second_ceiling at `bandwidth`
  double share = 0;                                 ///< tokens/s (best time) ÷ tokens_ceiling
  roofline::BytesPerSecond best_pair_bandwidth{0};  ///< the faster neighbour of the best repetition
  double best_pair_share = 0;                       ///< the best repetition's tokens/s over its own pair's ceiling
  double median_pair_share = 0;  ///< the median, over repetitions, of each one's share of its pair's ceiling
  std::string neighbour;         ///< the neighbours' kernel: "dot" or "triad"
  roofline::BytesPerSecond median_bandwidth{0};  ///< the median, over repetitions, of the faster neighbour
  /// Whether the memory held still enough to judge the GEMV against a stream: the best neighbour
  /// within 15 % of the median one and, where the run timed `dot`, within 15 % of it.
  bool steady = false;
  std::string unsteady_why;  ///< empty when steady
};

/// A GEMV's ceiling at a read-only stream's bandwidth: the best read-only dot of the run (the
/// `dot` case or the dots timed next to the GEMVs), or the sweep's DRAM level without them.
struct ReadCeiling {
  std::string from;  ///< "dot" or "DRAM level"
  roofline::BytesPerSecond bandwidth{0};
  double tokens_ceiling = 0;  ///< steps_per_second_ceiling at `bandwidth`
  double share = 0;           ///< tokens/s (best time) ÷ tokens_ceiling
};

struct Row {
  Case c;
  Measurement m;
  roofline::KernelCost cost;
  double t_min = 0, t_median = 0, t_max = 0;
  roofline::FlopsPerSecond flops_per_second{0};  ///< from the best (minimum) time
  roofline::BytesPerSecond bytes_per_second{0};  ///< from the best time
  std::optional<Prediction> from_measured, from_datasheet;
  // GEMV only: decode steps (tokens) per second and their bandwidth ceilings.
  double tokens_per_second = 0;
  std::optional<double> tokens_ceiling_measured, tokens_ceiling_datasheet;
  std::optional<AdjacentCeiling> adjacent;  ///< where the backend timed neighbours
  std::optional<ReadCeiling> read_ceiling;  ///< GEMVs, where the run timed a read-only stream
};

struct Ratio {
  std::string id;
  std::string description;
  double value = 0;
  double target = 0;
  double upper = std::numeric_limits<double>::infinity();  ///< where a ratio must also stay below
  bool met() const { return value >= target && value <= upper; }
};

struct DenseKnee {
  std::string series;  ///< "dense" (ours) or "dense_openblas" / "dense_cublas"
  double inputs = 0, outputs = 0;
  std::string dtype;
  std::optional<double> measured_knee_batch;
  std::optional<double> predicted_batch_measured, predicted_batch_datasheet;
  std::string note;
};

struct Report {
  std::string backend;
  MachineInfo machine;
  std::string date;
  bool quick = false;
  unsigned threads = 0;
  std::vector<Row> rows;
  Ceilings measured;
  std::optional<Ceilings> datasheet;
  std::string datasheet_note;
  std::vector<Ratio> ratios;
  std::vector<DenseKnee> knees;
  bool all_verified = true;
};

/// The core's cost of a case.
roofline::KernelCost cost_of(const Case& c);
/// Fills times and rates of a measured row.
void summarize_times(Row& row);
/// Best bandwidth of the stream family and best FLOP/s per compute dtype.
Ceilings measure_ceilings(const std::vector<Row>& rows);
/// The datasheet ceilings of a catalog GPU, or nullopt (with a note) where there are none.
std::optional<Ceilings> datasheet_ceilings(const std::string& catalog_id, std::string& note);
/// The core's catalog id of a GPU from its device name ("NVIDIA H200" → "h200"): the longest
/// catalog id that appears in the name as a whole word, or empty.
std::string catalog_id_for(const std::string& device_name);
/// The ceiling next to a measured GEMV row from its neighbours, or nullopt where it has none (or
/// not one of each per repetition). The neighbours' bytes are the core's cost of their kind.
std::optional<AdjacentCeiling> adjacent_ceiling(const Row& row);
/// The hierarchy's levels from the rows of family "level" (common/levels.hpp's rule), with the
/// machine's caches and threads; empty without a sweep.
std::vector<levels::Level> measure_levels(const std::vector<Row>& rows, const MachineInfo& machine);
/// Predictions, ratios and knees, once every row is measured.
void analyse(Report& report);

}  // namespace rlk::bench
