#include "roofline/api.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <new>
#include <span>
#include <stdexcept>

#include "roofline/architecture.hpp"
#include "roofline/batching.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/exercises.hpp"
#include "roofline/inside.hpp"
#include "roofline/json.hpp"
#include "roofline/llm.hpp"
#include "roofline/matrix.hpp"
#include "roofline/precision.hpp"
#include "roofline/roofline.hpp"
#include "roofline/serving.hpp"
#include "roofline/step.hpp"
#include "roofline/training.hpp"

namespace roofline::api {

Value Value::array(std::vector<Value> items) {
  Value v;
  new (&v.members_) Members{std::move(items), {}};
  v.kind_ = Kind::array;
  return v;
}

Value Value::object() {
  Value v;
  new (&v.members_) Members{};
  v.kind_ = Kind::object;
  return v;
}

Value::Value(const Value& other) : kind_(other.kind_) {
  switch (kind_) {
    case Kind::null: break;
    case Kind::boolean: boolean_ = other.boolean_; break;
    case Kind::number: number_ = other.number_; break;
    case Kind::string: new (&string_) std::string(other.string_); break;
    case Kind::array:
    case Kind::object: new (&members_) Members(other.members_); break;
  }
}

Value::Value(Value&& other) noexcept { take(std::move(other)); }

Value& Value::operator=(const Value& other) {
  if (this != &other) *this = Value(other);
  return *this;
}

Value& Value::operator=(Value&& other) noexcept {
  if (this != &other) {
    Value moved(std::move(other));  // other may live inside *this
    if (kind_ >= Kind::string) destroy();
    take(std::move(moved));
  }
  return *this;
}

void Value::take(Value&& other) noexcept {
  kind_ = other.kind_;
  switch (kind_) {
    case Kind::null: break;
    case Kind::boolean: boolean_ = other.boolean_; break;
    case Kind::number: number_ = other.number_; break;
    case Kind::string: new (&string_) std::string(std::move(other.string_)); break;
    case Kind::array:
    case Kind::object: new (&members_) Members(std::move(other.members_)); break;
  }
}

void Value::destroy() noexcept {
  if (kind_ == Kind::string) {
    string_.~basic_string();
  } else {
    members_.~Members();
  }
}

const std::string& Value::string() const {
  static const std::string none;
  return kind_ == Kind::string ? string_ : none;
}

const std::vector<Value>& Value::items() const {
  static const std::vector<Value> none;
  return kind_ == Kind::array || kind_ == Kind::object ? members_.items : none;
}

const std::vector<std::string>& Value::keys() const {
  static const std::vector<std::string> none;
  return kind_ == Kind::object ? members_.keys : none;
}

Value::Members& Value::object_members() {
  if (kind_ == Kind::null) *this = object();
  if (kind_ != Kind::object) throw std::logic_error("a key added to a value that is not an object");
  if (members_.keys.empty()) {
    // results are objects of about a dozen fields: one allocation each instead of five growths
    members_.keys.reserve(16);
    members_.items.reserve(16);
  }
  return members_;
}

Value& Value::set(std::string key, Value v) & {
  if (const Value* found = find(key)) {
    const_cast<Value&>(*found) = std::move(v);  // *this is not const: nor is what it holds
    return *this;
  }
  return add(std::move(key), std::move(v));
}

Value& Value::set_text(std::string_view key, Value&& v) {
  if (const Value* found = find(key)) {
    const_cast<Value&>(*found) = std::move(v);
    return *this;
  }
  return add_text(key, std::move(v));
}

Value& Value::add(std::string key, Value v) & {
  Members& m = object_members();
  m.keys.push_back(std::move(key));
  m.items.push_back(std::move(v));
  return *this;
}

Value& Value::add_text(std::string_view key, Value&& v) {
  Members& m = object_members();
  m.keys.emplace_back(key);
  m.items.push_back(std::move(v));
  return *this;
}

Value& Value::push(Value v) & {
  if (kind_ == Kind::null) *this = array();
  if (kind_ != Kind::array) throw std::logic_error("an element pushed onto a value that is not an array");
  members_.items.push_back(std::move(v));
  return *this;
}

const Value* Value::find(std::string_view key) const {
  if (kind_ != Kind::object) return nullptr;
  for (std::size_t i = 0; i < members_.keys.size(); ++i) {
    if (members_.keys[i] == key) return &members_.items[i];
  }
  return nullptr;
}

const Value& Value::get(std::string_view key) const {
  if (const Value* v = find(key)) return *v;
  throw std::out_of_range("no key " + std::string(key));
}

std::string describe(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::null: return "null";
    case Value::Kind::boolean: return v.boolean() ? "true" : "false";
    case Value::Kind::number: return format_number(v.number());
    case Value::Kind::string: return "the text \"" + v.string().substr(0, 40) + "\"";
    case Value::Kind::array: return "a list";
    case Value::Kind::object: return "an object";
  }
  return "?";
}

namespace {

// ---- reading arguments -------------------------------------------------------------------


class Args {
 public:
  explicit Args(const Value& v) : v_(v) {
    if (!v.is(Value::Kind::object)) {
      throw Error(ErrorCode::missing_field, "", "expected one object of named arguments, got " + describe(v));
    }
  }

  [[nodiscard]] bool has(std::string_view key) const { return v_.find(key) != nullptr; }

  [[nodiscard]] const Value& raw(std::string_view key) const {
    const Value* f = v_.find(key);
    if (!f) throw Error(ErrorCode::missing_field, std::string(key), std::string(key) + " is required");
    return *f;
  }

  [[nodiscard]] double number(std::string_view key) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::number)) {
      throw Error(ErrorCode::not_a_number, std::string(key),
                  std::string(key) + " must be a number, got " + describe(f));
    }
    return require_finite(key, f.number());
  }

  [[nodiscard]] double number_or(std::string_view key, double fallback) const {
    return has(key) ? number(key) : fallback;
  }

  [[nodiscard]] std::string text(std::string_view key, ErrorCode wrong_kind, std::string_view rule) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::string)) {
      throw Error(wrong_kind, std::string(key),
                  std::string(key) + " must be " + std::string(rule) + ", got " + describe(f));
    }
    return f.string();
  }

  [[nodiscard]] Dtype dtype(std::string_view key) const {
    return parse_dtype(text(key, ErrorCode::unknown_dtype, "one of fp32, tf32, fp16, bf16, fp8, int8, int4"), key);
  }

  [[nodiscard]] Dtype dtype_or(std::string_view key, Dtype fallback) const {
    return has(key) ? dtype(key) : fallback;
  }

  [[nodiscard]] Matrix matrix(std::string_view key) const {
    const Value& f = raw(key);
    const std::string name(key);
    if (!f.is(Value::Kind::array)) {
      throw Error(ErrorCode::ragged_matrix, name, name + " must be a list of rows, got " + describe(f));
    }
    std::vector<std::vector<double>> rows;
    for (const Value& row : f.items()) {
      if (!row.is(Value::Kind::array)) {
        throw Error(ErrorCode::ragged_matrix, name, name + " must be a list of rows, each a list of numbers");
      }
      std::vector<double>& out = rows.emplace_back();
      for (const Value& x : row.items()) {
        if (!x.is(Value::Kind::number)) {
          throw Error(ErrorCode::not_a_number, name, name + " must hold numbers, got " + describe(x));
        }
        out.push_back(x.number());
      }
    }
    return Matrix::from_rows(rows, key);
  }

 private:
  const Value& v_;
};

// ---- writing results ---------------------------------------------------------------------

Value matrix_rows_value(const std::vector<std::vector<double>>& rows) {
  Value out = Value::array();
  for (const auto& row : rows) {
    Value r = Value::array();
    for (double x : row) r.push(x);
    out.push(std::move(r));
  }
  return out;
}

Value gpu_value(const Gpu& g) {
  Value peaks = Value::object();
  for (Dtype d : all_dtypes) {
    if (auto p = g.peak(d)) peaks.set(std::string(dtype_id(d)), p->value());
  }
  Value v = Value::object();
  v.set("id", g.id).set("name", g.name).set("year", g.year).set("kind", device_kind_id(g.kind));
  v.set("lesson", g.lesson_order > 0);
  v.set("memoryBytes", g.memory.value()).set("bytesPerSecond", g.bandwidth.value());
  if (g.gpu_memory_share) v.set("gpuMemoryShare", *g.gpu_memory_share);
  // what the GPU may hold: all of its memory, or its share of a unified memory
  v.set("usableMemoryBytes", g.memory.value() * g.gpu_memory_share.value_or(1));
  v.set("peakFlopsPerSecond", std::move(peaks));
  if (g.price_per_hour_usd) v.set("pricePerHourUsd", *g.price_per_hour_usd);
  v.set("source", g.source);
  return v;
}

Value model_value(const Model& m) {
  const ModelWeights w = model_weights(m);
  Value v = Value::object();
  v.set("id", m.id).set("name", m.name).set("kind", m.kind).set("params", m.params);
  v.set("format", m.format).set("keptParams", m.kept_params);
  v.set("bitsPerWeight", w.bits_per_weight).set("weightBytes", w.bytes.value());
  if (m.dtype) v.set("dtype", std::string(dtype_id(*m.dtype)));
  if (m.layers) v.set("layers", *m.layers);
  if (m.kv_heads) v.set("kvHeads", *m.kv_heads);
  if (m.head_dim) v.set("headDim", *m.head_dim);
  if (m.macs_per_example) {
    v.set("macsPerExample", *m.macs_per_example);
    v.set("flopsPerExample", to_flops(Macs{*m.macs_per_example}).value());
  }
  if (m.working_macs_per_example) {
    v.set("workingMacsPerExample", *m.working_macs_per_example);
    v.set("workingFlopsPerExample", to_flops(Macs{*m.working_macs_per_example}).value());
  }
  if (!m.stages.empty()) {
    Value stages = Value::array();
    for (const Stage& s : m.stages) {
      stages.push(Value::object()
                      .set("id", s.id)
                      .set("name", s.name)
                      .set("macs", s.macs)
                      .set("weights", s.weights)
                      .set("usesPerWeight", s.uses_per_weight()));
    }
    v.set("stages", std::move(stages));
  }
  v.set("lesson", m.lesson_order > 0);
  if (m.architecture) {
    const ParamCounts p = param_counts(*m.architecture);
    v.set("activeParams", p.active).set("embeddingParams", p.embedding);
    v.set("kvBytesPerToken", kv_bytes_per_token(*m.architecture, m.dtype.value_or(Dtype::bf16)).value());
    v.set("architecture", architecture_value(*m.architecture));
  }
  if (m.published_params) v.set("publishedParams", *m.published_params);
  if (m.published_active_params) {
    v.set("publishedActiveParams", *m.published_active_params);
    v.set("activeConvention", m.published_active_counts_embedding ? "with-input-embedding" : "without-input-embedding");
  }
  v.set("source", m.source);
  return v;
}

