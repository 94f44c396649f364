#include "roofline/catalog.hpp"

#include "roofline/error.hpp"
#include "roofline/precision.hpp"

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
       peaks(8.1, none, 65, none, none, 130), 0.526,
       "Lesson table (FP32 8.1, FP16 65 with tensor cores, INT8 130 TOPS, 320 GB/s, ≈ US$0.53/h AWS, "
       "Sep 2026). No BF16, FP8 or sparsity. NVIDIA T4 datasheet. The price is AWS's on-demand "
       "g4dn.xlarge (one T4), US$0.526/h, which the table rounds to ≈ US$0.53 and with which two T4 "
       "cost the lesson's ≈ US$768 a month (730 h)."},
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

const std::vector<WeightFormat>& format_table() {
  static const std::vector<WeightFormat> table = {
      {"bf16", "BF16", Dtype::bf16, 16, false, std::nullopt, Dtype::fp16, false, Dtype::bf16,
       "Lesson: 2 bytes per weight, as Llama 3 8B is served (≈ 16.06 GB)."},
      {"fp16", "FP16", Dtype::fp16, 16, false, std::nullopt, Dtype::fp16, false, Dtype::fp16,
       "Lesson (C01): 2 bytes per weight, and the arithmetic at the FP16 peak."},
      {"fp8", "FP8", Dtype::fp8, 8, false, std::nullopt, Dtype::fp16, false, Dtype::fp8,
       "Lesson (C10): 1 byte per weight, and the matmuls run at the FP8 peak."},
      {"int8", "INT8 weight-only", Dtype::int8, 8, true, std::nullopt, Dtype::fp16, false, Dtype::bf16,
       "Lesson: 1 byte per weight (Llama 3 8B ≈ 8.03 GB); the weights are converted back to 16 bits "
       "before the arithmetic, so the matmuls run at the BF16 peak."},
      {"int4", "INT4 weight-only", Dtype::int4, 4, true, 64.0, Dtype::fp16, true, Dtype::bf16,
       "Lesson: half a byte per weight plus the scale of each group (one FP16 scale per 64 weights "
       "here), with the embeddings and the output layer kept in BF16 (Llama 3 8B ≈ 5.73 GB)."},
      {"q3.5", "3.5 bits", std::nullopt, 3.5, true, std::nullopt, Dtype::fp16, false, Dtype::bf16,
       "Lesson: the on-device model compressed to ≈ 3.5 bits per weight on average (≈ 1.3 GB for 3 B)."},
  };
  return table;
}

const std::vector<Model>& model_table() {
  static const std::vector<Model> table = [] {
    std::vector<Model> t;
    t.push_back({"llama3-8b", "Llama 3 8B", "llm", 8.03e9, "bf16", 1.0e9, Dtype::bf16, 32, 8, 128, std::nullopt, std::nullopt, {},
                 "Lesson: 8.03 billion parameters served in BF16 (≈ 16.06 GB); ≈ 1,000 million of them "
                 "(embeddings and output layer) stay in BF16 under INT4. Layers, KV heads and head "
                 "dimension from Meta's published configuration."});
    t.push_back({"c10-70b", "70.6 B model (C10)", "llm", 70.6e9, "fp8", 0, Dtype::fp8, std::nullopt, std::nullopt,
                 std::nullopt, std::nullopt, std::nullopt, {},
                 "Lesson (C10): 70.6 billion parameters in FP8 (≈ 70.6 GB), two H100 in tensor parallel."});
    t.push_back({"qwen-27b", "Qwen3.8-27B", "llm", 27e9, "bf16", 0, Dtype::bf16, std::nullopt, std::nullopt,
                 std::nullopt, std::nullopt, std::nullopt, {},
                 "Lesson, English section: roughly 27 billion parameters in bfloat16, ≈ 54 GB of weights."});
    t.push_back({"phone-3b", "On-device model, 3 B at 3.5 bits", "llm", 3e9, "q3.5", 0, std::nullopt, std::nullopt,
                 std::nullopt, std::nullopt, std::nullopt, std::nullopt, {},
                 "Lesson: ≈ 3 billion parameters compressed to ≈ 3.5 bits per weight (≈ 1.3 GB)."});
    t.push_back({"resnet50", "ResNet-50 (C01)", "cnn", 24.5e6, "fp16", 0, Dtype::fp16, std::nullopt, std::nullopt,
                 std::nullopt, 4.088e9, 4.1e9,
                 {{"conv1", "First convolution (7 × 7, 64 filters)", 118013952, 9408},
                  {"stage1", "Stage 1 (56 × 56 maps)", 668e6, 0.216e6},
                  {"stage3", "Stage 3 (14 × 14 maps)", 1464e6, 7.1e6},
                  {"stage4", "Stage 4 (7 × 7 maps)", 809e6, 15.0e6},
                  {"fc", "Final dense layer (2,048 → 500)", 1024000, 1024500},
                  // not in the lesson's table: ResNet-50's published architecture, one 1 × 1 convolution of
                  // stage 1 (256 → 64 channels at 56 × 56 = 3,136 positions), with the maps it reads and writes
                  {"stage1-1x1", "A 1 × 1 convolution of stage 1 (256 → 64 channels)", 51380224, 16384, 1003520}},
                 "Lesson (C01): 24.5 million parameters, 4,088 million MACs per 224 × 224 photo "
                 "counted layer by layer, which the lesson works with as 4.1 GMACs (8.2 GFLOPs); served in "
                 "FP16; stage figures from the lesson's table; one 1 × 1 convolution of stage 1 (256 → 64 channels at "
                 "56 × 56 positions) from ResNet-50's published architecture (He et al., 2015)."});
    return t;
  }();
  return table;
}

