// Reading arguments and writing results: the values each function of the table returns.
#include <algorithm>
#include <cmath>

#include "api_internal.hpp"

namespace roofline::api::detail {

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
  v.set("usableMemoryBytes", usable_memory(g).value());
  v.set("peakFlopsPerSecond", std::move(peaks));
  if (g.price_per_hour_usd) v.set("pricePerHourUsd", *g.price_per_hour_usd);
  if (g.link) v.set("link", *g.link);
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
    throw Error(ErrorCode::out_of_range, "model",
                std::string(m.name) + " has no KV shape in the catalog: give kvBytesPerSequence");
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
    throw Error(ErrorCode::out_of_range, std::string(key),
                std::string(key) + " must be true or false, got " + describe(f));
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
                 .add("bound", t.on_link ? std::string_view("link") : bound_id(t.bound))
                 .add("seconds", t.seconds)
                 .add("share", t.share));
  }
  Value totals =
      Value::object()
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
          .add("attentionShare", st.attention_share)
          .add("linkBytes", st.link_bytes)
          .add("communicationSeconds", st.communication_seconds ? Value(*st.communication_seconds) : Value());
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
      throw Error(ErrorCode::unknown_argument, field,
                  "a case has no value \"" + name.substr(0, 40) + "\"; it may have" + list);
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
    if (arch.attention.kind == Attention::Kind::gqa)
      all.set("kvHeads", arch.attention.kv_heads).set("headDim", arch.attention.head_dim);
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
        kv = kv_cache_bytes(*model->layers, *model->kv_heads, *model->head_dim, kv_tokens->number, *model->dtype)
                 .value();
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
    all.set("bytesPerSecond", gpu.bandwidth.value()).set("memoryBytesPerGpu", usable_memory(gpu).value());
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
    throw Error(
        ErrorCode::out_of_range, "id",
        std::string("id must be ") + what + " from 1 to " + std::to_string(count) + ", got " + format_number(id));
  }
  return int(id);
}

/// Checks the answers (an object: part id → number in base units, choice id, or matrix) of an
/// exercise or question instance.
Value check_value(const ExerciseInstance& e, const Value& answers) {
  if (!answers.is(Value::Kind::object)) {
    throw Error(ErrorCode::not_a_number, "answers",
                "answers must be an object of part answers, got " + describe(answers));
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
        if (!v->is(Value::Kind::string))
          throw Error(ErrorCode::not_a_number, field, field + " must be a choice id, got " + describe(*v));
        ans.choice = v->string();
      } else if (p.kind == "matrix") {
        Value wrapper = Value::object().set(field, *v);
        ans.matrix = Args(wrapper).matrix(field).to_rows();
      } else {
        if (!v->is(Value::Kind::number))
          throw Error(ErrorCode::not_a_number, field, field + " must be a number, got " + describe(*v));
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

}  // namespace roofline::api::detail
