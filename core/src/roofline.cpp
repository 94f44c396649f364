#include "roofline/roofline.hpp"

#include <algorithm>

#include "roofline/error.hpp"

namespace roofline {

std::string_view bound_id(Bound b) { return b == Bound::compute ? "compute" : "memory"; }

FlopsPerByte ridge(const Device& device) {
  require_positive("peakFlopsPerSecond", device.peak.value());
  require_positive("bytesPerSecond", device.bandwidth.value());
  return FlopsPerByte{require_result("ridgeFlopsPerByte", (device.peak / device.bandwidth).value())};
}

RooflinePoint roofline_point(const Device& device, FlopsPerByte intensity) {
  const FlopsPerByte r = ridge(device);
  require_positive("flopsPerByte", intensity.value());
  const FlopsPerSecond fed{require_result("memoryFlopsPerSecond", (intensity * device.bandwidth).value())};
  const FlopsPerSecond attainable = std::min(device.peak, fed);
  const Bound bound = intensity >= r ? Bound::compute : Bound::memory;
  return {r, fed, attainable, attainable / device.peak, require_result("intensityOverRidge", intensity / r), bound};
}

Clocks clocks(Flops flops, Bytes bytes, const Device& device) {
  const FlopsPerByte r = ridge(device);
  require_positive("flops", flops.value());
  require_positive("bytes", bytes.value());
  const Seconds compute{require_result("computeSeconds", (flops / device.peak).value())};
  const Seconds memory{require_result("memorySeconds", (bytes / device.bandwidth).value())};
  const FlopsPerByte intensity{require_result("flopsPerByte", (flops / bytes).value())};
  return {compute, memory, std::max(compute, memory), intensity, r, intensity >= r ? Bound::compute : Bound::memory};
}

AtPeak time_at_peak(Flops flops, FlopsPerSecond peak) {
  require_positive("flops", flops.value());
  require_positive("peakFlopsPerSecond", peak.value());
  const Seconds s{require_result("seconds", (flops / peak).value())};
  return {s, require_result("perSecond", peak.value() / flops.value())};
}

Utilization utilization(FlopsPerSecond achieved, FlopsPerSecond peak) {
  require_non_negative("achievedFlopsPerSecond", achieved.value());
  require_positive("peakFlopsPerSecond", peak.value());
  const double fraction = require_result("fraction", achieved / peak);
  return {fraction, achieved <= peak};
}

Throughput throughput(Flops per_item, double items_per_second, FlopsPerSecond peak) {
  require_positive("flopsPerItem", per_item.value());
  require_non_negative("itemsPerSecond", items_per_second);
  require_positive("peakFlopsPerSecond", peak.value());
  const FlopsPerSecond achieved{require_result("achievedFlopsPerSecond", per_item.value() * items_per_second)};
  const AtPeak at_peak = time_at_peak(per_item, peak);
  return {achieved, peak, utilization(achieved, peak), at_peak.seconds, at_peak.per_second};
}

TotalWork total_work(Flops per_item, double items, double items_per_second) {
  require_positive("flopsPerItem", per_item.value());
  require_count("items", items);
  require_non_negative("itemsPerSecond", items_per_second);
  const Flops flops{require_result("flops", per_item.value() * items)};
  const double seconds = items_per_second > 0 ? require_result("seconds", items / items_per_second) : 0.0;
  return {flops, Seconds{seconds}};
}

}  // namespace roofline
