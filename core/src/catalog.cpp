#include "roofline/catalog.hpp"

#include <algorithm>
#include <cmath>

#include "catalog_files.hpp"
#include "roofline/error.hpp"
#include "roofline/json.hpp"
#include "roofline/precision.hpp"

namespace roofline {

namespace {

// ---- the data files ------------------------------------------------------------------------

using json::Value;

/// One catalog file's fields, each error naming the file and the field (a test loads them all,
/// so a bad file fails the test suite; embed.cmake has already checked its JSON and main fields).
class Entry {
 public:
  Entry(const Value& v, std::string path) : v_(v), path_(std::move(path)) {}

  [[noreturn]] void fail(std::string_view field, const std::string& rule) const {
    throw Error(ErrorCode::internal_error, std::string(field),
                "core/catalog/" + path_ + ": " + std::string(field) + " " + rule);
  }
  [[nodiscard]] const Value* find(std::string_view key) const {
    const Value* f = v_.find(key);
    return f && !f->is(Value::Kind::null) ? f : nullptr;
  }
  [[nodiscard]] std::string text(std::string_view key) const {
    const Value* f = find(key);
    if (!f || !f->is(Value::Kind::string) || f->string().empty()) fail(key, "must be a non-empty text");
    return f->string();
  }
  [[nodiscard]] double number(std::string_view key) const {
    const Value* f = find(key);
    if (!f || !f->is(Value::Kind::number) || !std::isfinite(f->number()) || f->number() < 0) {
      fail(key, "must be a number, zero or more");
    }
    return f->number();
  }
  [[nodiscard]] double positive(std::string_view key) const {
    const double x = number(key);
    if (x <= 0) fail(key, "must be greater than zero");
    return x;
  }
  [[nodiscard]] std::optional<double> optional_positive(std::string_view key) const {
    if (!find(key)) return std::nullopt;
    return positive(key);
  }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const Value& value() const { return v_; }