Device device_arg(const Args& a) {
  const FlopsPerSecond peak{a.number("peakFlopsPerSecond")};
  return {peak, BytesPerSecond{a.number("bytesPerSecond")}};
}

Value clocks_value(const Clocks& c) {
  return Value::object()
      .set("computeSeconds", c.compute.value())
      .set("memorySeconds", c.memory.value())
      .set("seconds", c.lower_bound.value())
      .set("flopsPerByte", c.intensity.value())
      .set("ridgeFlopsPerByte", c.ridge.value())
      .set("bound", std::string(bound_id(c.bound)));
}

Value matmul_value(const MatmulCost& c) {
  return Value::object()
      .set("rows", c.result.rows)
      .set("cols", c.result.cols)
      .set("outputElements", c.result.rows * c.result.cols)
      .set("macs", c.macs.value())
      .set("flops", c.flops.value())
      .set("bytes", c.bytes.value())
      .set("flopsPerByte", c.intensity.value());
}

// ---- the functions -----------------------------------------------------------------------

Value format_value(const WeightFormat& f) {
  Value v = Value::object();
  v.set("id", f.id).set("name", f.name).set("bits", f.bits).set("weightOnly", f.weight_only);
  v.set("dtype", f.dtype ? Value(std::string(dtype_id(*f.dtype))) : Value());
  v.set("groupSize", f.group_size ? Value(*f.group_size) : Value());
  v.set("scaleDtype", f.group_size ? Value(std::string(dtype_id(f.scale_dtype))) : Value());
  v.set("keepsBf16Share", f.keeps_bf16_share);
  v.set("computeDtype", std::string(dtype_id(f.compute_dtype)));
  v.set("source", f.source);
  return v;
}

Value case_value(const LessonCase& c) {
  Value values = Value::object();
  for (const CaseValue& x : c.values) values.set(std::string(x.name), x.is_id() ? Value(x.id) : Value(x.number));
  return Value::object().set("id", c.id).set("name", c.name).set("values", std::move(values)).set("source", c.source);
}

const Gpu& gpu_arg(const Args& a, std::string_view key) {
  return find_gpu(a.text(key, ErrorCode::unknown_gpu, "a GPU id"), key);
}
const Model& model_arg(const Args& a, std::string_view key) {
  return find_model(a.text(key, ErrorCode::unknown_model, "a model id"), key);
}

/// A model given by catalog id or as what modelFromConfig returned (its `architecture` is read
/// back and checked): its weights and KV cache come from the lesson's figures where a lesson
/// model has them, else from the architecture.
struct ModelRef {
  const Model* catalog = nullptr;
  std::optional<Architecture> architecture;
  [[nodiscard]] bool lesson_figures() const { return catalog && (catalog->lesson_figures || !architecture); }
  [[nodiscard]] const WeightFormat& format(const Args& a) const {
    if (a.has("format")) return find_format(a.text("format", ErrorCode::unknown_format, "a format id"), "format");
    return find_format(catalog ? std::string_view(catalog->format) : std::string_view("bf16"), "format");
  }
  [[nodiscard]] ModelWeights weights(const WeightFormat& f) const {
    return lesson_figures() ? model_weights(*catalog, f) : architecture_weights(*architecture, f);
  }
  /// Weight bytes one step of `batch` reads: the lesson's rule (all of them) for its own figures.
  [[nodiscard]] Bytes read_per_step(const WeightFormat& f, double batch) const {
    return lesson_figures() ? weights(f).bytes : weights_read_per_step(*architecture, f, batch);
  }
  [[nodiscard]] Dtype kv_dtype(const Args& a) const {
    if (a.has("kvDtype")) return a.dtype("kvDtype");
    return catalog && catalog->dtype ? *catalog->dtype : Dtype::bf16;
  }
  [[nodiscard]] double flops_params() const {
    return lesson_figures() ? catalog->params : param_counts(*architecture).active;
  }
};

ModelRef model_ref(const Args& a, std::string_view key) {
  const Value& f = a.raw(key);
  ModelRef r;
  if (f.is(Value::Kind::object)) {
    const Value* arch = f.find("architecture");
    const std::string field = std::string(key) + ".architecture";
    if (!arch) {
      throw Error(ErrorCode::missing_field, field,
                  std::string(key) + " must be a model id or what modelFromConfig returns (with its architecture)");
    }
    r.architecture = architecture_from_value(*arch, field);
    return r;
  }
  r.catalog = &find_model(a.text(key, ErrorCode::unknown_model, "a model id or what modelFromConfig returns"), key);
  r.architecture = r.catalog->architecture;
  return r;
}

/// The KV cache of one sequence of `tokens` for a model: its architecture (GQA, MLA, sliding
/// windows) where it has one, else the lesson's shape numbers.
Bytes model_kv_bytes(const ModelRef& r, double tokens, Dtype kv_dtype) {
  if (r.architecture) return kv_bytes_per_sequence(*r.architecture, tokens, kv_dtype);
  const Model& m = *r.catalog;
  if (!(m.layers && m.kv_heads && m.head_dim)) {
    throw Error(ErrorCode::out_of_range, "model", std::string(m.name) + " has no KV shape in the catalog: give kvBytesPerSequence");
  }
  return kv_cache_bytes(*m.layers, *m.kv_heads, *m.head_dim, tokens, kv_dtype);
}

Phase phase_arg(const Args& a, std::string_view key) {
  const std::string v = a.text(key, ErrorCode::out_of_range, "'decode' or 'prefill'");
  if (v == "decode") return Phase::decode;
  if (v == "prefill") return Phase::prefill;
  throw Error(ErrorCode::out_of_range, std::string(key),
              std::string(key) + " must be 'decode' or 'prefill', got \"" + v.substr(0, 40) + "\"");
}

bool flag_arg(const Args& a, std::string_view key) {
  const Value& f = a.raw(key);
  if (!f.is(Value::Kind::boolean)) {
    throw Error(ErrorCode::out_of_range, std::string(key), std::string(key) + " must be true or false, got " + describe(f));
  }
  return f.boolean();
}

Value step_value(Step st) {
  std::vector<Value> list;
  list.reserve(st.operators.size());
  Value ops = Value::array(std::move(list));
  for (std::size_t i = 0; i < st.operators.size(); ++i) {
    StepOperator& op = st.operators[i];
    const StepOperatorTime& t = st.times[i];
    ops.push(Value::object()
                 .add("id", std::move(op.id))
                 .add("group", std::move(op.group))
                 .add("count", op.count)
                 .add("flops", op.flops)
                 .add("weightBytes", op.weight_bytes)
                 .add("kvReadBytes", op.kv_read_bytes)
                 .add("kvWriteBytes", op.kv_write_bytes)
                 .add("activationBytes", op.activation_bytes)
                 .add("bytes", op.bytes())
                 .add("flopsPerByte", t.flops_per_byte)
                 .add("bound", bound_id(t.bound))
                 .add("seconds", t.seconds)
                 .add("share", t.share));
  }
  Value totals = Value::object()
                     .add("tokens", st.tokens)
                     .add("flops", st.flops)
                     .add("bytes", st.bytes)
                     .add("weightBytes", st.weight_bytes)
                     .add("kvReadBytes", st.kv_read_bytes)
                     .add("kvWriteBytes", st.kv_write_bytes)
                     .add("activationBytes", st.activation_bytes)
                     .add("seconds", st.seconds)
                     .add("rooflineSeconds", st.roofline_seconds)
                     .add("rooflineBound", bound_id(st.roofline_bound))
                     .add("attentionShare", st.attention_share);
  return Value::object().add("operators", std::move(ops)).add("totals", std::move(totals));
}

/// modelFromConfig's result: the architecture and every figure derived from it.
Value config_model_value(const Architecture& arch, const WeightFormat& f, Dtype kv_dtype, double batch, double tokens) {
  const ParamCounts p = param_counts(arch);
  Value v = Value::object();
  v.set("architecture", architecture_value(arch));
  v.set("params", p.params).set("embeddingParams", p.embedding).set("outputParams", p.output);
  v.set("activeParams", p.active).set("visionParams", p.vision);
  v.set("format", f.id).set("residentBytes", resident_bytes(arch, f).value());
  v.set("batch", batch).set("bytesReadPerStep", weights_read_per_step(arch, f, batch).value());
  v.set("expertsTouched", arch.moe ? Value(experts_touched(*arch.moe, batch)) : Value());
  v.set("kvDtype", std::string(dtype_id(kv_dtype)));
  v.set("kvBytesPerToken", kv_bytes_per_token(arch, kv_dtype).value());
  v.set("tokens", tokens).set("kvBytesPerSequence", kv_bytes_per_sequence(arch, tokens, kv_dtype).value());
  v.set("flopsPerToken", flops_per_token(arch, tokens).value());
  v.set("attentionFlopsPerToken", attention_flops_per_token(arch, tokens).value());
  return v;
}

/// Replaces or adds values of a case (another GPU, another format, a batch): only names some
/// lesson case uses, each a number or an id; the function they feed checks the rest.
void override_case_values(LessonCase& c, const Value& values) {
  if (!values.is(Value::Kind::object)) {
    throw Error(ErrorCode::not_a_number, "values", "values must be an object of case values, got " + describe(values));
  }
  for (std::size_t i = 0; i < values.keys().size(); ++i) {
    const std::string& name = values.keys()[i];
    const Value& v = values.items()[i];
    bool known = false;
    for (const LessonCase& other : lesson_cases()) known = known || other.find(name) != nullptr;
    const std::string field = "values." + name.substr(0, 40);
    if (!known) {
      std::vector<std::string_view> names;
      for (const LessonCase& other : lesson_cases()) {
        for (const CaseValue& x : other.values) {
          if (std::find(names.begin(), names.end(), x.name) == names.end()) names.push_back(x.name);
        }
      }
      std::string list;
      for (std::string_view n : names) list.append(list.empty() ? " " : ", ").append(n);
      throw Error(ErrorCode::unknown_argument, field, "a case has no value \"" + name.substr(0, 40) + "\"; it may have" + list);
    }
    CaseValue nv{name, 0, {}};
    if (v.is(Value::Kind::string) && !v.string().empty()) {
      nv.id = v.string();
    } else if (v.is(Value::Kind::number)) {
      nv.number = require_finite(field, v.number());
    } else {
      throw Error(ErrorCode::not_a_number, field, field + " must be a number or an id, got " + describe(v));
    }
    bool replaced = false;
    for (CaseValue& x : c.values) {
      if (x.name == name) {
        x = nv;
        replaced = true;
      }
    }
    if (!replaced) c.values.push_back(nv);
  }
}

