// The catalog of devices and models, each figure with where it comes from: one data file per
// device (core/catalog/devices/) and per model (core/catalog/models/), built into the core.
//
//   const Gpu& t4 = find_gpu("t4");
//   t4.peak(Dtype::fp16);            // 65 TFLOP/s (dense, tensor cores)
//   t4.peak(Dtype::fp8);             // std::nullopt: the T4 has no FP8
//   device_for(t4, Dtype::fp16);     // {65 TFLOP/s, 320 GB/s}; throws unsupported_dtype for FP8
//   model_weights(find_model("llama3-8b"), find_format("int4")).bytes;   // ≈ 5.73 GB
//   find_case("c01-last-layer").find("k")->number;                      // 2048
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/architecture.hpp"
#include "roofline/dtype.hpp"
#include "roofline/roofline.hpp"
#include "roofline/units.hpp"
#include "roofline/weight_format.hpp"

namespace roofline {

/// What kind of part a device is: the page groups its selects by this.
enum class DeviceKind { datacenter_gpu, consumer_gpu, unified_memory, cpu, tpu };
inline constexpr std::array all_device_kinds{DeviceKind::datacenter_gpu, DeviceKind::consumer_gpu,
                                             DeviceKind::unified_memory, DeviceKind::cpu, DeviceKind::tpu};
/// "datacenter-gpu", "consumer-gpu", "unified-memory", "cpu", "tpu".
std::string_view device_kind_id(DeviceKind k);

/// A device (GPU, TPU, unified-memory chip): named Gpu because most are, and the API says "gpu".
struct Gpu {
  std::string id;
  std::string name;
  int year = 0;
  DeviceKind kind = DeviceKind::datacenter_gpu;
  Bytes memory;              ///< capacity (decimal GB), not a speed
  BytesPerSecond bandwidth;  ///< memory bandwidth
  /// Dense peak per dtype (index = Dtype), absent where the GPU has none. INT8 entries are
  /// integer operations per second (TOPS).
  std::array<std::optional<FlopsPerSecond>, all_dtypes.size()> peaks{};
  std::optional<double> price_per_hour_usd;  ///< on-demand cloud price per GPU, where a source gives one
  /// Unified memory: the share of memory_bytes the GPU may use by default; none: all of it.
  std::optional<double> gpu_memory_share;
  /// The lesson's own entries: their place (1, 2, ...); 0 for the others. Exercises draw from these only.
  int lesson_order = 0;
  /// Its link between GPUs (a links/ id: "nvlink4", "pcie5-x16"); none where the catalog has none.
  std::optional<std::string> link;
  std::string source;

  [[nodiscard]] std::optional<FlopsPerSecond> peak(Dtype d) const { return peaks[static_cast<std::size_t>(d)]; }
};

/// A model-level stage or layer with the lesson's MAC and weight counts.
struct Stage {
  std::string id;
  std::string name;
  double macs;             ///< MACs per example
  double weights;          ///< parameters
  double activations = 0;  ///< elements it reads and writes per example (its maps), where known; 0 if not

