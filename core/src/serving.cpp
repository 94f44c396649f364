#include "roofline/serving.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/error.hpp"

namespace roofline {

DailyLoad daily_load(double items_per_day, double gpus, double capacity_per_gpu) {
  require_count("items", items_per_day);
  require_count("gpus", gpus);
  require_positive("itemsPerSecond", capacity_per_gpu);
  const double rate = require_result("arrivalsPerSecond", items_per_day / seconds_per_day);
  const double per_gpu = require_result("arrivalsPerSecondPerGpu", rate / gpus);
  return {rate, per_gpu, require_result("load", per_gpu / capacity_per_gpu)};
}

GpusNeeded gpus_needed(double demand_per_second, double per_gpu) {
  require_positive("demandItemsPerSecond", demand_per_second);
  require_positive("itemsPerSecond", per_gpu);
  const double exact = require_result("exactGpus", demand_per_second / per_gpu);
  // 500 ÷ 100 is exactly 5 GPUs, not 6: a quotient within rounding of a whole number is that number
  const double near = std::round(exact);
  const double gpus = std::abs(exact - near) <= 1e-9 * near ? near : std::ceil(exact);
  return {exact, std::max(1.0, gpus)};
}

double per_second(Seconds seconds) {
  require_positive("seconds", seconds.value());
  return require_result("perSecond", 1.0 / seconds.value());
}

FramePixels frame_pixels(double width, double height, double frames_per_second) {
  require_count("width", width);
  require_count("height", height);
  require_positive("framesPerSecond", frames_per_second);
  const double pixels = require_result("pixels", width * height);
  return {pixels, require_result("pixelsPerSecond", pixels * frames_per_second)};
}

}  // namespace roofline