/// The arguments of API function `fn` that a lesson case provides: its own numbers, and what its
/// ids imply (a GPU and dtype give the device; a model and format give the weights and FLOPs per
/// token; a model and a token count give the KV cache). Arguments the case cannot give are absent.
Value case_args(const LessonCase& c, const std::vector<std::string_view>& takes) {
  Value all = Value::object();
  for (const CaseValue& v : c.values) {
    if (v.is_id() && (v.name == "gpu" || v.name == "model" || v.name == "format")) continue;
    all.set(std::string(v.name), v.is_id() ? Value(v.id) : Value(v.number));
  }
  const Model* model = nullptr;
  const WeightFormat* format = nullptr;
  if (const CaseValue* m = c.find("model")) model = &find_model(m->id, "model");
  if (const CaseValue* f = c.find("format")) format = &find_format(f->id, "format");
  if (model && !format) format = &find_format(model->format, "format");
  if (model && model->working_macs_per_example) {
    // a CNN's work per example, as the lesson works with it (8.2 GFLOPs a photo for ResNet-50)
    const double per_example = to_flops(Macs{*model->working_macs_per_example}).value();
    all.set("flopsPerItem", per_example).set("forwardFlops", per_example);
  }
  if (model && model->architecture && !model->lesson_figures) {
    // a model counted from its architecture: the weights it holds, and what a token multiplies
    const Architecture& arch = *model->architecture;
    const ModelWeights w = architecture_weights(arch, *format);
    const CaseValue* b = c.find("batch");
    all.set("weightBytes", w.bytes.value()).set("params", w.params);
    all.set("bytesReadPerStep", weights_read_per_step(arch, *format, b ? b->number : 1).value());
    const CaseValue* kt = c.find("kvTokens");
    all.set("flopsPerToken", flops_per_token(arch, kt ? kt->number : 0).value());
    all.set("layers", arch.layers);
    if (arch.attention.kind == Attention::Kind::gqa) all.set("kvHeads", arch.attention.kv_heads).set("headDim", arch.attention.head_dim);
    if (kt && !c.find("kvBytesPerSequence")) {
      const CaseValue* kd = c.find("kvDtype");
      const Dtype kv = kd && kd->is_id() ? parse_dtype(kd->id, "values.kvDtype") : Dtype::bf16;
      all.set("kvBytesPerSequence", kv_bytes_per_sequence(arch, kt->number, kv).value());
    }
  } else if (model) {
    const ModelWeights w = model_weights(*model, *format);
    all.set("weightBytes", w.bytes.value()).set("params", w.params);
    all.set("flopsPerToken", flops_per_token(w.params).value());
    if (model->layers && model->kv_heads && model->head_dim) {
      all.set("layers", *model->layers).set("kvHeads", *model->kv_heads).set("headDim", *model->head_dim);
    }
    if (const CaseValue* kv_tokens = c.find("kvTokens"); kv_tokens && !c.find("kvBytesPerSequence")) {
      double kv = 0;
      if (kv_tokens->number > 0 && model->layers && model->kv_heads && model->head_dim && model->dtype) {
        kv = kv_cache_bytes(*model->layers, *model->kv_heads, *model->head_dim, kv_tokens->number, *model->dtype).value();
      }
      all.set("kvBytesPerSequence", kv);
    }
  }
  if (const CaseValue* t = c.find("promptTokens")) {
    all.set("tokens", t->number);
  } else if (const CaseValue* kt = c.find("kvTokens")) {
    all.set("tokens", kt->number);
  }
  if (const CaseValue* tile = c.find("tile")) all.set("rows", tile->number).set("cols", tile->number);
  if (!all.find("dtype")) {
    if (format) all.set("dtype", std::string(dtype_id(format->compute_dtype)));
  }
  if (const CaseValue* g = c.find("gpu")) {
    const Gpu& gpu = find_gpu(g->id, "gpu");
    all.set("bytesPerSecond", gpu.bandwidth.value()).set("memoryBytesPerGpu", gpu.memory.value());
    if (gpu.price_per_hour_usd && !all.find("pricePerHourUsd")) all.set("pricePerHourUsd", *gpu.price_per_hour_usd);
    const Dtype d = parse_dtype(all.get("dtype").string(), "dtype");
    const Device dev = device_for(gpu, d);
    all.set("peakFlopsPerSecond", dev.peak.value()).set("ridgeFlopsPerByte", ridge(dev).value());
  }
  Value out = Value::object();
  const bool takes_weights = std::find(takes.begin(), takes.end(), "bytesReadPerStep") != takes.end();
  for (std::string_view name : takes) {
    // a case gives decode its bytes, not a model: the context tokens then have nothing to apply to
    if (name == "tokens" && takes_weights) continue;
    if (const Value* v = all.find(name)) out.set(std::string(name), *v);
  }
  return out;
}

Value instance_value(const ExerciseInstance& e) {
  Value inputs = Value::object();
  for (const CaseValue& x : e.inputs) inputs.set(std::string(x.name), x.is_id() ? Value(x.id) : Value(x.number));
  Value solution = Value::object();
  for (const CaseValue& x : e.solution) solution.set(std::string(x.name), x.is_id() ? Value(x.id) : Value(x.number));
  Value parts = Value::array();
  for (const ExercisePart& p : e.parts) {
    Value choices = Value::array();
    for (std::string_view c : p.choices) choices.push(c);
    Value mistakes = Value::array();
    for (const Mistake& m : p.mistakes) mistakes.push(Value::object().set("id", m.id).set("value", m.value));
    Value v = Value::object();
    v.set("id", p.id).set("kind", p.kind);
    v.set("expected", p.expected ? Value(*p.expected) : Value());
    v.set("expectedChoice", p.kind == "choice" ? Value(p.expected_choice) : Value());
    v.set("expectedMatrix", p.kind == "matrix" ? matrix_rows_value(p.expected_matrix.to_rows()) : Value());
    v.set("choices", std::move(choices));
    v.set("relativeTolerance", p.relative_tolerance).set("absoluteTolerance", p.absolute_tolerance);
    v.set("mistakes", std::move(mistakes));
    parts.push(std::move(v));
  }
  return Value::object()
      .set("id", e.id)
      .set("level", e.level)
      .set("seed", double(e.seed))
      .set("inputs", std::move(inputs))
      .set("parts", std::move(parts))
      .set("solution", std::move(solution));
}

/// The seed argument: a whole number from 0 (the lesson's numbers) to 2^53.
std::uint64_t seed_arg(const Args& a) {
  return a.has("seed") ? std::uint64_t(require_count_or_zero("seed", a.number("seed"))) : 0;
}

int item_id(const Args& a, int count, const char* what) {
  const double id = require_count("id", a.number("id"));
  if (id > count) {
    throw Error(ErrorCode::out_of_range, "id",
                std::string("id must be ") + what + " from 1 to " + std::to_string(count) + ", got " + format_number(id));
  }
  return int(id);
}

/// Checks the answers (an object: part id → number in base units, choice id, or matrix) of an
/// exercise or question instance.
Value check_value(const ExerciseInstance& e, const Value& answers) {
  if (!answers.is(Value::Kind::object)) {
    throw Error(ErrorCode::not_a_number, "answers", "answers must be an object of part answers, got " + describe(answers));
  }
  for (const std::string& key : answers.keys()) {
    bool known = false;
    for (const ExercisePart& p : e.parts) known = known || p.id == key;
    if (!known) {
      std::string parts;
      for (const ExercisePart& p : e.parts) parts += (parts.empty() ? "" : ", ") + std::string(p.id);
      throw Error(ErrorCode::unknown_argument, "answers." + key.substr(0, 40),
                  "this exercise has no part \"" + key.substr(0, 40) + "\"; its parts are " + parts);
    }
  }
  Value parts = Value::array();
  int correct = 0, answered = 0;
  for (const ExercisePart& p : e.parts) {
    PartAnswer ans;
    const std::string field = "answers." + std::string(p.id);
    if (const Value* v = answers.find(p.id); v && !v->is(Value::Kind::null)) {
      if (p.kind == "choice") {
        if (!v->is(Value::Kind::string)) throw Error(ErrorCode::not_a_number, field, field + " must be a choice id, got " + describe(*v));
        ans.choice = v->string();
      } else if (p.kind == "matrix") {
        Value wrapper = Value::object().set(field, *v);
        ans.matrix = Args(wrapper).matrix(field).to_rows();
      } else {
        if (!v->is(Value::Kind::number)) throw Error(ErrorCode::not_a_number, field, field + " must be a number, got " + describe(*v));
        ans.number = require_finite(field, v->number());
      }
    }
    const PartCheck c = check_part(p, ans);
    correct += c.correct;
    answered += c.answered;
    parts.push(Value::object()
                   .set("id", p.id)
                   .set("answered", c.answered)
                   .set("correct", c.correct)
                   .set("mistake", c.mistake.empty() ? Value() : Value(c.mistake)));
  }
  const int n = int(e.parts.size());
  const char* state = correct == n ? "correct" : correct > 0 ? "partial" : answered > 0 ? "incorrect" : "unanswered";
  return Value::object().set("state", state).set("correct", correct).set("parts", std::move(parts));
}

using Handler = Value (*)(const Args&);

/// What an argument must be. Numbers are checked by the core function that takes them; the kind
/// documents the rule (and tests/ check that each rule is enforced).
enum class Kind { count, count_or_zero, positive, non_negative, fraction, number, dtype, gpu, model, model_ref,
                  config, format, stage, lesson_case, function, case_values, answers, matrix, phase, flag };

std::string_view kind_id(Kind k) {
  switch (k) {
    case Kind::count: return "count";
    case Kind::count_or_zero: return "countOrZero";
    case Kind::positive: return "positive";
    case Kind::non_negative: return "nonNegative";
    case Kind::fraction: return "fraction";
    case Kind::number: return "number";
    case Kind::dtype: return "dtype";
    case Kind::gpu: return "gpu";
    case Kind::model: return "model";
    case Kind::model_ref: return "modelRef";
    case Kind::config: return "config";
    case Kind::format: return "format";
    case Kind::stage: return "stage";
    case Kind::lesson_case: return "case";
    case Kind::function: return "function";
    case Kind::case_values: return "caseValues";
    case Kind::answers: return "answers";
    case Kind::matrix: return "matrix";
    case Kind::phase: return "phase";
    case Kind::flag: return "flag";
  }
  return "?";
}

/// The TypeScript type of an argument of this kind (wasm/roofline.d.ts; its named types are declared
/// in wasm/roofline.d.ts.in).
std::string_view kind_type(Kind k) {
  switch (k) {
    case Kind::count:
    case Kind::count_or_zero:
    case Kind::positive:
    case Kind::non_negative:
    case Kind::fraction:
    case Kind::number: return "number";
    case Kind::dtype: return "Dtype";
    case Kind::gpu:
    case Kind::model:
    case Kind::format:
    case Kind::stage:
    case Kind::lesson_case: return "string";
    case Kind::model_ref: return "ModelRef";
    case Kind::config: return "string | object";
    case Kind::function: return "FunctionName";
    case Kind::case_values: return "CaseValues";
    case Kind::answers: return "Answers";
    case Kind::matrix: return "number[][]";
    case Kind::phase: return "'decode' | 'prefill'";
    case Kind::flag: return "boolean";
  }
  return "?";
}

