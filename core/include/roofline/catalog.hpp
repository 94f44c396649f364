// The lesson's GPUs and models, each figure with where it comes from.
//
//   const Gpu& t4 = find_gpu("t4");
//   t4.peak(Dtype::fp16);            // 65 TFLOP/s (dense, tensor cores)
//   t4.peak(Dtype::fp8);             // std::nullopt: the T4 has no FP8
//   device_for(t4, Dtype::fp16);     // {65 TFLOP/s, 320 GB/s}; throws unsupported_dtype for FP8
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/dtype.hpp"
#include "roofline/roofline.hpp"
#include "roofline/units.hpp"

namespace roofline {

struct Gpu {
  std::string id;
  std::string name;
  int year = 0;
  Bytes memory;              ///< capacity (decimal GB), not a speed
  BytesPerSecond bandwidth;  ///< memory bandwidth
  /// Dense peak per dtype (index = Dtype), absent where the GPU has none. INT8 entries are
  /// integer operations per second (TOPS).
  std::array<std::optional<FlopsPerSecond>, all_dtypes.size()> peaks{};
  std::optional<double> price_per_hour_usd;  ///< on-demand cloud price per GPU, where the lesson gives one
  std::string source;

  [[nodiscard]] std::optional<FlopsPerSecond> peak(Dtype d) const { return peaks[static_cast<std::size_t>(d)]; }
};

/// A model-level stage or layer with the lesson's MAC and weight counts.
struct Stage {
  std::string id;
  std::string name;
  double macs;     ///< MACs per example
  double weights;  ///< parameters
};

struct Model {
  std::string id;
  std::string name;
  std::string kind;  ///< "llm" or "cnn"
  double params = 0;
  double bits_per_weight = 16;         ///< storage as served (16 for BF16/FP16, 8 for FP8)
  std::optional<Dtype> dtype;          ///< the served dtype, where it is a plain one
  std::optional<double> layers, kv_heads, head_dim;  ///< LLM shape, where known
  std::optional<double> macs_per_example;            ///< CNN forward MACs per example
  std::vector<Stage> stages;
  std::string source;

  /// params × bits per weight ÷ 8.
  [[nodiscard]] Bytes weight_bytes() const { return Bytes{params * bits_per_weight / 8}; }
};

std::span<const Gpu> gpus();
std::span<const Model> models();
/// Throws unknown_gpu / unknown_model naming `field` when the id is not in the catalog.
const Gpu& find_gpu(std::string_view id, std::string_view field = "id");
const Model& find_model(std::string_view id, std::string_view field = "id");
/// The roofline device of a GPU at one precision; throws unsupported_dtype where it has no peak.
Device device_for(const Gpu& gpu, Dtype dtype);

/// What renting `gpus` GPUs for `hours` costs at a price per GPU-hour, in US dollars
/// (two T4 for a 30-day month: 0.53 × 2 × 720 ≈ US$763).
double rental_cost_usd(double price_per_hour_usd, double gpus, double hours);

}  // namespace roofline
