// The roofline: a device is a peak FLOP/s (at one precision) and a memory bandwidth.
//
//   Device t4{teraflops_per_second(65), gigabytes_per_second(320)};
//   ridge(t4);                                 // 203.125 FLOPs per byte
//   roofline_point(t4, FlopsPerByte{1});       // attainable 0.32 TFLOP/s, 0.5 % of peak, memory-bound
//   clocks(Flops{137.4e9}, Bytes{100.7e6}, t4) // compute 2.11 ms > memory 0.31 ms: compute-bound
#pragma once

#include <string_view>

#include "roofline/units.hpp"

namespace roofline {

struct Device {
  FlopsPerSecond peak;       ///< dense peak at the precision in use
  BytesPerSecond bandwidth;  ///< memory bandwidth
};

/// Which clock sets the time: memory below the ridge, compute at or above it.
enum class Bound { memory, compute };
std::string_view bound_id(Bound b);  // "memory" | "compute"

/// peak ÷ bandwidth: the FLOPs per byte an operation needs to keep the cores fed.
/// Throws on a non-positive or non-finite peak or bandwidth (fields "peakFlopsPerSecond",
/// "bytesPerSecond").
FlopsPerByte ridge(const Device& device);

struct RooflinePoint {
  FlopsPerByte ridge;
  FlopsPerSecond memory_fed;  ///< intensity × bandwidth: what memory can feed
  FlopsPerSecond attainable;  ///< min(peak, memory_fed): the roof
  double fraction_of_peak;    ///< attainable ÷ peak, in [0, 1]
  double intensity_over_ridge;
  Bound bound;
};

RooflinePoint roofline_point(const Device& device, FlopsPerByte intensity);

/// The two clocks of one operation; the operation takes at least the larger.
struct Clocks {
  Seconds compute;  ///< FLOPs ÷ peak
  Seconds memory;   ///< bytes ÷ bandwidth
  Seconds lower_bound;
  FlopsPerByte intensity;
  FlopsPerByte ridge;
  Bound bound;  ///< compute when intensity ≥ ridge (then compute ≥ memory)
};

Clocks clocks(Flops flops, Bytes bytes, const Device& device);

/// Floor time of `flops` at `peak`, and the ceiling of such operations per second.
struct AtPeak {
  Seconds seconds;
  double per_second;
};
AtPeak time_at_peak(Flops flops, FlopsPerSecond peak);

/// Achieved ÷ peak. An achieved rate above the peak is impossible: `possible` is then false and
/// the measurement, not the device, is wrong.
struct Utilization {
  double fraction;
  bool possible;
};
Utilization utilization(FlopsPerSecond achieved, FlopsPerSecond peak);

/// A measured throughput of items (photos, tokens) turned into FLOP/s and compared with a peak:
/// the lesson's sanity check (1,200 photos/s × 8.2 GFLOPs = 9.84 TFLOP/s ≈ 15 % of a T4).
struct Throughput {
  FlopsPerSecond achieved;           ///< items per second × FLOPs per item
  FlopsPerSecond peak;               ///< the peak measured against (two GPUs' together for C10)
  Utilization utilization;           ///< achieved ÷ peak; impossible above the peak
  Seconds seconds_per_item_at_peak;  ///< FLOPs per item ÷ peak
  double ceiling_items_per_second;   ///< peak ÷ FLOPs per item
};
Throughput throughput(Flops per_item, double items_per_second, FlopsPerSecond peak);

/// The work of many items, and how long it takes at a measured rate (when one is given, > 0).
struct TotalWork {
  Flops flops;
  Seconds seconds;  ///< items ÷ items per second; 0 when no rate was given
};
TotalWork total_work(Flops per_item, double items, double items_per_second = 0);

}  // namespace roofline