struct Arg {
  std::string_view name;
  Kind kind;
  std::string_view unit;  ///< "FLOPs", "FLOPS", "bytes", "bytes/s", "s", "FLOPs/byte", "" for counts and ids
  bool optional = false;
  /// What an optional argument left out stands for, as JavaScript ("1", "'bf16'"), where the function
  /// documents it (rl.functions() and the signatures of docs/api.md show it; the function applies it).
  std::string_view fallback = {};
};

/// One API function: what it does (a doc comment, or ""), its arguments, the TypeScript name of its
/// result (of each item, for lists) and that result's fields, and the code that runs it. The fields
/// are written as the members of a TypeScript interface: "name: type" ("name?: type" where the
/// field may be absent, a type ending in "| null" where it is present but may be null, "*: type"
/// for an object whose keys vary), separated by "; ", each after its doc comment where it has one
/// ("/** What it is. */ name: type"). wasm/dts.mjs writes wasm/roofline.d.ts from this table: a
/// result type whose name ends in "Result" is declared there from these fields, any other (Gpu,
/// Model, ...) by hand in wasm/roofline.d.ts.in, and tests/ check that both agree with the fields
/// and with what the functions return.
/// A fixed-size array of arguments, unused entries empty, and the fields in one text, so that the
/// whole table is constant data (built by the compiler, not by code at run time).
struct Function {
  std::string_view name;
  std::string_view doc;
  Arg arg_slots[16];
  std::string_view type;
  std::string_view fields;
  bool list;
  Handler run;

  [[nodiscard]] std::span<const Arg> args() const {
    std::size_t n = 0;
    while (n < std::size(arg_slots) && !arg_slots[n].name.empty()) ++n;
    return {arg_slots, n};
  }
};

/// The fields of one catalog entry, shared by its list and its lookup (gpus and gpu, models and model).
constexpr std::string_view gpu_fields =
    "id: string; name: string; year: number; kind: DeviceKind; lesson: boolean; memoryBytes: number; "
    "bytesPerSecond: number; gpuMemoryShare?: number; usableMemoryBytes: number; "
    "peakFlopsPerSecond: PeakFlopsPerSecond; pricePerHourUsd?: number; source: string";
constexpr std::string_view model_fields =
    "id: string; name: string; kind: 'llm' | 'cnn'; params: number; format: string; keptParams: number; "
    "bitsPerWeight: number; weightBytes: number; dtype?: Dtype; layers?: number; kvHeads?: number; "
    "headDim?: number; macsPerExample?: number; flopsPerExample?: number; workingMacsPerExample?: number; "
    "workingFlopsPerExample?: number; stages?: Stage[]; lesson: boolean; activeParams?: number; "
    "embeddingParams?: number; kvBytesPerToken?: number; architecture?: Architecture; publishedParams?: number; "
    "publishedActiveParams?: number; activeConvention?: 'with-input-embedding' | 'without-input-embedding'; "
    "source: string";

constexpr bool object = false, list = true;
constexpr bool opt = true;

std::span<const Function> table();

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

/// Calls each(name, type, absent, doc) for each member of a table's "/** doc */ name?: type; ..." list.
template <typename Each>
void for_each_field(std::string_view s, Each each) {
  while (!(s = trimmed(s)).empty()) {
    std::string_view doc;
    if (s.starts_with("/**")) {
      const std::size_t end = s.find("*/");
      doc = trimmed(s.substr(3, end == std::string_view::npos ? s.size() : end - 3));
      s.remove_prefix(end == std::string_view::npos ? s.size() : end + 2);
    }
    const std::size_t semi = s.find(';');
    const std::string_view decl = trimmed(s.substr(0, semi));
    s.remove_prefix(semi == std::string_view::npos ? s.size() : semi + 1);
    const std::size_t colon = decl.find(':');
    std::string_view name = trimmed(decl.substr(0, colon));
    const bool absent = name.ends_with('?');
    if (absent) name.remove_suffix(1);
    each(name, colon == std::string_view::npos ? std::string_view{} : trimmed(decl.substr(colon + 1)), absent, doc);
  }
}

Value functions_value() {
  Value v = Value::array();
  for (const Function& f : table()) {
    Value args = Value::array();
    for (const Arg& a : f.args()) {
      args.push(Value::object()
                    .set("name", std::string(a.name))
                    .set("kind", std::string(kind_id(a.kind)))
                    .set("type", std::string(kind_type(a.kind)))
                    .set("unit", std::string(a.unit))
                    .set("optional", a.optional)
                    .set("default", a.fallback.empty() ? Value() : Value(a.fallback)));
    }
    Value result = Value::array();
    for_each_field(f.fields, [&](std::string_view name, std::string_view type, bool absent, std::string_view doc) {
      result.push(Value::object()
                      .set("name", std::string(name))
                      .set("type", std::string(type))
                      .set("optional", absent)
                      .set("doc", std::string(doc)));
    });
    v.push(Value::object()
               .set("name", std::string(f.name))
               .set("doc", std::string(f.doc))
               .set("args", std::move(args))
               .set("returns", f.list ? "list" : "object")
               .set("resultType", std::string(f.type))
               .set("result", std::move(result)));
  }
  return v;
}