CaseValue num(std::string_view name, double v) { return {name, v, {}}; }
CaseValue id(std::string_view name, std::string_view v) { return {name, 0, v}; }

const std::vector<LessonCase>& case_table() {
  static const std::vector<LessonCase> table = {
      {"c01-last-layer", "C01's last layer on a batch of 32 photos",
       {num("n", 32), num("k", 2048), num("m", 500), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: the final dense layer of C01 (2,048 inputs, 500 classes) over 32 photos, FP16 on a T4: "
       "65,536,000 FLOPs."},
      {"matmul-4096", "Two 4,096 × 4,096 matrices",
       {num("n", 4096), num("k", 4096), num("m", 4096), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: two 4,096 × 4,096 matrices in FP16 on a T4, ≈ 137 GFLOPs and ≈ 101 MB, intensity ≈ 1,365."},
      {"matvec-4096", "A 4,096 × 4,096 matrix times a vector",
       {num("n", 1), num("k", 4096), num("m", 4096), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: a 4,096 × 4,096 matrix times one vector in FP16 on a T4 uses each weight once: ≈ 33.6 "
       "million FLOPs over ≈ 33.6 MB, an intensity of ≈ 1, memory-bound (≈ 0.105 ms to read, ≈ 0.0005 ms "
       "to compute)."},
      {"matmul-1024", "Two 1,024 × 1,024 matrices",
       {num("n", 1024), num("k", 1024), num("m", 1024), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson (exercise 5): two 1,024 × 1,024 matrices in FP16, ≈ 2.15 × 10⁹ FLOPs over ≈ 6.3 MB, an "
       "intensity of ≈ 341: compute-bound on a T4 (ridge ≈ 203), memory-bound on an L4 (ridge ≈ 403)."},
      {"dot-4096", "Dot product of two vectors of 4,096 numbers",
       {num("n", 1), num("k", 4096), num("m", 1), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: two vectors of 4,096 numbers in FP16, 8,192 FLOPs over 16,384 bytes read, an intensity "
       "of 0.5 (writing the 2-byte result adds 2 bytes)."},
      {"t4-decode-point", "An LLM decode on the T4's roofline",
       {id("gpu", "t4"), id("dtype", "fp16"), num("flopsPerByte", 1)},
       "Lesson: decoding in 16 bits uses each 2-byte weight for 2 FLOPs, an intensity of ≈ 1, which "
       "reaches at most 0.32 TFLOPS on a T4."},
      {"layer-4096", "A 4,096 × 4,096 layer with a batch",
       {num("inputs", 4096), num("outputs", 4096), num("batch", 32), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: a 4,096 × 4,096 FP16 layer applied to a batch of vectors; it crosses the T4's ridge at "
       "a batch of 226."},
      {"llama-l4-decode", "Llama 3 8B decoding on an L4",
       {id("model", "llama3-8b"), id("format", "bf16"), id("gpu", "l4"), num("batch", 1), num("kvTokens", 0),
        num("gpus", 1)},
       "Lesson: every token reads the 16.06 GB of weights once; at 300 GB/s that is ≈ 53.5 ms, ≈ 18.7 "
       "tokens per second."},
      {"four-conversations", "Four conversations at once on an L4",
       {id("model", "llama3-8b"), id("format", "bf16"), id("gpu", "l4"), num("batch", 4), num("kvTokens", 8192),
        num("kvBytesPerSequence", 1.07e9), num("gpus", 1)},
       "Lesson: four conversations of 8,192 tokens, 1.07 GB of KV cache each (the lesson's rounding of the "
       "1,073,741,824 bytes that 8,192 tokens of Llama 3 8B hold): 16.06 + 4 × 1.07 ≈ 20.3 GB per step, "
       "≈ 59 tokens per second in total, ≈ 15 each."},
      {"llama-l4-prefill", "Prefill of a 2,000-token prompt on an L4",
       {id("model", "llama3-8b"), id("format", "bf16"), id("gpu", "l4"), num("promptTokens", 2000),
        num("gpus", 1)},
       "Lesson: the 2,000 tokens of a prompt go through the model together: ≈ 265 ms, set by the "
       "arithmetic, against ≈ 54 ms per decoded token."},
      {"c10-2xh100", "C10 on two H100 in tensor parallel",
       {id("model", "c10-70b"), id("format", "fp8"), id("gpu", "h100-sxm"), num("gpus", 2), num("batch", 40),
        num("kvBytesPerSequence", 695e6), num("promptTokens", 2000)},
       "Lesson (C10): 70.6 GB of FP8 weights split over two H100; with 40 conversations each GPU also "
       "reads ≈ 13.9 GB of KV cache per step (2 × 13.9 GB ÷ 40 = 0.695 GB per conversation); a "
       "2,000-token prompt."},
      {"conv1-tiles", "Tiles over C01's first feature maps",
       {num("tile", 64), num("elements", 802816), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: square tiles of a matmul, and the 112 × 112 × 64 = 802,816 values that C01's first "
       "convolution writes, in FP16 on a T4."},
      {"c01-day", "All of one day's photos at C01",
       {id("model", "resnet50"), id("gpu", "t4"), num("items", 10e6), num("itemsPerSecond", 1200), num("gpus", 2),
        num("hours", 730)},
       "Lesson (C01): ≈ 10 million photos a day, 8.2 GFLOPs each, on two T4 that serve ≈ 1,200 photos/s each (perf_analyzer); a month of 730 h."},
      {"c01-training", "C01's monthly training run",
       {id("model", "resnet50"), num("examples", 1840211), num("epochs", 8)},
       "Lesson (C01): 1,840,211 photos, 8 epochs, a step ≈ 3 forward passes."},
      {"c01-fp32", "C01 served in float32 without optimizing",
       {id("model", "resnet50"), id("gpu", "t4"), id("dtype", "fp32"), num("itemsPerSecond", 100),
        num("demandItemsPerSecond", 500)},
       "Lesson (C01): unoptimized PyTorch in float32 serves ≈ 100 photos/s; the design peak is 500."},
      {"c10-serving", "C10: a replica of two H100 serving a 70.6 B model",
       {id("model", "c10-70b"), id("format", "fp8"), id("gpu", "h100-sxm"), num("gpus", 2), num("batch", 40),
        num("kvBytesPerSequence", 695e6), num("promptTokens", 1000), num("itemsPerSecond", 4.2),
        num("seconds", 0.05), num("replicas", 16)},
       "Lesson (C10): two H100 per replica, 40 conversations of 0.695 GB of KV cache, ≈ 4.2 questions/s of ≈ 1,000 new tokens, a 50 ms TPOT target, 16 replicas."},
      {"phone-decode", "A small model on a phone",
       {id("model", "phone-3b"), num("batch", 1), num("kvBytesPerSequence", 0), num("bytesPerSecond", 50e9),
        num("measuredTokensPerSecond", 30), num("publishedYear", 2024)},
       "Lesson: ≈ 30 tokens/s on an iPhone 15 Pro (Apple, 2024); ≈ 50 GB/s is the lesson's estimate."},
      {"game-frame", "A 1080p frame, 60 times a second",
       {num("width", 1920), num("height", 1080), num("framesPerSecond", 60)},
       "Lesson: 1920 × 1080 pixels, 60 times a second."},
      {"c01-conv1", "C01's first convolution",
       {num("inputHeight", 224), num("inputWidth", 224), num("inChannels", 3), num("kernelHeight", 7),
        num("kernelWidth", 7), num("filters", 64), num("stride", 2), num("padding", 3), id("dtype", "fp16")},
       "Lesson (C01): ResNet-50's first layer looks at a 224 × 224 photo with 3 channels through 64 filters "
       "of 7 × 7, stride 2 and padding 3: 112 × 112 = 12,544 positions, a 12,544 × 147 by 147 × 64 matmul."},
  };
  return table;
}
// The entry with `id`, or an error listing the ids there are.
template <class Entry>
const Entry& find_by_id(const std::vector<Entry>& table, std::string_view id, std::string_view field, ErrorCode code) {
  for (const Entry& e : table) {
    if (e.id == id) return e;
  }
  std::string known;
  for (const Entry& e : table) known += (known.empty() ? "" : ", ") + std::string(e.id);
  throw Error(code, std::string(field),
              std::string(field) + " must be one of " + known + ", got \"" + std::string(id.substr(0, 40)) + "\"");
}

}  // namespace

std::span<const Gpu> gpus() { return gpu_table(); }
std::span<const Model> models() { return model_table(); }
std::span<const WeightFormat> weight_formats() { return format_table(); }
std::span<const LessonCase> lesson_cases() { return case_table(); }

const CaseValue* LessonCase::find(std::string_view name) const {
  for (const CaseValue& v : values) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

const Gpu& find_gpu(std::string_view id, std::string_view field) {
  return find_by_id(gpu_table(), id, field, ErrorCode::unknown_gpu);
}

const Model& find_model(std::string_view id, std::string_view field) {
  return find_by_id(model_table(), id, field, ErrorCode::unknown_model);
}

const WeightFormat& find_format(std::string_view id, std::string_view field) {
  return find_by_id(format_table(), id, field, ErrorCode::unknown_format);
}

const LessonCase& find_case(std::string_view id, std::string_view field) {
  return find_by_id(case_table(), id, field, ErrorCode::unknown_case);
}

ModelWeights model_weights(const Model& model, const WeightFormat& format) {
  ModelWeights w;
  w.params = model.params;
  w.format = format.id;
  if (format.dtype) {
    QuantizedWeightsInput in{};
    in.params = model.params;
    in.dtype = *format.dtype;
    in.group_size = format.group_size;
    in.scale_dtype = format.scale_dtype;
    in.kept_params = format.keeps_bf16_share ? model.kept_params : 0;
    in.kept_dtype = Dtype::bf16;
    const QuantizedWeights q = quantized_weights(in);
    w.bytes = q.bytes;
    w.kept_params = in.kept_params;
    w.bits_per_weight = q.bits_per_weight;
  } else {
    // A bit budget (3.5 bits per weight on average) with no dtype of its own.
    w.bytes = Bytes{require_result("bytes", model.params * format.bits / 8)};
    w.bits_per_weight = format.bits;
  }
  return w;
}

ModelWeights model_weights(const Model& model) { return model_weights(model, find_format(model.format, "format")); }

Device device_for(const Gpu& gpu, Dtype dtype) {
  const auto peak = gpu.peak(dtype);
  if (!peak) {
    throw Error(ErrorCode::unsupported_dtype, "dtype",
                std::string(gpu.name) + " has no dense " + std::string(dtype_name(dtype)) + " peak");
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
