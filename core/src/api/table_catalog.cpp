// The API table, the catalog: its lists and entries, a model from its config.json, and the cost of serving it
// (docs/api.md).
#include "api_internal.hpp"

namespace roofline::api::detail {

std::span<const Function> catalog_functions() {
  static constexpr Function functions[] = {
      {"functions",
       "The API table: every function, in the core's order.",
       {},
       "FunctionInfo",
       "name: FunctionName; doc: string; args: FunctionArg[]; returns: 'object' | 'list'; resultType: string; "
       "result: ResultField[]",
       list,
       [](const Args&) { return functions_value(); }},
      {"errorCodes",
       "",
       {},
       "ErrorCode",
       "",
       list,  // a list of code strings
       [](const Args&) {
         Value v = Value::array();
         for (ErrorCode c : all_error_codes) v.push(std::string(error_code_id(c)));
         return v;
       }},
      {"dtypes",
       "",
       {},
       "DtypeInfo",
       "id: Dtype; name: string; bytesPerElement: number; bits: number; integer: boolean",
       list,
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
      {"gpus",
       "",
       {},
       "Gpu",
       gpu_fields,
       list,
       [](const Args&) {
         Value v = Value::array();
         for (const Gpu& g : roofline::gpus()) v.push(gpu_value(g));
         return v;
       }},
      {"gpu",
       "",
       {{"id", Kind::gpu, ""}},
       "Gpu",
       gpu_fields,
       object,
       [](const Args& a) { return gpu_value(gpu_arg(a, "id")); }},
      {"compareGpus",
       "How many times `to` has `from`'s peak (in dtype), bandwidth and memory.",
       {{"from", Kind::gpu, ""}, {"to", Kind::gpu, ""}, {"dtype", Kind::dtype, ""}},
       "CompareGpusResult",
       "peakRatio: number; bandwidthRatio: number; memoryRatio: number",
       object,
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
      {"links",
       "The links between GPUs that tensor parallelism's all-reduces cross, slowest first.",
       {},
       "Link",
       "id: string; name: string; /** What one GPU sends each way per second. */ bytesPerSecond: number; "
       "/** Per all-reduce, however small its message. */ latencySeconds: number; source: string",
       list,
       [](const Args&) {
         Value v = Value::array();
         for (const Link& l : roofline::links()) v.push(link_value(l));
         return v;
       }},
      {"device",
       "One GPU at one precision: the two roofs, the capacity and the ridge between the roofs.",
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
      {"models",
       "",
       {},
       "Model",
       model_fields,
       list,
       [](const Args&) {
         Value v = Value::array();
         for (const Model& m : roofline::models()) v.push(model_value(m));
         return v;
       }},
      {"model",
       "",
       {{"id", Kind::model, ""}},
       "Model",
       model_fields,
       object,
       [](const Args& a) { return model_value(model_arg(a, "id")); }},
      {"formats",
       "",
       {},
       "WeightFormat",
       "id: string; name: string; bits: number; weightOnly: boolean; dtype: Dtype | null; groupSize: number | null; "
       "scaleDtype: Dtype | null; keepsBf16Share: boolean; computeDtype: Dtype; source: string",
       list,
       [](const Args&) {
         Value v = Value::array();
         for (const WeightFormat& f : weight_formats()) v.push(format_value(f));
         return v;
       }},
      {"measurements",
       "",
       {},
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
      {"modelWeights",
       "",
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
      {"modelFromConfig",
       "",
       {{"config", Kind::config, ""},
        {"format", Kind::format, "", opt, "'bf16'"},
        {"kvDtype", Kind::dtype, "", opt, "'bf16'"},
        {"batch", Kind::count, "", opt, "1"},
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
           throw Error(ErrorCode::invalid_config, "config",
                       "config must be the text of a config.json, got " + describe(c));
         }
         const Architecture arch = architecture_from_config(parsed, "config");
         const WeightFormat& f = find_format(
             a.has("format") ? a.text("format", ErrorCode::unknown_format, "a format id") : "bf16", "format");
         const Dtype kv = a.dtype_or("kvDtype", Dtype::bf16);
         const double batch = require_count("batch", a.number_or("batch", 1));
         const double tokens = require_count_or_zero("tokens", a.number_or("tokens", 0));
         return config_model_value(arch, f, kv, batch, tokens);
       }},
      {"costPerMillionTokens",
       "",
       {{"pricePerHourUsd", Kind::positive, "USD/h"},
        {"tokensPerSecond", Kind::positive, "tokens/s"},
        {"gpus", Kind::count, "", opt, "1"}},
       "CostPerMillionTokensResult",
       "usdPerMillionTokens: number; usdPerHour: number; tokensPerHour: number",
       object,
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
  };
  return functions;
}

}  // namespace roofline::api::detail