  /// How many times each weight is used per example: MACs ÷ weights (one MAC per use). In FP16,
  /// 2 FLOPs per use over 2 bytes per weight, this is also the weights-only intensity at batch 1.
  [[nodiscard]] double uses_per_weight() const { return macs / weights; }
};

struct Model {
  std::string id;
  std::string name;
  std::string kind;  ///< "llm" or "cnn"
  /// Parameters: the lesson's figure for its own models (Llama 3 8B: 8.03 B), else counted from
  /// the architecture.
  double params = 0;
  std::string format;                                ///< the weight format it is served in (a WeightFormat id)
  double kept_params = 0;                            ///< parameters that stay in BF16 under weight-only INT4
  std::optional<Dtype> dtype;                        ///< dtype of its activations and KV cache, where plain
  std::optional<double> layers, kv_heads, head_dim;  ///< LLM shape, where known
  std::optional<double> macs_per_example;            ///< CNN forward MACs per example, counted layer by layer
  /// The rounded figure a lesson works with (ResNet-50: 4.1 GMACs, 8.2 GFLOPs, against the 4,088
  /// million counted): its worked numbers, exercises and real-life cases use this one.
  std::optional<double> working_macs_per_example;
  std::vector<Stage> stages;
  /// Its architecture, read from its published config.json, where it has one.
  std::optional<Architecture> architecture;
  /// The publisher's counts, which the architecture must reproduce (within 0.5 %), and whether
  /// the publisher's active count includes the input embedding table.
  std::optional<double> published_params, published_active_params;
  bool published_active_counts_embedding = false;
  /// params and kept_params are the lesson's figures (its "lesson" block), not the architecture's.
  bool lesson_figures = false;
  int lesson_order = 0;  ///< the lesson's own models: their place (1, 2, ...); 0 for the others
  std::string source;
};

/// One value of a lesson case: a number in base units, or an id (GPU, model, format, dtype).
struct CaseValue {
  std::string name;
  double number = 0;
  std::string id;  ///< non-empty for ids
  [[nodiscard]] bool is_id() const { return !id.empty(); }
};

/// A worked case of the lesson (the C01 last layer, Llama 3 8B on an L4, ...): the inputs every
/// calculator, table and exercise starts from, as named values.
struct LessonCase {
  std::string id;
  std::string name;
  std::vector<CaseValue> values;
  std::string source;
  int lesson_order = 0;  ///< its place in lesson_cases()
  [[nodiscard]] const CaseValue* find(std::string_view name) const;
};

/// A published measurement of decode speed on one device, with its conditions
/// (core/catalog/measurements/*.json): what real systems reach below the lesson's ceiling.
struct Measurement {
  std::string id;
  std::string name;
  std::string model;             ///< a catalog model id
  std::string format;            ///< a weight format id: the weights as the run held them
  std::string gpu;               ///< a catalog device id
  double gpus = 1;               ///< devices the model ran on
  double batch = 1;              ///< sequences decoded together
  double generated_tokens = 0;   ///< tokens each sequence generated in the run (its context grows to this)
  double tokens_per_second = 0;  ///< measured, all sequences together
  std::string engine;            ///< the inference engine ("llama.cpp")
  std::string date;              ///< when it was measured or published, "YYYY-MM"
  std::string url;               ///< where the figure is published
  std::string source;            ///< where exactly, and every condition the source gives
};

/// A link between GPUs (core/catalog/links/): what one GPU sends each way per second, and the time
/// a collective takes however small its message.
struct Link {
  std::string id;            ///< "nvlink4", "pcie5-x16"
  std::string name;          ///< "NVLink 4 (H100, H200, NVSwitch)"
  BytesPerSecond bandwidth;  ///< each way, per GPU
  Seconds latency;           ///< per all-reduce
  std::string source;
};

/// Lesson entries first (in the lesson's order), then the others by kind, year and name.
std::span<const Gpu> gpus();
/// By bandwidth, slowest first.
std::span<const Link> links();
/// Lesson models first, then the others by name.
std::span<const Model> models();
std::span<const WeightFormat> weight_formats();
std::span<const LessonCase> lesson_cases();
/// The published measurements, by model, then device.
std::span<const Measurement> measurements();
/// Exact ids only. Throws unknown_gpu / unknown_model / unknown_format / unknown_case naming
/// `field` when the id is not in the catalog.
const Gpu& find_gpu(std::string_view id, std::string_view field = "id");
const Model& find_model(std::string_view id, std::string_view field = "id");
const WeightFormat& find_format(std::string_view id, std::string_view field = "format");
const LessonCase& find_case(std::string_view id, std::string_view field = "id");
/// Throws unknown_link naming `field`.
const Link& find_link(std::string_view id, std::string_view field = "link");
/// The roofline device of a GPU at one precision; throws unsupported_dtype where it has no peak.
Device device_for(const Gpu& gpu, Dtype dtype);
/// What a device's GPU may hold: its memory, times the share a unified-memory device gives its GPU
/// (gpuMemoryShare); the one rule for it (rl.gpu's usableMemoryBytes, a lesson case's memoryBytesPerGpu).
Bytes usable_memory(const Gpu& gpu);

/// A model's weight bytes in a format (Llama 3 8B: BF16 16.06 GB, INT8 8.03 GB, INT4 ≈ 5.73 GB
/// with its ≈ 1.0 B kept parameters in BF16 and one FP16 scale per 64 weights).
ModelWeights model_weights(const Model& model, const WeightFormat& format);
/// In the model's own format.
ModelWeights model_weights(const Model& model);

/// What renting `gpus` GPUs for `hours` costs at a price per GPU-hour, in US dollars
/// (two T4 for a 30-day month: 0.53 × 2 × 720 ≈ US$763).
double rental_cost_usd(double price_per_hour_usd, double gpus, double hours);

}  // namespace roofline
