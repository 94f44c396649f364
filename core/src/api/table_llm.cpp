// The API table, layers and language models: intensity against the batch, decode and the KV cache
// (docs/api.md).
#include "api_internal.hpp"

namespace roofline::api::detail {

std::span<const Function> llm_functions() {
  static constexpr Function functions[] = {
      {"denseLayer",
       "",
       {{"batch", Kind::count, ""},
        {"inputs", Kind::count, ""},
        {"outputs", Kind::count, ""},
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
                       .set("weightsOnlyFlopsPerByte",
                            require_result("weightsOnlyFlopsPerByte", flops.value() / weights.value()));
         if (st->activations > 0) {
           // its maps travel for every example of the batch: the real intensity
           const Bytes maps =
               bytes_of(require_exact_product("batch", st->activations * batch, "the stage's maps"), dtype);
           v.set("activationBytes", maps.value());
           v.set("flopsPerByte", require_result("flopsPerByte", flops.value() / (weights.value() + maps.value())));
         }
         return v;
       }},
      {"minBatchForRidge",
       "",
       {{"inputs", Kind::count, ""},
        {"outputs", Kind::count, ""},
        {"dtype", Kind::dtype, ""},
        {"ridgeFlopsPerByte", Kind::positive, "FLOPs/byte"}},
       "MinBatchForRidgeResult",
       "batch: number",
       object,
       [](const Args& a) {
         const double inputs = a.number("inputs"), outputs = a.number("outputs");
         const Dtype dtype = a.dtype("dtype");
         return Value::object().set(
             "batch", min_batch_for_ridge(inputs, outputs, dtype, FlopsPerByte{a.number("ridgeFlopsPerByte")}));
       }},
      {"decode",
       "flopsPerToken and peakFlopsPerSecond go together (one alone: 'missing_field' naming the other).",
       {{"weightBytes", Kind::positive, "bytes", opt},
        {"kvBytesPerSequence", Kind::non_negative, "bytes", opt},
        {"batch", Kind::count, ""},
        {"bytesPerSecond", Kind::positive, "bytes/s"},
        {"gpus", Kind::count, "", opt, "1"},
        {"flopsPerToken", Kind::positive, "FLOPs", opt},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS", opt},
        {"memoryBytesPerGpu", Kind::positive, "bytes", opt},
        {"bytesReadPerStep", Kind::positive, "bytes", opt},
        {"model", Kind::model_ref, "", opt},
        {"format", Kind::format, "", opt},
        {"kvDtype", Kind::dtype, "", opt},
        {"tokens", Kind::count_or_zero, "", opt},
        {"link", Kind::link, "", opt},
        {"linkBytesPerSecond", Kind::positive, "bytes/s", opt},
        {"linkLatencySeconds", Kind::non_negative, "s", opt}},
       "DecodeResult",
       "/** What one GPU reads per step: (bytesReadPerStep + batch × kvBytesPerSequence) ÷ gpus. */ "
       "bytesPerStep: number; "
       "/** bytesPerStep ÷ bytesPerSecond: the memory floor of a step. */ "
       "memorySeconds: number; "
       "/** batch × flopsPerToken ÷ (gpus × peakFlopsPerSecond): the compute floor; null without a peak. */ "
       "computeSeconds: number | null; "
       "/** Under tensor parallelism (gpus > 1): 2 × layers all-reduces of batch × hidden activations on the link, "
       "each its latency + 2(gpus − 1)/gpus × their bytes ÷ its bandwidth; 0 on one GPU; null with no link given. */ "
       "communicationSeconds: number | null; "
       "/** The larger floor, plus communicationSeconds (the all-reduces sit between the layers). */ "
       "stepSeconds: number; "
       "/** Which of the memory and compute floors is the larger ('compute' on a tie). */ "
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
         in.gpus = a.number_or("gpus", 1);
         const std::optional<LinkFigures> link = link_arg(a, nullptr);
         if (link && in.gpus > 1 && !a.has("model")) {
           throw Error(ErrorCode::missing_field, "model",
                       "model is required with a link: its all-reduces need its layers and hidden size");
         }
         std::optional<TensorParallel> tp;
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
           if (in.gpus > 1 && link && !r.architecture) {
             throw Error(ErrorCode::out_of_range, "model",
                         "model has no architecture in the catalog to count its all-reduces: choose a model with a "
                         "config.json");
           }
           const Architecture* arch = r.architecture ? &*r.architecture : nullptr;
           tp = communication(in.gpus, link, arch ? arch->layers : 0, arch ? arch->hidden : 0, in.batch,
                              f.compute_dtype);
         } else {
           tp = communication(in.gpus, link, 0, 0, in.batch, Dtype::bf16);  // no shape: 0 on one GPU, else none
           // each checked for itself first, so that a bad value is named as such
           if (a.has("format")) find_format(a.text("format", ErrorCode::unknown_format, "a format id"), "format");
           if (a.has("kvDtype")) static_cast<void>(a.dtype("kvDtype"));
           if (a.has("tokens")) require_count_or_zero("tokens", a.number("tokens"));
           for (std::string_view only : {"format", "kvDtype", "tokens"}) {
             if (a.has(only)) {
               throw Error(ErrorCode::unknown_argument, std::string(only),
                           std::string(only) + " applies only with a model");
             }
           }
           in.weights = Bytes{a.number("weightBytes")};
           if (a.has("bytesReadPerStep")) in.weights_read = Bytes{a.number("bytesReadPerStep")};
           in.kv_cache_per_sequence = Bytes{a.number("kvBytesPerSequence")};
         }
         in.bandwidth = BytesPerSecond{a.number("bytesPerSecond")};
         if (tp) in.communication = tp->seconds;
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
             .set("communicationSeconds", tp ? Value(tp->seconds.value()) : Value())
             .set("stepSeconds", s.step.value())
             .set("bound", std::string(bound_id(s.bound)))
             .set("tokensPerSecondPerSequence", s.tokens_per_second_per_sequence)
             .set("tokensPerSecond", s.tokens_per_second)
             .set("fits", s.fits ? Value(*s.fits) : Value())
             .set("maxBatch", s.max_batch ? Value(*s.max_batch) : Value());
       }},
      {"kvCacheBytes",
       "",
       {{"layers", Kind::count, "", opt},
        {"kvHeads", Kind::count, "", opt},
        {"headDim", Kind::count, "", opt},
        {"tokens", Kind::count, ""},
        {"dtype", Kind::dtype, ""},
        {"model", Kind::model_ref, "", opt}},
       "KvCacheBytesResult",
       "bytes: number; bytesPerToken: number",
       object,
       [](const Args& a) {
         // the lesson's formula from three shape numbers, or a model's own (GQA, MLA, sliding windows)
         const double tokens = a.number("tokens");
         const Dtype dtype = a.dtype("dtype");
         if (a.has("model")) {
           // the model's own cache, or its GQA shape with any of layers, kvHeads, headDim replaced
           const ModelRef r = model_ref(a, "model");
           if (!a.has("layers") && !a.has("kvHeads") && !a.has("headDim")) {
             const Bytes bytes = model_kv_bytes(r, tokens, dtype);
             return Value::object()
                 .set("bytes", bytes.value())
                 .set("bytesPerToken", require_result("bytesPerToken", bytes.value() / tokens));
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
               throw Error(ErrorCode::missing_field, names[i],
                           std::string(names[i]) + " is required: the model has no GQA shape to take it from");
             }
           }
           const Bytes bytes = kv_cache_bytes(shape[0], shape[1], shape[2], tokens, dtype);
           return Value::object().set("bytes", bytes.value()).set("bytesPerToken", bytes.value() / tokens);
         }
         const double layers = a.number("layers"), heads = a.number("kvHeads"), dim = a.number("headDim");
         const Bytes bytes = kv_cache_bytes(layers, heads, dim, tokens, dtype);
         return Value::object().set("bytes", bytes.value()).set("bytesPerToken", bytes.value() / tokens);
       }},
      {"flopsPerToken",
       "",
       {{"params", Kind::count, ""}},
       "FlopsResult",
       "flops: number",
       object,
       [](const Args& a) { return Value::object().set("flops", flops_per_token(a.number("params")).value()); }},
  };
  return functions;
}

}  // namespace roofline::api::detail