std::span<const Function> table() {
  static constexpr Function functions[] = {
      {"functions", "The API table: every function, in the core's order.", {},
       "FunctionInfo",
        "name: FunctionName; doc: string; args: FunctionArg[]; returns: 'object' | 'list'; resultType: string; "
        "result: ResultField[]",
       list,
       [](const Args&) { return functions_value(); }},
      {"errorCodes", "", {},
       "ErrorCode", "", list,  // a list of code strings
       [](const Args&) {
         Value v = Value::array();
         for (ErrorCode c : all_error_codes) v.push(std::string(error_code_id(c)));
         return v;
       }},
      {"dtypes", "", {},
       "DtypeInfo", "id: Dtype; name: string; bytesPerElement: number; bits: number; integer: boolean", list,
       [](const Args&) {
         Value v = Value::array();
         for (Dtype d : all_dtypes) {
           v.push(Value::object()
                      .set("id", std::string(dtype_id(d)))
                      .set("name", std::string(dtype_name(d)))
                      .set("bytesPerElement", bytes_per_element(d))
                      .set("bits", bytes_per_element(d) * 8)
                      .set("integer", is_integer(d)));
         }
         return v;
       }},
      {"gpus", "", {},
       "Gpu",
       gpu_fields,
       list,
       [](const Args&) {
         Value v = Value::array();
         for (const Gpu& g : roofline::gpus()) v.push(gpu_value(g));
         return v;
       }},
      {"gpu", "",
       {{"id", Kind::gpu, ""}},
       "Gpu",
       gpu_fields,
       object,
       [](const Args& a) { return gpu_value(gpu_arg(a, "id")); }},
      {"compareGpus", "How many times `to` has `from`'s peak (in dtype), bandwidth and memory.",
       {{"from", Kind::gpu, ""}, {"to", Kind::gpu, ""}, {"dtype", Kind::dtype, ""}},
       "CompareGpusResult", "peakRatio: number; bandwidthRatio: number; memoryRatio: number", object,
       [](const Args& a) {
         // how many times `to` has `from`'s peak (in one precision), bandwidth and memory
         const Gpu& from_gpu = gpu_arg(a, "from");
         const Gpu& to_gpu = gpu_arg(a, "to");
         const Device from = device_for(from_gpu, a.dtype("dtype"));
         const Device to = device_for(to_gpu, a.dtype("dtype"));
         return Value::object()
             .set("peakRatio", require_result("peakRatio", to.peak.value() / from.peak.value()))
             .set("bandwidthRatio", require_result("bandwidthRatio", to.bandwidth.value() / from.bandwidth.value()))
             .set("memoryRatio", require_result("memoryRatio", to_gpu.memory.value() / from_gpu.memory.value()));
       }},
      {"device", "One GPU at one precision: the two roofs, the capacity and the ridge between the roofs.",
       {{"gpu", Kind::gpu, ""}, {"dtype", Kind::dtype, ""}},
       "DeviceResult",
        "peakFlopsPerSecond: number; bytesPerSecond: number; memoryBytes: number; ridgeFlopsPerByte: number",
       object,
       [](const Args& a) {
         const Gpu& g = gpu_arg(a, "gpu");
         const Device d = device_for(g, a.dtype("dtype"));
         return Value::object()
             .set("peakFlopsPerSecond", d.peak.value())
             .set("bytesPerSecond", d.bandwidth.value())
             .set("memoryBytes", g.memory.value())
             .set("ridgeFlopsPerByte", ridge(d).value());
       }},
      {"models", "", {},
       "Model",
       model_fields,
       list,
       [](const Args&) {
         Value v = Value::array();
         for (const Model& m : roofline::models()) v.push(model_value(m));
         return v;
       }},
      {"model", "",
       {{"id", Kind::model, ""}},
       "Model",
       model_fields,
       object,
       [](const Args& a) { return model_value(model_arg(a, "id")); }},
      {"formats", "", {},
       "WeightFormat",
        "id: string; name: string; bits: number; weightOnly: boolean; dtype: Dtype | null; groupSize: number | null; "
        "scaleDtype: Dtype | null; keepsBf16Share: boolean; computeDtype: Dtype; source: string",
       list,
       [](const Args&) {
         Value v = Value::array();
         for (const WeightFormat& f : weight_formats()) v.push(format_value(f));
         return v;
       }},
      {"measurements", "", {},
       "Measurement",
        "id: string; name: string; model: string; format: string; gpu: string; gpus: number; batch: number; "
        "generatedTokens: number; tokensPerSecond: number; engine: string; date: string; url: string; source: string; "
        "ceilingTokensPerSecond: number; fractionOfCeiling: number",
       list,
       [](const Args&) {
         Value v = Value::array();
         for (const Measurement& m : roofline::measurements()) {
           // the lesson's ceiling for the same run: each step reads every weight once, at the
           // devices' bandwidth (the KV cache of the tokens generated is left out: under 0.3 %
           // of the bytes for these runs, see docs/catalog.md)
           const Bytes weights = model_weights(find_model(m.model), find_format(m.format)).bytes;
           const double ceiling = m.batch * find_gpu(m.gpu).bandwidth.value() * m.gpus / weights.value();
           Value e = Value::object();
           e.set("id", m.id).set("name", m.name).set("model", m.model).set("format", m.format).set("gpu", m.gpu);
           e.set("gpus", m.gpus).set("batch", m.batch).set("generatedTokens", m.generated_tokens);
           e.set("tokensPerSecond", m.tokens_per_second).set("engine", m.engine).set("date", m.date);
           e.set("url", m.url).set("source", m.source);
           e.set("ceilingTokensPerSecond", ceiling).set("fractionOfCeiling", m.tokens_per_second / ceiling);
           v.push(std::move(e));
         }
         return v;
       }},
      {"modelWeights", "",
       {{"model", Kind::model_ref, ""}, {"format", Kind::format, "", opt}, {"batch", Kind::count, "", opt, "1"}},
       "ModelWeightsResult",
        "bytes: number; params: number; keptParams: number; bitsPerWeight: number; format: string; "
        "/** Weight bytes one decode step of `batch` reads (the lesson's rule, all of them, for its own figures). */ "
        "bytesReadPerStep: number; "
        "/** Counted from the architecture, where the model has one. */ "
        "residentBytes?: number; bytesReadPerStepCounted?: number",
       object,
       [](const Args& a) {
         // bytes: what the model occupies (the lesson's figure for its own models); bytesReadPerStep:
         // the weight bytes one decode step of `batch` reads (the lesson's rule, all of them, for its
         // own figures); where an architecture refines a lesson figure, both counts from it as well
         const ModelRef r = model_ref(a, "model");
         const WeightFormat& f = r.format(a);
         const double batch = a.number_or("batch", 1);
         require_count("batch", batch);
         const ModelWeights w = r.weights(f);
         Value v = Value::object()
                       .set("bytes", w.bytes.value())
                       .set("params", w.params)
                       .set("keptParams", w.kept_params)
                       .set("bitsPerWeight", w.bits_per_weight)
                       .set("format", w.format)
                       .set("bytesReadPerStep", r.read_per_step(f, batch).value());
         if (r.architecture) {
           v.set("residentBytes", resident_bytes(*r.architecture, f).value());
           v.set("bytesReadPerStepCounted", weights_read_per_step(*r.architecture, f, batch).value());
         }
         return v;
       }},
      {"modelFromConfig", "",
       {{"config", Kind::config, ""}, {"format", Kind::format, "", opt, "'bf16'"},
        {"kvDtype", Kind::dtype, "", opt, "'bf16'"}, {"batch", Kind::count, "", opt, "1"},
        {"tokens", Kind::count_or_zero, "", opt, "0"}},
       "ConfigModel",
        "architecture: Architecture; params: number; embeddingParams: number; outputParams: number; "
        "activeParams: number; visionParams: number; format: string; residentBytes: number; batch: number; "
        "bytesReadPerStep: number; expertsTouched: number | null; kvDtype: Dtype; kvBytesPerToken: number; "
        "tokens: number; kvBytesPerSequence: number; flopsPerToken: number; attentionFlopsPerToken: number",
       object,
       [](const Args& a) {
         // a Hugging Face config.json: its text (or the object it parses to)
         const Value& c = a.raw("config");
         Value parsed;
         if (c.is(Value::Kind::string)) {
           try {
             // JSON alone: a NaN or Infinity in a config.json is no number of its model
             parsed = parse_strict_json(c.string());
           } catch (const Error& e) {
             throw Error(ErrorCode::invalid_config, "config", std::string("config is not valid JSON: ") + e.what());
           }
         } else if (c.is(Value::Kind::object)) {
           parsed = c;
         } else {
           throw Error(ErrorCode::invalid_config, "config", "config must be the text of a config.json, got " + describe(c));
         }
         const Architecture arch = architecture_from_config(parsed, "config");
         const WeightFormat& f =
             find_format(a.has("format") ? a.text("format", ErrorCode::unknown_format, "a format id") : "bf16", "format");
         const Dtype kv = a.dtype_or("kvDtype", Dtype::bf16);
         const double batch = require_count("batch", a.number_or("batch", 1));
         const double tokens = require_count_or_zero("tokens", a.number_or("tokens", 0));
         return config_model_value(arch, f, kv, batch, tokens);
       }},
      {"costPerMillionTokens", "",
       {{"pricePerHourUsd", Kind::positive, "USD/h"}, {"tokensPerSecond", Kind::positive, "tokens/s"},
        {"gpus", Kind::count, "", opt, "1"}},
       "CostPerMillionTokensResult", "usdPerMillionTokens: number; usdPerHour: number; tokensPerHour: number", object,
       [](const Args& a) {
         // price per GPU-hour × GPUs ÷ (tokens/s × 3,600) × 10⁶
         const double price = require_positive("pricePerHourUsd", a.number("pricePerHourUsd"));
         const double rate = require_positive("tokensPerSecond", a.number("tokensPerSecond"));
         const double gpus = require_count("gpus", a.number_or("gpus", 1));
         const double per_hour = require_result("usdPerHour", price * gpus);
         const double tokens_per_hour = require_result("tokensPerHour", rate * 3600);
         return Value::object()
             .set("usdPerMillionTokens", require_result("usdPerMillionTokens", per_hour / tokens_per_hour * 1e6))
             .set("usdPerHour", per_hour)
             .set("tokensPerHour", tokens_per_hour);
       }},
      {"step",
       "One prefill or decode step operator by operator (docs/api.md, step): each operator's FLOPs, bytes and floor on "
       "the GPU at dtype; totals add the operators' floors (they run one after another) beside the whole step as one kernel.",
       {{"model", Kind::model_ref, ""}, {"format", Kind::format, "", opt}, {"kvDtype", Kind::dtype, "", opt, "'bf16'"},
        {"gpu", Kind::gpu, ""}, {"dtype", Kind::dtype, "", opt}, {"phase", Kind::phase, ""}, {"batch", Kind::count, ""},
        {"context", Kind::count_or_zero, ""}, {"flashAttention", Kind::flag, "", opt, "true"}},
       "StepResult", "operators: StepOperator[]; totals: StepTotals", object,
       [](const Args& a) {
         const ModelRef r = model_ref(a, "model");
         if (!r.architecture) {
           throw Error(ErrorCode::out_of_range, "model",
                       "model has no architecture in the catalog (the lesson gives only its parameter count): choose a model "
                       "with a config.json");
         }
         const WeightFormat& f = r.format(a);
         const Gpu& g = gpu_arg(a, "gpu");
         const Dtype d = a.dtype_or("dtype", f.compute_dtype);
         const StepInput in{*r.architecture, f,      a.dtype_or("kvDtype", Dtype::bf16),
                            device_for(g, d),  phase_arg(a, "phase"), a.number("batch"),
                            a.number("context"), a.has("flashAttention") ? flag_arg(a, "flashAttention") : true};
         return step_value(step(in));
       }},
      {"cases", "", {},
       "LessonCase", "id: string; name: string; values: CaseValues; source: string", list,
       [](const Args&) {
         Value v = Value::array();
         for (const LessonCase& c : lesson_cases()) v.push(case_value(c));
         return v;
       }},
      {"lessonCase", "",
       {{"id", Kind::lesson_case, ""}},
       "LessonCase", "id: string; name: string; values: CaseValues; source: string", object,
       [](const Args& a) {
         return case_value(find_case(a.text("id", ErrorCode::unknown_case, "a case id"), "id"));
       }},
      {"caseArgs", "",
       {{"id", Kind::lesson_case, ""}, {"function", Kind::function, ""}, {"values", Kind::case_values, "", opt}},
       "CaseArgs", "*: number | string", object,
       [](const Args& a) {
         LessonCase c = find_case(a.text("id", ErrorCode::unknown_case, "a case id"), "id");
         if (a.has("values")) override_case_values(c, a.raw("values"));
         const std::string fn = a.text("function", ErrorCode::unknown_function, "an API function name");
         for (const Function& f : table()) {
           if (f.name != fn) continue;
           std::vector<std::string_view> takes;
           for (const Arg& arg : f.args()) takes.push_back(arg.name);
           return case_args(c, takes);
         }
         throw Error(ErrorCode::unknown_function, "function",
                     "function must name an API function, got \"" + fn.substr(0, 40) + "\"");
       }},
      {"exercise", "",
       {{"id", Kind::count, ""}, {"seed", Kind::count_or_zero, "", opt}},
       "Exercise",
        "id: number; level: 'easy' | 'medium' | 'challenge' | 'check'; seed: number; inputs: CaseValues; "
        "parts: ExercisePart[]; solution: CaseValues",
       object,
       [](const Args& a) { return instance_value(exercise(item_id(a, exercise_count, "an exercise"), seed_arg(a))); }},
      {"checkExercise", "",
       {{"id", Kind::count, ""}, {"seed", Kind::count_or_zero, "", opt}, {"answers", Kind::answers, ""}},
       "CheckResult",
        "state: 'correct' | 'partial' | 'incorrect' | 'unanswered'; correct: number; parts: PartCheck[]",
       object,
       [](const Args& a) {
         const ExerciseInstance e = exercise(item_id(a, exercise_count, "an exercise"), seed_arg(a));
         return check_value(e, a.raw("answers"));
       }},
      {"question", "",
       {{"id", Kind::count, ""}},
       "Exercise",
        "id: number; level: 'easy' | 'medium' | 'challenge' | 'check'; seed: number; inputs: CaseValues; "
        "parts: ExercisePart[]; solution: CaseValues",
       object,
       [](const Args& a) { return instance_value(question(item_id(a, question_count, "a check question"))); }},
      {"checkQuestion", "",
       {{"id", Kind::count, ""}, {"answers", Kind::answers, ""}},
       "CheckResult",
        "state: 'correct' | 'partial' | 'incorrect' | 'unanswered'; correct: number; parts: PartCheck[]",
       object,
       [](const Args& a) { return check_value(question(item_id(a, question_count, "a check question")), a.raw("answers")); }},
      {"multiply", "",
       {{"a", Kind::matrix, ""}, {"b", Kind::matrix, ""}},
       "MultiplyResult",
        "c: number[][]; rows: number; cols: number; inner: number; macs: number; flops: number",
       object,
       [](const Args& a) {
         const Matrix ma = a.matrix("a");
         const Matrix mb = a.matrix("b");
         const MultiplyResult r = multiply(ma, mb);
         return Value::object()
             .set("c", matrix_rows_value(r.c.to_rows()))
             .set("rows", double(r.c.rows()))
             .set("cols", double(r.c.cols()))
             .set("inner", double(ma.cols()))
             .set("macs", r.macs.value())
             .set("flops", to_flops(r.macs).value());
       }},
      {"matmul", "",
       {{"n", Kind::count, ""}, {"k", Kind::count, ""}, {"m", Kind::count, ""}, {"dtype", Kind::dtype, ""}},
       "MatmulResult",
        "rows: number; cols: number; outputElements: number; macs: number; flops: number; bytes: number; "
        "flopsPerByte: number",
       object,
       [](const Args& a) {
         const double n = a.number("n"), k = a.number("k"), m = a.number("m");
         return matmul_value(matmul_cost(n, k, m, a.dtype("dtype")));
       }},
      {"timeAtPeak", "",
       {{"flops", Kind::positive, "FLOPs"}, {"peakFlopsPerSecond", Kind::positive, "FLOPS"}},
       "TimeAtPeakResult", "seconds: number; perSecond: number", object,
       [](const Args& a) {
         const Flops flops{a.number("flops")};
         const AtPeak r = time_at_peak(flops, FlopsPerSecond{a.number("peakFlopsPerSecond")});
         return Value::object().set("seconds", r.seconds.value()).set("perSecond", r.per_second);
       }},
      {"roofline", "",
       {{"peakFlopsPerSecond", Kind::positive, "FLOPS"}, {"bytesPerSecond", Kind::positive, "bytes/s"},
        {"flopsPerByte", Kind::positive, "FLOPs/byte"}},
       "RooflineResult",
        "ridgeFlopsPerByte: number; memoryFlopsPerSecond: number; attainableFlopsPerSecond: number; "
        "fractionOfPeak: number; intensityOverRidge: number; bound: Bound",
       object,
       [](const Args& a) {
         const Device d = device_arg(a);
         const RooflinePoint p = roofline_point(d, FlopsPerByte{a.number("flopsPerByte")});
         return Value::object()
             .set("ridgeFlopsPerByte", p.ridge.value())
             .set("memoryFlopsPerSecond", p.memory_fed.value())
             .set("attainableFlopsPerSecond", p.attainable.value())
             .set("fractionOfPeak", p.fraction_of_peak)
             .set("intensityOverRidge", p.intensity_over_ridge)
             .set("bound", std::string(bound_id(p.bound)));
       }},
      {"clocks", "",
       {{"flops", Kind::positive, "FLOPs"}, {"bytes", Kind::positive, "bytes"},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS"}, {"bytesPerSecond", Kind::positive, "bytes/s"}},
       "ClocksResult",
        "computeSeconds: number; memorySeconds: number; seconds: number; flopsPerByte: number; "
        "ridgeFlopsPerByte: number; bound: Bound",
       object,
       [](const Args& a) {
         const Flops f{a.number("flops")};
         const Bytes b{a.number("bytes")};
         return clocks_value(clocks(f, b, device_arg(a)));
       }},
      {"utilization", "",
       {{"achievedFlopsPerSecond", Kind::non_negative, "FLOPS"}, {"peakFlopsPerSecond", Kind::positive, "FLOPS"}},
       "UtilizationResult", "fraction: number; possible: boolean", object,
       [](const Args& a) {
         const FlopsPerSecond achieved{a.number("achievedFlopsPerSecond")};
         const Utilization u = utilization(achieved, FlopsPerSecond{a.number("peakFlopsPerSecond")});
         return Value::object().set("fraction", u.fraction).set("possible", u.possible);
       }},
      {"throughput", "",
       {{"flopsPerItem", Kind::positive, "FLOPs"}, {"itemsPerSecond", Kind::non_negative, "1/s"},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS"}, {"gpus", Kind::count, "", opt}},
       "ThroughputResult",
        "achievedFlopsPerSecond: number; peakFlopsPerSecond: number; fraction: number; possible: boolean; "
        "secondsPerItemAtPeak: number; "
        "ceilingItemsPerSecond: number",
       object,
       [](const Args& a) {
         const Flops per_item{a.number("flopsPerItem")};
         const double items_per_second = a.number("itemsPerSecond");
         // over several GPUs the peak is theirs together (C10's two H100)
         const double gpus = require_count("gpus", a.number_or("gpus", 1));
         const FlopsPerSecond peak{require_result("peakFlopsPerSecond", a.number("peakFlopsPerSecond") * gpus)};
         const Throughput t = throughput(per_item, items_per_second, peak);
         return Value::object()
             .set("achievedFlopsPerSecond", t.achieved.value())
             .set("peakFlopsPerSecond", t.peak.value())
             .set("fraction", t.utilization.fraction)
             .set("possible", t.utilization.possible)
             .set("secondsPerItemAtPeak", t.seconds_per_item_at_peak.value())
             .set("ceilingItemsPerSecond", t.ceiling_items_per_second);
       }},
      {"totalWork", "",
       {{"flopsPerItem", Kind::positive, "FLOPs"}, {"items", Kind::positive, ""},
        {"itemsPerSecond", Kind::non_negative, "1/s", opt}},
       "TotalWorkResult", "flops: number; seconds: number", object,
       [](const Args& a) {
         const Flops per_item{a.number("flopsPerItem")};
         const double items = a.number("items");
         const TotalWork w = total_work(per_item, items, a.number_or("itemsPerSecond", 0));
         return Value::object().set("flops", w.flops.value()).set("seconds", w.seconds.value());
       }},
      {"rentalCost", "",
       {{"pricePerHourUsd", Kind::positive, "USD/h"}, {"gpus", Kind::count, ""}, {"hours", Kind::positive, "h"}},
       "RentalCostResult", "usd: number", object,
       [](const Args& a) {
         const double price = a.number("pricePerHourUsd");
         const double gpus = a.number("gpus");
         return Value::object().set("usd", rental_cost_usd(price, gpus, a.number("hours")));
       }},
      {"dailyLoad", "A day's items spread over GPUs against each GPU's measured rate (C01: ≈ 5 % load).",
       {{"items", Kind::count, ""}, {"gpus", Kind::count, ""}, {"itemsPerSecond", Kind::positive, "1/s"}},
       "DailyLoadResult", "arrivalsPerSecond: number; arrivalsPerSecondPerGpu: number; load: number", object,
       [](const Args& a) {
         const DailyLoad l = daily_load(a.number("items"), a.number("gpus"), a.number("itemsPerSecond"));
         return Value::object()
             .set("arrivalsPerSecond", l.items_per_second)
             .set("arrivalsPerSecondPerGpu", l.items_per_second_per_gpu)
             .set("load", l.load);
       }},
      {"gpusNeeded", "GPUs for a demanded rate at a rate per GPU: the next whole GPU.",
       {{"demandItemsPerSecond", Kind::positive, "1/s"}, {"itemsPerSecond", Kind::positive, "1/s"}},
       "GpusNeededResult", "exactGpus: number; gpus: number", object,
       [](const Args& a) {
         const GpusNeeded g = gpus_needed(a.number("demandItemsPerSecond"), a.number("itemsPerSecond"));
         return Value::object().set("exactGpus", g.exact).set("gpus", g.gpus);
       }},
      {"perSecond", "One item every `seconds`, as a rate (a 50 ms TPOT is 20 tokens/s).",
       {{"seconds", Kind::positive, "s"}},
       "PerSecondResult", "perSecond: number", object,
       [](const Args& a) { return Value::object().set("perSecond", per_second(Seconds{a.number("seconds")})); }},
      {"framePixels", "A screen's pixels, and per second at a frame rate.",
       {{"width", Kind::count, ""}, {"height", Kind::count, ""}, {"framesPerSecond", Kind::positive, "1/s"}},
       "FramePixelsResult", "pixels: number; pixelsPerSecond: number", object,
       [](const Args& a) {
         const FramePixels f = frame_pixels(a.number("width"), a.number("height"), a.number("framesPerSecond"));
         return Value::object().set("pixels", f.pixels).set("pixelsPerSecond", f.per_second);
       }},
      {"denseLayer", "",
       {{"batch", Kind::count, ""}, {"inputs", Kind::count, ""}, {"outputs", Kind::count, ""},
        {"dtype", Kind::dtype, ""}},
       "DenseLayerResult",
        "macs: number; flops: number; bytes: number; weightBytes: number; flopsPerByte: number; "
        "weightsOnlyFlopsPerByte: number; limitFlopsPerByte: number",
       object,
       [](const Args& a) {
         const double batch = a.number("batch"), inputs = a.number("inputs"), outputs = a.number("outputs");
         const DenseLayerCost c = dense_layer(batch, inputs, outputs, a.dtype("dtype"));
         return Value::object()
             .set("macs", c.matmul.macs.value())
             .set("flops", c.matmul.flops.value())
             .set("bytes", c.matmul.bytes.value())
             .set("weightBytes", c.weight_bytes.value())
             .set("flopsPerByte", c.matmul.intensity.value())
             .set("weightsOnlyFlopsPerByte", c.weights_only_intensity.value())
             .set("limitFlopsPerByte", c.limit_intensity.value());
       }},
      {"stageIntensity",
       "A CNN stage over a batch, counting only its weights (ResNet-50's stage 4: ≈ 216 FLOPs/B at batch 4).",
       {{"model", Kind::model, ""}, {"stage", Kind::stage, ""}, {"batch", Kind::count, ""}},
       "StageIntensityResult",
        "macs: number; flops: number; weightBytes: number; usesPerWeight: number; weightsOnlyFlopsPerByte: number; "
        "/** Where the catalog knows the stage's maps: their bytes over the batch, and the intensity counting "
        "them. */ "
        "activationBytes?: number; flopsPerByte?: number",
       object,
       [](const Args& a) {
         // a CNN stage over a batch, counting only its weights (read once for the whole batch),
         // in the model's own dtype: the lesson's "stage 4 at batch 4 ≈ 216, at 32 ≈ 1,730"
         const Model& m = model_arg(a, "model");
         const std::string stage_id = a.text("stage", ErrorCode::out_of_range, "a stage id of the model");
         const Stage* st = nullptr;
         std::string known;
         for (const Stage& x : m.stages) {
           if (x.id == stage_id) st = &x;
           known += (known.empty() ? "" : ", ") + std::string(x.id);
         }
         if (!st) {
           throw Error(ErrorCode::out_of_range, "stage",
                       m.stages.empty() ? std::string(m.name) + " has no stages"
                                        : "stage must be one of " + known + ", got \"" + stage_id.substr(0, 40) + "\"");
         }
         const double batch = require_count("batch", a.number("batch"));
         const Dtype dtype = m.dtype ? *m.dtype : Dtype::fp16;
         const double macs = require_exact_product("batch", st->macs * batch, "the stage's MACs");
         const Flops flops = to_flops(Macs{macs});
         const Bytes weights = bytes_of(st->weights, dtype);
         Value v = Value::object()
                       .set("macs", macs)
                       .set("flops", flops.value())
                       .set("weightBytes", weights.value())
                       .set("usesPerWeight", require_result("usesPerWeight", macs / st->weights))
                       .set("weightsOnlyFlopsPerByte", require_result("weightsOnlyFlopsPerByte", flops.value() / weights.value()));
         if (st->activations > 0) {
           // its maps travel for every example of the batch: the real intensity
           const Bytes maps = bytes_of(require_exact_product("batch", st->activations * batch, "the stage's maps"), dtype);
           v.set("activationBytes", maps.value());
           v.set("flopsPerByte", require_result("flopsPerByte", flops.value() / (weights.value() + maps.value())));
         }
         return v;
       }},
      {"minBatchForRidge", "",
       {{"inputs", Kind::count, ""}, {"outputs", Kind::count, ""}, {"dtype", Kind::dtype, ""},
        {"ridgeFlopsPerByte", Kind::positive, "FLOPs/byte"}},
       "MinBatchForRidgeResult", "batch: number", object,
       [](const Args& a) {
         const double inputs = a.number("inputs"), outputs = a.number("outputs");
         const Dtype dtype = a.dtype("dtype");
         return Value::object().set(
             "batch", min_batch_for_ridge(inputs, outputs, dtype, FlopsPerByte{a.number("ridgeFlopsPerByte")}));
       }},
      {"decode", "flopsPerToken and peakFlopsPerSecond go together (one alone: 'missing_field' naming the other).",
       {{"weightBytes", Kind::positive, "bytes", opt}, {"kvBytesPerSequence", Kind::non_negative, "bytes", opt},
        {"batch", Kind::count, ""}, {"bytesPerSecond", Kind::positive, "bytes/s"},
        {"gpus", Kind::count, "", opt, "1"}, {"flopsPerToken", Kind::positive, "FLOPs", opt},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS", opt}, {"memoryBytesPerGpu", Kind::positive, "bytes", opt},
        {"bytesReadPerStep", Kind::positive, "bytes", opt}, {"model", Kind::model_ref, "", opt},
        {"format", Kind::format, "", opt}, {"kvDtype", Kind::dtype, "", opt},
        {"tokens", Kind::count_or_zero, "", opt}},
       "DecodeResult",
        "/** What one GPU reads per step: (bytesReadPerStep + batch × kvBytesPerSequence) ÷ gpus. */ "
        "bytesPerStep: number; "
        "/** bytesPerStep ÷ bytesPerSecond: the memory floor of a step. */ "
        "memorySeconds: number; "
        "/** batch × flopsPerToken ÷ (gpus × peakFlopsPerSecond): the compute floor; null without a peak. */ "
        "computeSeconds: number | null; "
        "/** The larger floor. */ "
        "stepSeconds: number; "
        "/** Which floor is the larger ('compute' on a tie). */ "
        "bound: Bound; "
        "/** 1 ÷ stepSeconds. */ "
        "tokensPerSecondPerSequence: number; "
        "/** batch ÷ stepSeconds. */ "
        "tokensPerSecond: number; "
        "/** Weights + batch × KV fit in gpus × memoryBytesPerGpu; null without memoryBytesPerGpu. */ "
        "fits: boolean | null; "
        "/** The largest batch that fits (0 when the weights alone do not); null without memoryBytesPerGpu or with "
        "kvBytesPerSequence 0. */ "
        "maxBatch: number | null; "
        "/** What one GPU holds: (weightBytes + batch × kvBytesPerSequence) ÷ gpus. */ "
        "residentBytesPerGpu: number; "
        "/** The inputs as used (from the model where one is given). */ "
        "weightBytes: number; bytesReadPerStep: number; kvBytesPerSequence: number",
       object,
       [](const Args& a) {
         DecodeInput in{};
         in.batch = a.number("batch");
         require_count("batch", in.batch);
         if (a.has("model")) {
           // the model gives the weights it holds, the weights a step of this batch reads, the KV
           // cache of `tokens` in kvDtype and, with a peak, the FLOPs of a token; a number given
           // explicitly replaces the model's
           const ModelRef r = model_ref(a, "model");
           const WeightFormat& f = r.format(a);
           in.weights = a.has("weightBytes") ? Bytes{a.number("weightBytes")} : r.weights(f).bytes;
           in.weights_read = a.has("bytesReadPerStep") ? Bytes{a.number("bytesReadPerStep")}
                             : a.has("weightBytes")    ? in.weights
                                                       : r.read_per_step(f, in.batch);
           const double tokens = require_count_or_zero("tokens", a.number_or("tokens", 0));
           const Dtype kv_dtype = r.kv_dtype(a);
           in.kv_cache_per_sequence = a.has("kvBytesPerSequence") ? Bytes{a.number("kvBytesPerSequence")}
                                      : tokens > 0                ? model_kv_bytes(r, tokens, kv_dtype)
                                                                  : Bytes{0};
           if (a.has("peakFlopsPerSecond") && !a.has("flopsPerToken")) {
             in.flops_per_token = r.architecture && !r.lesson_figures() ? flops_per_token(*r.architecture, tokens)
                                                                        : flops_per_token(r.flops_params());
           }
         } else {
           // each checked for itself first, so that a bad value is named as such
           if (a.has("format")) find_format(a.text("format", ErrorCode::unknown_format, "a format id"), "format");
           if (a.has("kvDtype")) static_cast<void>(a.dtype("kvDtype"));
           if (a.has("tokens")) require_count_or_zero("tokens", a.number("tokens"));
           for (std::string_view only : {"format", "kvDtype", "tokens"}) {
             if (a.has(only)) {
               throw Error(ErrorCode::unknown_argument, std::string(only), std::string(only) + " applies only with a model");
             }
           }
           in.weights = Bytes{a.number("weightBytes")};
           if (a.has("bytesReadPerStep")) in.weights_read = Bytes{a.number("bytesReadPerStep")};
           in.kv_cache_per_sequence = Bytes{a.number("kvBytesPerSequence")};
         }
         in.bandwidth = BytesPerSecond{a.number("bytesPerSecond")};
         in.gpus = a.number_or("gpus", 1);
         if (a.has("flopsPerToken")) in.flops_per_token = Flops{a.number("flopsPerToken")};
         if (a.has("peakFlopsPerSecond")) in.peak = FlopsPerSecond{a.number("peakFlopsPerSecond")};
         if (a.has("memoryBytesPerGpu")) in.memory_per_gpu = Bytes{a.number("memoryBytesPerGpu")};
         const DecodeStep s = decode(in);
         return Value::object()
             .set("residentBytesPerGpu", s.resident_per_gpu.value())
             .set("weightBytes", in.weights.value())
             .set("bytesReadPerStep", in.weights_read ? in.weights_read->value() : in.weights.value())
             .set("kvBytesPerSequence", in.kv_cache_per_sequence.value())
             .set("bytesPerStep", s.bytes_per_step.value())
             .set("memorySeconds", s.memory.value())
             .set("computeSeconds", s.compute ? Value(s.compute->value()) : Value())
             .set("stepSeconds", s.step.value())
             .set("bound", std::string(bound_id(s.bound)))
             .set("tokensPerSecondPerSequence", s.tokens_per_second_per_sequence)
             .set("tokensPerSecond", s.tokens_per_second)
             .set("fits", s.fits ? Value(*s.fits) : Value())
             .set("maxBatch", s.max_batch ? Value(*s.max_batch) : Value());
       }},
      {"kvCacheBytes", "",
       {{"layers", Kind::count, "", opt}, {"kvHeads", Kind::count, "", opt}, {"headDim", Kind::count, "", opt},
        {"tokens", Kind::count, ""}, {"dtype", Kind::dtype, ""}, {"model", Kind::model_ref, "", opt}},
       "KvCacheBytesResult", "bytes: number; bytesPerToken: number", object,
       [](const Args& a) {
         // the lesson's formula from three shape numbers, or a model's own (GQA, MLA, sliding windows)
         const double tokens = a.number("tokens");
         const Dtype dtype = a.dtype("dtype");
         if (a.has("model")) {
           // the model's own cache, or its GQA shape with any of layers, kvHeads, headDim replaced
           const ModelRef r = model_ref(a, "model");
           if (!a.has("layers") && !a.has("kvHeads") && !a.has("headDim")) {
             const Bytes bytes = model_kv_bytes(r, tokens, dtype);
             return Value::object().set("bytes", bytes.value()).set("bytesPerToken", require_result("bytesPerToken", bytes.value() / tokens));
           }
           double shape[3] = {0, 0, 0};
           if (r.architecture && r.architecture->attention.kind == Attention::Kind::gqa) {
             shape[0] = r.architecture->layers, shape[1] = r.architecture->attention.kv_heads;
             shape[2] = r.architecture->attention.head_dim;
           } else if (r.catalog && r.catalog->layers && r.catalog->kv_heads && r.catalog->head_dim) {
             shape[0] = *r.catalog->layers, shape[1] = *r.catalog->kv_heads, shape[2] = *r.catalog->head_dim;
           }
           const char* names[3] = {"layers", "kvHeads", "headDim"};
           for (int i = 0; i < 3; ++i) {
             if (a.has(names[i])) shape[i] = require_count(names[i], a.number(names[i]));
             if (shape[i] == 0) {
               throw Error(ErrorCode::missing_field, names[i], std::string(names[i]) + " is required: the model has no GQA shape to take it from");
             }
           }
           const Bytes bytes = kv_cache_bytes(shape[0], shape[1], shape[2], tokens, dtype);
           return Value::object().set("bytes", bytes.value()).set("bytesPerToken", bytes.value() / tokens);
         }
         const double layers = a.number("layers"), heads = a.number("kvHeads"), dim = a.number("headDim");
         const Bytes bytes = kv_cache_bytes(layers, heads, dim, tokens, dtype);
         return Value::object().set("bytes", bytes.value()).set("bytesPerToken", bytes.value() / tokens);
       }},
      {"flopsPerToken", "",
       {{"params", Kind::count, ""}},
       "FlopsResult", "flops: number", object,
       [](const Args& a) { return Value::object().set("flops", flops_per_token(a.number("params")).value()); }},
      {"prefill", "",
       {{"params", Kind::count, ""}, {"tokens", Kind::count, ""}, {"weightBytes", Kind::positive, "bytes"},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS"}, {"bytesPerSecond", Kind::positive, "bytes/s"},
        {"gpus", Kind::count, "", opt, "1"}},
       "PrefillResult",
        "computeSeconds: number; memorySeconds: number; seconds: number; flopsPerByte: number; "
        "ridgeFlopsPerByte: number; bound: Bound; flops: number",
       object,
       [](const Args& a) {
         PrefillInput in{};
         in.params = a.number("params");
         in.tokens = a.number("tokens");
         in.weights = Bytes{a.number("weightBytes")};
         in.device = device_arg(a);
         in.gpus = a.number_or("gpus", 1);
         const Prefill p = prefill(in);
         Value v = clocks_value(p.clocks);
         v.set("flops", p.flops.value());
         return v;
       }},
      {"tile", "",
       {{"rows", Kind::count, ""}, {"cols", Kind::count, ""}, {"dtype", Kind::dtype, ""}},
       "TileResult", "flopsPerByte: number", object,
       [](const Args& a) {
         const double rows = a.number("rows"), cols = a.number("cols");
         return Value::object().set("flopsPerByte", tile_intensity(rows, cols, a.dtype("dtype")).value());
       }},
      {"resolutionScale", "A square image resized: a CNN's FLOPs scale with its area (M08: (160 ÷ 224)² ≈ 51 %).",
       {{"fromSide", Kind::count, "pixels"}, {"toSide", Kind::count, "pixels"}},
       "ResolutionScaleResult", "fromPixels: number; toPixels: number; flopsFraction: number", object,
       [](const Args& a) {
         const ResolutionScale r = resolution_scale(a.number("fromSide"), a.number("toSide"));
         return Value::object()
             .set("fromPixels", r.from_pixels)
             .set("toPixels", r.to_pixels)
             .set("flopsFraction", r.flops_fraction);
       }},
      {"convAsMatmul", "",
       {{"inputHeight", Kind::count, ""}, {"inputWidth", Kind::count, ""}, {"inChannels", Kind::count, ""},
        {"kernelHeight", Kind::count, ""}, {"kernelWidth", Kind::count, ""}, {"filters", Kind::count, ""},
        {"stride", Kind::count, "", opt, "1"}, {"padding", Kind::count_or_zero, "", opt, "0"}},
       "ConvResult",
        "/** The input tensor: channels × height × width (3 × 224 × 224 = 150,528). */ "
        "inputElements: number; outputHeight: number; outputWidth: number; rows: number; inner: number; cols: number; "
        "windowElements: number; weights: number; macs: number; flops: number",
       object,
       [](const Args& a) {
         ConvInput in{};
         in.input_height = a.number("inputHeight");
         in.input_width = a.number("inputWidth");
         in.in_channels = a.number("inChannels");
         in.kernel_height = a.number("kernelHeight");
         in.kernel_width = a.number("kernelWidth");
         in.filters = a.number("filters");
         in.stride = a.number_or("stride", 1);
         in.padding = a.number_or("padding", 0);
         const ConvAsMatmul c = conv_as_matmul(in);
         return Value::object()
             .set("inputElements", c.input_elements)
             .set("outputHeight", c.output_height)
             .set("outputWidth", c.output_width)
             .set("rows", c.rows)
             .set("inner", c.inner)
             .set("cols", c.cols)
             .set("windowElements", c.window_elements)
             .set("weights", c.weights)
             .set("macs", c.macs.value())
             .set("flops", to_flops(c.macs).value());
       }},
      {"elementwise", "",
       {{"elements", Kind::count, ""}, {"dtype", Kind::dtype, ""},
        {"flopsPerElement", Kind::positive, "FLOPs", opt, "1"}},
       "ElementwiseResult", "flops: number; bytes: number; flopsPerByte: number", object,
       [](const Args& a) {
         const double elements = a.number("elements");
         const Dtype dtype = a.dtype("dtype");
         const Elementwise e = elementwise(elements, dtype, a.number_or("flopsPerElement", 1));
         return Value::object()
             .set("flops", e.flops.value())
             .set("bytes", e.bytes.value())
             .set("flopsPerByte", e.intensity.value());
       }},
      {"fusion", "",
       {{"elements", Kind::count, ""}, {"dtype", Kind::dtype, ""}},
       "FusionResult",
        "unfusedBytes: number; fusedBytes: number; savedBytes: number; unfusedTransfers: number; "
        "fusedTransfers: number",
       object,
       [](const Args& a) {
         const double elements = a.number("elements");
         const Fusion f = fusion(elements, a.dtype("dtype"));
         return Value::object()
             .set("unfusedBytes", f.unfused.value())
             .set("fusedBytes", f.fused.value())
             .set("savedBytes", f.saved.value())
             .set("unfusedTransfers", f.unfused_transfers)
             .set("fusedTransfers", f.fused_transfers);
       }},
      {"quantizedWeights", "",
       {{"params", Kind::count, ""}, {"dtype", Kind::dtype, ""}, {"groupSize", Kind::count, "", opt},
        {"scaleDtype", Kind::dtype, "", opt, "'fp16'"}, {"keptParams", Kind::non_negative, "", opt, "0"},
        {"keptDtype", Kind::dtype, "", opt, "'bf16'"}},
       "QuantizedWeightsResult",
        "bytes: number; quantizedBytes: number; scaleBytes: number; keptBytes: number; bitsPerWeight: number",
       object,
       [](const Args& a) {
         QuantizedWeightsInput in{};
         in.params = a.number("params");
         in.dtype = a.dtype("dtype");
         if (a.has("groupSize")) in.group_size = a.number("groupSize");
         in.scale_dtype = a.dtype_or("scaleDtype", Dtype::fp16);
         in.kept_params = a.number_or("keptParams", 0);
         in.kept_dtype = a.dtype_or("keptDtype", Dtype::bf16);
         const QuantizedWeights q = quantized_weights(in);
         return Value::object()
             .set("bytes", q.bytes.value())
             .set("quantizedBytes", q.quantized.value())
             .set("scaleBytes", q.scales.value())
             .set("keptBytes", q.kept.value())
             .set("bitsPerWeight", q.bits_per_weight);
       }},
      {"precisionSpeedup", "",
       {{"bytesBefore", Kind::positive, "bytes"}, {"bytesAfter", Kind::positive, "bytes"},
        {"peakBeforeFlopsPerSecond", Kind::positive, "FLOPS"}, {"peakAfterFlopsPerSecond", Kind::positive, "FLOPS"}},
       "PrecisionSpeedupResult", "memoryBoundSpeedup: number; computeBoundSpeedup: number", object,
       [](const Args& a) {
         const Bytes before{a.number("bytesBefore")};
         const Bytes after{a.number("bytesAfter")};
         const FlopsPerSecond peak_before{a.number("peakBeforeFlopsPerSecond")};
         const Speedups s = speedups(before, after, peak_before, FlopsPerSecond{a.number("peakAfterFlopsPerSecond")});
         return Value::object().set("memoryBoundSpeedup", s.memory_bound).set("computeBoundSpeedup", s.compute_bound);
       }},
      {"denseFromSparsity", "",
       {{"flopsPerSecond", Kind::positive, "FLOPS"}},
       "DenseFromSparsityResult", "flopsPerSecond: number", object,
       [](const Args& a) {
         return Value::object().set("flopsPerSecond",
                                    dense_from_sparsity(FlopsPerSecond{a.number("flopsPerSecond")}).value());
       }},
      {"trainingFlops", "",
       {{"params", Kind::count, ""}, {"tokens", Kind::count, ""}},
       "FlopsResult", "flops: number", object,
       [](const Args& a) {
         const double params = a.number("params");
         return Value::object().set("flops", llm_training_flops(params, a.number("tokens")).value());
       }},
      {"cnnTrainingFlops", "",
       {{"forwardFlops", Kind::positive, "FLOPs"}, {"examples", Kind::count, ""},
        {"epochs", Kind::positive, "", opt, "1"}},
       "FlopsResult", "flops: number", object,
       [](const Args& a) {
         const Flops forward{a.number("forwardFlops")};
         const double examples = a.number("examples");
         return Value::object().set("flops", cnn_training_flops(forward, examples, a.number_or("epochs", 1)).value());
       }},
  };
  return functions;
}

/// An argument the function does not take is an error (a typo must not fall back to a default).
void reject_unknown(const Function& f, const Value& args) {
  for (const std::string& key : args.keys()) {
    bool known = false;
    for (const Arg& a : f.args()) known = known || a.name == key;
    if (known) continue;
    std::string takes;
    for (const Arg& a : f.args()) takes += (takes.empty() ? "" : ", ") + std::string(a.name);
    throw Error(ErrorCode::unknown_argument, key.substr(0, 40),
                std::string(f.name) + " takes no argument \"" + key.substr(0, 40) + "\"" +
                    (takes.empty() ? std::string("; it takes none") : "; it takes " + takes));
  }
}

// The last line of defence for "never NaN or Infinity": every number of every result.
void check_finite(const Value& v) {
  if (v.is(Value::Kind::number) && !std::isfinite(v.number())) require_result("result", v.number());
  if (v.kind() < Value::Kind::array) return;
  for (const Value& item : v.items()) check_finite(item);
}

/// Checks every argument against its kind before the function runs, so that all bad ones are
/// reported at once (RooflineError.errors): presence, type and the rule of each numeric kind, and
/// that each id names a catalog entry. Rules between arguments stay with the function.
void check_arguments(const Function& f, const Args& a) {
  std::vector<ErrorItem> found;
  for (const Arg& arg : f.args()) {
    try {
      if (!a.has(arg.name)) {
        if (!arg.optional) static_cast<void>(a.raw(arg.name));  // missing_field
        continue;
      }
      switch (arg.kind) {
        case Kind::count: require_count(arg.name, a.number(arg.name)); break;
        case Kind::count_or_zero: require_count_or_zero(arg.name, a.number(arg.name)); break;
        case Kind::positive: require_positive(arg.name, a.number(arg.name)); break;
        case Kind::non_negative: require_non_negative(arg.name, a.number(arg.name)); break;
        case Kind::fraction:
        case Kind::number: static_cast<void>(a.number(arg.name)); break;
        case Kind::dtype: static_cast<void>(a.dtype(arg.name)); break;
        case Kind::gpu: static_cast<void>(gpu_arg(a, arg.name)); break;
        case Kind::model: static_cast<void>(model_arg(a, arg.name)); break;
        case Kind::model_ref: static_cast<void>(model_ref(a, arg.name)); break;
        case Kind::phase: static_cast<void>(phase_arg(a, arg.name)); break;
        case Kind::flag: static_cast<void>(flag_arg(a, arg.name)); break;
        case Kind::format:
          find_format(a.text(arg.name, ErrorCode::unknown_format, "a format id"), arg.name);
          break;
        case Kind::lesson_case:
          find_case(a.text(arg.name, ErrorCode::unknown_case, "a lesson case id"), arg.name);
          break;
        default: break;  // stages, case values, answers, matrices, configs: the function checks them
      }
    } catch (const Error& e) {
      for (const ErrorItem& item : e.errors()) found.push_back(item);
    }
  }
  if (found.size() == 1) throw Error(found.front().code, found.front().field, found.front().message);
  if (!found.empty()) throw Error(std::move(found));
}

/// Runs f. An error it throws is caught here and thrown again from this frame, as
/// check_arguments does: in WebKitGTK 2.50's wasm interpreter (IPInt), an error thrown by a
/// function's handler straight to the module's entry stopped the module on the next such throw
/// ("Out of bounds memory access"; tests/engines/suite.mjs, "errors one after another").
[[gnu::noinline]] Value run(const Function& f, const Args& a) {
  std::optional<Error> error;
  try {
    return f.run(a);
  } catch (const Error& e) {
    error.emplace(e);
  }
  throw *error;
}

}  // namespace

Value call(std::string_view name, const Value& args) {
  for (const Function& f : table()) {
    if (name == f.name) {
      const Value empty = Value::object();
      const Value& given = args.is(Value::Kind::null) ? empty : args;
      const Args a(given);
      reject_unknown(f, given);
      check_arguments(f, a);
      Value result = run(f, a);
      check_finite(result);
      return result;
    }
  }
  throw Error(ErrorCode::unknown_function, "", "no API function named \"" + std::string(name.substr(0, 40)) + "\"");
}

std::vector<std::string> function_names() {
  std::vector<std::string> names;
  for (const Function& f : table()) names.emplace_back(f.name);
  return names;
}

}  // namespace roofline::api
