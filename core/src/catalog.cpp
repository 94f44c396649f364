#include "roofline/catalog.hpp"

#include "roofline/error.hpp"

namespace roofline {

namespace {

using Peaks = std::array<std::optional<FlopsPerSecond>, all_dtypes.size()>;

// Arguments in TFLOP/s (TOPS for int8); a negative value marks "no such peak".
Peaks peaks(double fp32, double tf32, double fp16, double bf16, double fp8, double int8) {
  Peaks p{};
  const double tflops[] = {fp32, tf32, fp16, bf16, fp8, int8};
  for (std::size_t i = 0; i < 6; ++i) {
    if (tflops[i] > 0) p[i] = teraflops_per_second(tflops[i]);
  }
  return p;  // int4 is never listed
}

constexpr double none = -1;

const std::vector<Gpu>& gpu_table() {
  static const std::vector<Gpu> table = {
      {"t4", "NVIDIA T4", 2018, gigabytes(16), gigabytes_per_second(320),
       peaks(8.1, none, 65, none, none, 130), 0.53,
       "Lesson table (FP32 8.1, FP16 65 with tensor cores, INT8 130 TOPS, 320 GB/s, ≈ US$0.53/h AWS, "
       "Sep 2026). No BF16, FP8 or sparsity. NVIDIA T4 datasheet."},
      {"l4", "NVIDIA L4", 2023, gigabytes(24), gigabytes_per_second(300),
       peaks(30.3, 60, 121, 121, 242, 242), 0.80,
       "Lesson table (FP16 ≈ 121, FP8 ≈ 242, INT8 ≈ 242 TOPS dense, 300 GB/s, ≈ US$0.80/h AWS, "
       "Sep 2026). FP32 30.3 and TF32 60 (120 with sparsity, halved) from the NVIDIA L4 datasheet."},
      {"a100-40gb", "NVIDIA A100 40 GB", 2020, gigabytes(40), gigabytes_per_second(1555),
       peaks(19.5, 156, 312, 312, none, 624), 2.75,
       "Lesson table (FP16 312, INT8 624 TOPS dense, 1,555 GB/s, ≈ US$2.75/h AWS, Sep 2026). "
       "FP32 19.5 and TF32 156 from the NVIDIA A100 datasheet. No FP8."},
      {"a100-80gb", "NVIDIA A100 80 GB", 2020, gigabytes(80), gigabytes_per_second(2039),
       peaks(19.5, 156, 312, 312, none, 624), 3.43,
       "Lesson table (FP16 312, INT8 624 TOPS dense, 2,039 GB/s, ≈ US$3.43/h AWS, Sep 2026). "
       "FP32 19.5 and TF32 156 from the NVIDIA A100 datasheet. No FP8."},
      {"h100-sxm", "NVIDIA H100 SXM", 2022, gigabytes(80), gigabytes_per_second(3350),
       peaks(67, 494.5, 990, 990, 1979, 1979), 6.88,
       "Lesson table (FP16 ≈ 990, FP8 ≈ 1,979, INT8 ≈ 1,979 TOPS dense, 3,350 GB/s, ≈ US$6.88/h AWS, "
       "Sep 2026). FP32 67 and TF32 494.5 (989 with sparsity, halved) from the NVIDIA H100 datasheet."},
      {"h200", "NVIDIA H200 SXM", 2024, gigabytes(141), gigabytes_per_second(4800),
       peaks(67, 494.5, 989.5, 989.5, 1979, 1979), std::nullopt,
       "NVIDIA H200 datasheet: 141 GB HBM3e at 4.8 TB/s; dense peaks are the datasheet's "
       "with-sparsity figures halved (FP16/BF16 1,979 → 989.5, FP8/INT8 3,958 → 1,979). "
       "No price in the lesson."},
  };
  return table;
}

const std::vector<Model>& model_table() {
  static const std::vector<Model> table = [] {
    std::vector<Model> t;
    Model llama{"llama3-8b", "Llama 3 8B", "llm", 8.03e9, 16, Dtype::bf16, 32, 8, 128, std::nullopt, {},
                "Lesson: 8.03 billion parameters served in BF16 (≈ 16.06 GB). Layers, KV heads and head "
                "dimension from Meta's published configuration."};
    t.push_back(llama);
    Model c10{"c10-70b", "70.6 B model (C10)", "llm", 70.6e9, 8, Dtype::fp8, std::nullopt, std::nullopt,
              std::nullopt, std::nullopt, {},
              "Lesson (C10): 70.6 billion parameters in FP8 (≈ 70.6 GB), two H100 in tensor parallel."};
    t.push_back(c10);
    Model qwen{"qwen-27b", "Qwen3.8-27B", "llm", 27e9, 16, Dtype::bf16, std::nullopt, std::nullopt,
               std::nullopt, std::nullopt, {},
               "Lesson, English section: roughly 27 billion parameters in bfloat16, ≈ 54 GB of weights."};
    t.push_back(qwen);
    Model phone{"phone-3b", "On-device model, 3 B at 3.5 bits", "llm", 3e9, 3.5, std::nullopt, std::nullopt,
                std::nullopt, std::nullopt, std::nullopt, {},
                "Lesson: ≈ 3 billion parameters compressed to ≈ 3.5 bits per weight (≈ 1.3 GB)."};
    t.push_back(phone);
    Model resnet{"resnet50", "ResNet-50 (C01)", "cnn", 24.5e6, 16, Dtype::fp16, std::nullopt, std::nullopt,
                 std::nullopt, 4.088e9,
                 {{"conv1", "First convolution (7 × 7, 64 filters)", 118013952, 9408},
                  {"stage1", "Stage 1 (56 × 56 maps)", 668e6, 0.216e6},
                  {"stage3", "Stage 3 (14 × 14 maps)", 1464e6, 7.1e6},
                  {"stage4", "Stage 4 (7 × 7 maps)", 809e6, 15.0e6},
                  {"fc", "Final dense layer (2,048 → 500)", 1024000, 1024500}},
                 "Lesson (C01): 24.5 million parameters, 4,088 million MACs per 224 × 224 photo "
                 "counted layer by layer, served in FP16; stage figures from the lesson's table."};
    t.push_back(resnet);
    return t;
  }();
  return table;
}

// The entry with `id`, or an error listing the ids there are.
template <class Entry>
const Entry& find_by_id(const std::vector<Entry>& table, std::string_view id, std::string_view field, ErrorCode code) {
  for (const Entry& e : table) {
    if (e.id == id) return e;
  }
  std::string known;
  for (const Entry& e : table) known += (known.empty() ? "" : ", ") + e.id;
  throw Error(code, std::string(field),
              std::string(field) + " must be one of " + known + ", got \"" + std::string(id.substr(0, 40)) + "\"");
}

}  // namespace

std::span<const Gpu> gpus() { return gpu_table(); }
std::span<const Model> models() { return model_table(); }

const Gpu& find_gpu(std::string_view id, std::string_view field) {
  return find_by_id(gpu_table(), id, field, ErrorCode::unknown_gpu);
}

const Model& find_model(std::string_view id, std::string_view field) {
  return find_by_id(model_table(), id, field, ErrorCode::unknown_model);
}

Device device_for(const Gpu& gpu, Dtype dtype) {
  const auto peak = gpu.peak(dtype);
  if (!peak) {
    throw Error(ErrorCode::unsupported_dtype, "dtype",
                gpu.name + " has no dense " + std::string(dtype_name(dtype)) + " peak");
  }
  return {*peak, gpu.bandwidth};
}

double rental_cost_usd(double price_per_hour_usd, double gpus, double hours) {
  require_positive("pricePerHourUsd", price_per_hour_usd);
  require_count("gpus", gpus);
  require_positive("hours", hours);
  return require_result("usd", price_per_hour_usd * gpus * hours);
}

}  // namespace roofline
