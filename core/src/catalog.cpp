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
  if (e.find("link")) g.link = e.text("link");
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

Link read_link(const Value& v, const std::string& path) {
  const Entry e(v, path);
  return {e.text("id"), e.text("name"), BytesPerSecond{e.positive("bytesPerSecond")},
          Seconds{e.positive("latencySeconds")}, e.text("source")};
}

const std::vector<Link>& link_table() {
  static const std::vector<Link> table = [] {
    std::vector<Link> t = read_folder<Link>("links/", read_link);
    std::stable_sort(t.begin(), t.end(), [](const Link& a, const Link& b) { return a.bandwidth < b.bandwidth; });
    return t;
  }();
  return table;
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

/// A dtype field of a catalog file ("fp16"), or none where the file has null.
std::optional<Dtype> dtype_field(const Entry& e, std::string_view key, bool optional) {
  if (optional && !e.find(key)) return std::nullopt;
  return parse_dtype(e.text(key), std::string(key));
}

WeightFormat read_format(const Value& v, const std::string& path) {
  const Entry e(v, path);
  WeightFormat f;
  f.id = e.text("id");
  f.name = e.text("name");
  f.lesson_order = static_cast<int>(e.positive("lessonOrder"));
  f.dtype = dtype_field(e, "dtype", true);
  f.bits = e.positive("bits");
  const Value* wo = e.find("weightOnly");
  const Value* keep = e.find("keepsBf16Share");
  if (!wo || !wo->is(Value::Kind::boolean)) e.fail("weightOnly", "must be true or false");
  if (!keep || !keep->is(Value::Kind::boolean)) e.fail("keepsBf16Share", "must be true or false");
  f.weight_only = wo->boolean();
  f.keeps_bf16_share = keep->boolean();
  f.group_size = e.optional_positive("groupSize");
  f.scale_dtype = *dtype_field(e, "scaleDtype", false);
  f.compute_dtype = *dtype_field(e, "computeDtype", false);
  f.source = e.text("source");
  if (!f.dtype && !f.weight_only) e.fail("dtype", "is required for a format that is not weight-only");
  return f;
}

/// The entries of one folder in the lesson's order (lessonOrder, each given once).
template <class T, class Read>
std::vector<T> read_in_order(std::string_view folder, Read read) {
  std::vector<T> t = read_folder<T>(folder, read);
  std::sort(t.begin(), t.end(), [](const T& a, const T& b) { return a.lesson_order < b.lesson_order; });
  for (std::size_t i = 1; i < t.size(); ++i) {
    if (t[i].lesson_order == t[i - 1].lesson_order) {
      throw Error(ErrorCode::internal_error, "lessonOrder",
                  "core/catalog/" + std::string(folder) + t[i].id + ".json: lessonOrder " +
                      std::to_string(t[i].lesson_order) + " is also " + t[i - 1].id + "'s");
    }
  }
  return t;
}

const std::vector<WeightFormat>& format_table() {
  static const std::vector<WeightFormat> table = read_in_order<WeightFormat>("formats/", read_format);
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

LessonCase read_case(const Value& v, const std::string& path) {
  const Entry e(v, path);
  LessonCase c;
  c.id = e.text("id");
  c.name = e.text("name");
  c.lesson_order = static_cast<int>(e.positive("lessonOrder"));
  c.source = e.text("source");
  const Value* values = e.find("values");
  if (!values || !values->is(Value::Kind::object) || values->keys().empty()) {
    e.fail("values", "must be an object of named values");
  }
  // each value a number in base units, or an id (a GPU, a model, a format, a dtype)
  for (std::size_t i = 0; i < values->keys().size(); ++i) {
    const std::string& name = values->keys()[i];
    const Value& x = values->items()[i];
    if (x.is(Value::Kind::number) && std::isfinite(x.number())) {
      c.values.push_back({name, x.number(), {}});
    } else if (x.is(Value::Kind::string) && !x.string().empty()) {
      c.values.push_back({name, 0, x.string()});
    } else {
      e.fail("values." + name, "must be a number or an id");
    }
  }
  return c;
}

const std::vector<LessonCase>& case_table() {
  static const std::vector<LessonCase> table = read_in_order<LessonCase>("cases/", read_case);
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
std::span<const Link> links() { return link_table(); }
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

const Link& find_link(std::string_view id, std::string_view field) {
  return find_by_id(link_table(), id, field, ErrorCode::unknown_link);
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

Bytes usable_memory(const Gpu& gpu) { return Bytes{gpu.memory.value() * gpu.gpu_memory_share.value_or(1)}; }

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