 private:
  const Value& v_;
  std::string path_;
};

Gpu read_device(const Value& v, const std::string& path) {
  const Entry e(v, path);
  Gpu g;
  g.id = e.text("id");
  g.name = e.text("name");
  g.year = static_cast<int>(e.positive("year"));
  const std::string kind = e.text("kind");
  bool known = false;
  for (DeviceKind k : all_device_kinds) {
    if (device_kind_id(k) == kind) g.kind = k, known = true;
  }
  if (!known) e.fail("kind", "must be datacenter-gpu, consumer-gpu, unified-memory, cpu or tpu");
  g.memory = Bytes{e.positive("memoryBytes")};
  g.bandwidth = BytesPerSecond{e.positive("bytesPerSecond")};
  const Value* peaks = e.find("peakFlopsPerSecond");
  if (!peaks || !peaks->is(Value::Kind::object)) e.fail("peakFlopsPerSecond", "must be an object keyed by dtype");
  for (std::size_t i = 0; i < peaks->keys().size(); ++i) {
    const std::string& key = peaks->keys()[i];
    const Value& x = peaks->items()[i];
    std::optional<Dtype> d;
    for (Dtype t : all_dtypes) {
      if (dtype_id(t) == key && t != Dtype::int4) d = t;
    }
    if (!d)
      e.fail("peakFlopsPerSecond." + key, "is not a dtype with a listed peak (fp32, tf32, fp16, bf16, fp8, int8)");
    if (!x.is(Value::Kind::number) || !(x.number() > 0) || !std::isfinite(x.number())) {
      e.fail("peakFlopsPerSecond." + key, "must be a rate greater than zero");
    }
    g.peaks[static_cast<std::size_t>(*d)] = FlopsPerSecond{x.number()};
  }
  g.price_per_hour_usd = e.optional_positive("pricePerHourUsd");
  g.gpu_memory_share = e.optional_positive("gpuMemoryShare");
  if (g.gpu_memory_share && *g.gpu_memory_share > 1) e.fail("gpuMemoryShare", "must be a share from 0 to 1");
  if (g.kind == DeviceKind::unified_memory && !g.gpu_memory_share) {
    e.fail("gpuMemoryShare", "is required for unified memory: the share of memory the GPU may use");
  }
  if (e.find("lessonOrder")) g.lesson_order = static_cast<int>(e.positive("lessonOrder"));
  g.source = e.text("source");
  return g;
}

Model read_model(const Value& v, const std::string& path) {
  const Entry e(v, path);
  Model m;
  m.id = e.text("id");
  m.name = e.text("name");
  m.kind = e.text("kind");
  if (m.kind != "llm" && m.kind != "cnn") e.fail("kind", "must be llm or cnn");
  m.format = e.text("format");
  find_format(m.format, "format");  // an unknown format fails here, naming the formats there are
  m.source = e.text("source");
  if (e.find("lessonOrder")) m.lesson_order = static_cast<int>(e.positive("lessonOrder"));
  if (const Value* config = e.find("config")) {
    m.architecture = architecture_from_config(*config, "config");
    const ParamCounts p = param_counts(*m.architecture);
    m.params = p.params;
    m.kept_params = p.embedding + p.output;
    m.dtype = Dtype::bf16;
    m.layers = m.architecture->layers;
    if (m.architecture->attention.kind == Attention::Kind::gqa) {
      m.kv_heads = m.architecture->attention.kv_heads;
      m.head_dim = m.architecture->attention.head_dim;
    }
    const Value* published = e.find("published");
    if (!published) e.fail("published", "must give the publisher's parameter counts");
    const Entry pub(*published, path);
    m.published_params = pub.positive("params");
    if (m.architecture->moe) {
      m.published_active_params = pub.positive("activeParams");
      const std::string convention = pub.text("activeConvention");
      if (convention != "with-input-embedding" && convention != "without-input-embedding") {
        pub.fail("published.activeConvention", "must be with-input-embedding or without-input-embedding");
      }
      m.published_active_counts_embedding = convention == "with-input-embedding";
    }
  }
  if (const Value* lesson = e.find("lesson")) {
    // the lesson's own figures, which its worked numbers use
    const Entry l(*lesson, path);
    m.lesson_figures = true;
    m.params = l.positive("params");
    m.kept_params = l.number("keptParams");
    if (l.find("dtype")) m.dtype = parse_dtype(l.text("dtype"), "lesson.dtype");
    else if (!m.architecture) m.dtype.reset();
    if (l.find("macsPerExample")) m.macs_per_example = l.positive("macsPerExample");
    if (l.find("workingMacsPerExample")) m.working_macs_per_example = l.positive("workingMacsPerExample");
    if (const Value* stages = l.find("stages")) {
      for (const Value& s : stages->items()) {
        const Entry st(s, path);
        Stage x{st.text("id"), st.text("name"), st.positive("macs"), st.positive("weights")};
        if (st.find("activations")) x.activations = st.positive("activations");
        m.stages.push_back(std::move(x));
      }
    }
  } else if (!m.architecture) {
    e.fail("lesson", "or config is required");
  }
  return m;
}

/// Every file of one folder ("devices/", "models/"), parsed.
template <class T, class Read>
std::vector<T> read_folder(std::string_view folder, Read read) {
  std::vector<T> out;
  for (std::size_t i = 0; i < detail::catalog_file_count; ++i) {
    const detail::CatalogFile& f = detail::catalog_files[i];
    if (f.path.substr(0, folder.size()) != folder) continue;
    const std::string path(f.path);
    try {
      out.push_back(read(json::parse_json(f.text), path));
    } catch (const Error& err) {
      throw Error(ErrorCode::internal_error, err.field(),
                  std::string(err.what()).rfind("core/catalog/", 0) == 0 ? err.what()
                                                                         : "core/catalog/" + path + ": " + err.what());
    }
  }
  return out;
}

const std::vector<Gpu>& gpu_table() {
  static const std::vector<Gpu> table = [] {
    std::vector<Gpu> t = read_folder<Gpu>("devices/", read_device);
    std::stable_sort(t.begin(), t.end(), [](const Gpu& a, const Gpu& b) {
      // the lesson's entries first, in its order; then by kind, year and name
      const int la = a.lesson_order ? a.lesson_order : 1 << 20, lb = b.lesson_order ? b.lesson_order : 1 << 20;
      if (la != lb) return la < lb;
      if (a.kind != b.kind) return a.kind < b.kind;
      if (a.year != b.year) return a.year < b.year;
      return a.name < b.name;
    });
    return t;
  }();
  return table;
}

const std::vector<WeightFormat>& format_table() {
  // clang-format off: one entry per line group, laid out as a table
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
  // clang-format on
  return table;
}

Measurement read_measurement(const Value& v, const std::string& path) {
  const Entry e(v, path);
  Measurement m;
  m.id = e.text("id");
  m.name = e.text("name");
  m.model = e.text("model");
  m.format = e.text("format");
  m.gpu = e.text("gpu");
  if (e.text("phase") != "decode") e.fail("phase", "must be \"decode\" (the only phase measured so far)");
  m.gpus = e.positive("gpus");
  m.batch = e.positive("batch");
  m.generated_tokens = e.positive("generatedTokens");
  m.tokens_per_second = e.positive("tokensPerSecond");
  m.engine = e.text("engine");
  m.date = e.text("date");
  m.url = e.text("url");
  m.source = e.text("source");
  if (m.url.rfind("https://", 0) != 0) e.fail("url", "must be an https:// address");
  return m;
}

const std::vector<Model>& model_table() {
  static const std::vector<Model> table = [] {
    std::vector<Model> t = read_folder<Model>("models/", read_model);
    std::stable_sort(t.begin(), t.end(), [](const Model& a, const Model& b) {
      const int la = a.lesson_order ? a.lesson_order : 1 << 20, lb = b.lesson_order ? b.lesson_order : 1 << 20;
      if (la != lb) return la < lb;
      return a.name < b.name;
    });
    return t;
  }();
  return table;
}

CaseValue num(std::string_view name, double v) { return {name, v, {}}; }
CaseValue id(std::string_view name, std::string_view v) { return {name, 0, v}; }

const std::vector<LessonCase>& case_table() {
  // clang-format off: one entry per line group, laid out as a table
  static const std::vector<LessonCase> table = {
      {"c01-last-layer",
       "C01's last layer on a batch of 32 photos",
       {num("n", 32), num("k", 2048), num("m", 500), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: the final dense layer of C01 (2,048 inputs, 500 classes) over 32 photos, FP16 on a T4: "
       "65,536,000 FLOPs."},
      {"matmul-4096",
       "Two 4,096 × 4,096 matrices",
       {num("n", 4096), num("k", 4096), num("m", 4096), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: two 4,096 × 4,096 matrices in FP16 on a T4, ≈ 137 GFLOPs and ≈ 101 MB, intensity ≈ 1,365."},
      {"matvec-4096",
       "A 4,096 × 4,096 matrix times a vector",
       {num("n", 1), num("k", 4096), num("m", 4096), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: a 4,096 × 4,096 matrix times one vector in FP16 on a T4 uses each weight once: ≈ 33.6 "
       "million FLOPs over ≈ 33.6 MB, an intensity of ≈ 1, memory-bound (≈ 0.105 ms to read, ≈ 0.0005 ms "
       "to compute)."},
      {"matmul-1024",
       "Two 1,024 × 1,024 matrices",
       {num("n", 1024), num("k", 1024), num("m", 1024), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson (exercise 5): two 1,024 × 1,024 matrices in FP16, ≈ 2.15 × 10⁹ FLOPs over ≈ 6.3 MB, an "
       "intensity of ≈ 341: compute-bound on a T4 (ridge ≈ 203), memory-bound on an L4 (ridge ≈ 403)."},
      {"dot-4096",
       "Dot product of two vectors of 4,096 numbers",
       {num("n", 1), num("k", 4096), num("m", 1), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: two vectors of 4,096 numbers in FP16, 8,192 FLOPs over 16,384 bytes read, an intensity "
       "of 0.5 (writing the 2-byte result adds 2 bytes)."},
      {"t4-decode-point",
       "An LLM decode on the T4's roofline",
       {id("gpu", "t4"), id("dtype", "fp16"), num("flopsPerByte", 1)},
       "Lesson: decoding in 16 bits uses each 2-byte weight for 2 FLOPs, an intensity of ≈ 1, which "
       "reaches at most 0.32 TFLOPS on a T4."},
      {"layer-4096",
       "A 4,096 × 4,096 layer with a batch",
       {num("inputs", 4096), num("outputs", 4096), num("batch", 32), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: a 4,096 × 4,096 FP16 layer applied to a batch of vectors; it crosses the T4's ridge at "
       "a batch of 226."},
      {"llama-l4-decode",
       "Llama 3 8B decoding on an L4",
       {id("model", "llama3-8b"), id("format", "bf16"), id("gpu", "l4"), num("batch", 1), num("kvTokens", 0),
        num("gpus", 1)},
       "Lesson: every token reads the 16.06 GB of weights once; at 300 GB/s that is ≈ 53.5 ms, ≈ 18.7 "
       "tokens per second."},
      {"four-conversations",
       "Four conversations at once on an L4",
       {id("model", "llama3-8b"), id("format", "bf16"), id("gpu", "l4"), num("batch", 4), num("kvTokens", 8192),
        num("kvBytesPerSequence", 1.07e9), num("gpus", 1)},
       "Lesson: four conversations of 8,192 tokens, 1.07 GB of KV cache each (the lesson's rounding of the "
       "1,073,741,824 bytes that 8,192 tokens of Llama 3 8B hold): 16.06 + 4 × 1.07 ≈ 20.3 GB per step, "
       "≈ 59 tokens per second in total, ≈ 15 each."},
      {"llama-l4-prefill",
       "Prefill of a 2,000-token prompt on an L4",
       {id("model", "llama3-8b"), id("format", "bf16"), id("gpu", "l4"), num("promptTokens", 2000), num("gpus", 1)},
       "Lesson: the 2,000 tokens of a prompt go through the model together: ≈ 265 ms, set by the "
       "arithmetic, against ≈ 54 ms per decoded token."},
      {"c10-2xh100",
       "C10 on two H100 in tensor parallel",
       {id("model", "c10-70b"), id("format", "fp8"), id("gpu", "h100-sxm"), num("gpus", 2), num("batch", 40),
        num("kvBytesPerSequence", 695e6), num("promptTokens", 2000)},
       "Lesson (C10): 70.6 GB of FP8 weights split over two H100; with 40 conversations each GPU also "
       "reads ≈ 13.9 GB of KV cache per step (2 × 13.9 GB ÷ 40 = 0.695 GB per conversation); a "
       "2,000-token prompt."},
      {"conv1-tiles",
       "Tiles over C01's first feature maps",
       {num("tile", 64), num("elements", 802816), id("dtype", "fp16"), id("gpu", "t4")},
       "Lesson: square tiles of a matmul, and the 112 × 112 × 64 = 802,816 values that C01's first "
       "convolution writes, in FP16 on a T4."},
      {"c01-day",
       "All of one day's photos at C01",
       {id("model", "resnet50"), id("gpu", "t4"), num("items", 10e6), num("itemsPerSecond", 1200), num("gpus", 2),
        num("hours", 730)},
       "Lesson (C01): ≈ 10 million photos a day, 8.2 GFLOPs each, on two T4 that serve ≈ 1,200 photos/s each "
       "(perf_analyzer); a month of 730 h."},
      {"c01-training",
       "C01's monthly training run",
       {id("model", "resnet50"), num("examples", 1840211), num("epochs", 8)},
       "Lesson (C01): 1,840,211 photos, 8 epochs, a step ≈ 3 forward passes."},
      {"c01-fp32",
       "C01 served in float32 without optimizing",
       {id("model", "resnet50"), id("gpu", "t4"), id("dtype", "fp32"), num("itemsPerSecond", 100),
        num("demandItemsPerSecond", 500)},
       "Lesson (C01): unoptimized PyTorch in float32 serves ≈ 100 photos/s; the design peak is 500."},
      {"c10-serving",
       "C10: a replica of two H100 serving a 70.6 B model",
       {id("model", "c10-70b"), id("format", "fp8"), id("gpu", "h100-sxm"), num("gpus", 2), num("batch", 40),
        num("kvBytesPerSequence", 695e6), num("promptTokens", 1000), num("itemsPerSecond", 4.2), num("seconds", 0.05),
        num("replicas", 16)},
       "Lesson (C10): two H100 per replica, 40 conversations of 0.695 GB of KV cache, ≈ 4.2 questions/s of ≈ 1,000 new "
       "tokens, a 50 ms TPOT target, 16 replicas."},
      {"phone-decode",
       "A small model on a phone",
       {id("model", "phone-3b"), num("batch", 1), num("kvBytesPerSequence", 0), num("bytesPerSecond", 50e9),
        num("measuredTokensPerSecond", 30), num("publishedYear", 2024)},
       "Lesson: ≈ 30 tokens/s on an iPhone 15 Pro (Apple, 2024); ≈ 50 GB/s is the lesson's estimate."},
      {"game-frame",
       "A 1080p frame, 60 times a second",
       {num("width", 1920), num("height", 1080), num("framesPerSecond", 60)},
       "Lesson: 1920 × 1080 pixels, 60 times a second."},
      {"c01-conv1",
       "C01's first convolution",
       {num("inputHeight", 224), num("inputWidth", 224), num("inChannels", 3), num("kernelHeight", 7),
        num("kernelWidth", 7), num("filters", 64), num("stride", 2), num("padding", 3), id("dtype", "fp16")},
       "Lesson (C01): ResNet-50's first layer looks at a 224 × 224 photo with 3 channels through 64 filters "
       "of 7 × 7, stride 2 and padding 3: 112 × 112 = 12,544 positions, a 12,544 × 147 by 147 × 64 matmul."},
      {"m08-resolution",
       "C01's photos at a lower resolution",
       {num("fromSide", 224), num("toSide", 160)},
       "Lesson (what comes next, M08): lowering the input from 224 × 224 to 160 × 160 pixels leaves "
       "(160 ÷ 224)² ≈ 51 % of the FLOPs."},
  };
  // clang-format on
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

std::string_view device_kind_id(DeviceKind k) {
  switch (k) {
    case DeviceKind::datacenter_gpu: return "datacenter-gpu";
    case DeviceKind::consumer_gpu: return "consumer-gpu";
    case DeviceKind::unified_memory: return "unified-memory";
    case DeviceKind::cpu: return "cpu";
    case DeviceKind::tpu: return "tpu";
  }
  return "?";
}

std::span<const Gpu> gpus() { return gpu_table(); }
std::span<const Model> models() { return model_table(); }
std::span<const WeightFormat> weight_formats() { return format_table(); }
std::span<const LessonCase> lesson_cases() { return case_table(); }

std::span<const Measurement> measurements() {
  // in the order of their files (embed.cmake checks that each names a model and a device file;
  // tests/core/test_measurements.cpp that the catalog knows its ids)
  static const std::vector<Measurement> table = read_folder<Measurement>("measurements/", read_measurement);
  return table;
}

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
  if (model.architecture && !model.lesson_figures) return architecture_weights(*model.architecture, format);
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
