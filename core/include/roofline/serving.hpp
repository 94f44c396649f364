#pragma once
// Serving arithmetic of the lesson's real-life cases: a day's arrivals spread over GPUs, how many
// GPUs a demand needs, a latency target as a rate, and the pixels a screen asks for.
//
//   daily_load(10'000'000, 2, 1200).load;       // ≈ 0.048: two T4 at ≈ 5 % on average (C01)
//   gpus_needed(500, 100).gpus;                 // 5 GPUs in float32, against 1 at 1,200 photos/s
//   per_second(Seconds{0.05});                  // 20 tokens/s from a 50 ms TPOT target (C10)
//   frame_pixels(1920, 1080, 60).per_second;    // 124,416,000 pixels/s at 1080p, 60 frames/s

#include "roofline/units.hpp"

namespace roofline {

/// Seconds in a day: a count per day becomes an average rate over these.
inline constexpr double seconds_per_day = 86'400;

/// Items arriving over a day, spread evenly over `gpus`, against what each GPU was measured to
/// serve (`capacity_per_gpu` items per second).
struct DailyLoad {
  double items_per_second;          ///< items ÷ 86,400 s: the day's average arrival rate
  double items_per_second_per_gpu;  ///< that rate ÷ gpus
  double load;                      ///< per GPU ÷ capacity: the share of its measured rate in use
};
DailyLoad daily_load(double items_per_day, double gpus, double capacity_per_gpu);

/// GPUs for a demanded rate when each serves `per_gpu` items per second.
struct GpusNeeded {
  double exact;  ///< demand ÷ per GPU
  double gpus;   ///< the next whole GPU at or above it
};
GpusNeeded gpus_needed(double demand_per_second, double per_gpu);

/// One item every `seconds` is 1 ÷ seconds items per second (a TPOT of 50 ms is 20 tokens/s).
double per_second(Seconds seconds);

/// A screen's pixels, and how many are drawn each second at a frame rate.
struct FramePixels {
  double pixels;      ///< width × height
  double per_second;  ///< pixels × frames per second
};
FramePixels frame_pixels(double width, double height, double frames_per_second);

}  // namespace roofline
