// The API table, layers and language models: intensity against the batch, decode, the KV cache and prefill
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
         std::optional<TensorParallel> tp = TensorParallel{};
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
           if (in.gpus > 1) {
             if (link && !r.architecture) {
               throw Error(ErrorCode::out_of_range, "model",
                           "model has no architecture in the catalog to count its all-reduces: choose a model with a "
                           "config.json");
             }
             tp = r.architecture ? communication(in.gpus, link, r.architecture->layers, r.architecture->hidden,
                                                 in.batch, f.compute_dtype)
                                 : std::nullopt;
           }
         } else {
           if (in.gpus > 1) tp = std::nullopt;
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
      {"speculative",
       "Speculative decoding on one GPU: a draft model proposes gamma tokens, one decode step each, and the "
       "target verifies them in one read of its weights (gamma + 1 positions per sequence). The target as "
       "decode takes it (model, or weightBytes and flopsPerToken); the draft a model, or draftWeightBytes and "
       "draftFlopsPerToken.",
       {{"model", Kind::model_ref, "", opt},
        {"format", Kind::format, "", opt},
        {"weightBytes", Kind::positive, "bytes", opt},
        {"flopsPerToken", Kind::positive, "FLOPs", opt},
        {"kvBytesPerSequence", Kind::non_negative, "bytes", opt},
        {"tokens", Kind::count_or_zero, "", opt, "0"},
        {"kvDtype", Kind::dtype, "", opt},
        {"batch", Kind::count, "", opt, "1"},
        {"bytesPerSecond", Kind::positive, "bytes/s"},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS"},
        {"draft", Kind::draft_ref, "", opt},
        {"draftFormat", Kind::format, "", opt},
        {"draftWeightBytes", Kind::positive, "bytes", opt},
        {"draftFlopsPerToken", Kind::positive, "FLOPs", opt},
        {"draftKvBytesPerSequence", Kind::non_negative, "bytes", opt},
        {"gamma", Kind::count, ""},
        {"acceptance", Kind::fraction, ""}},
       "SpeculativeResult",
       "/** (1 − α^(γ+1)) ÷ (1 − α): tokens a verification yields per sequence, the target's own bonus token "
       "included; γ + 1 at α = 1. */ expectedTokens: number; "
       "/** γ draft steps: γ × the larger of the draft's two floors. */ draftSeconds: number; "
       "/** One read of the target's weights (and KV) for γ + 1 positions of every sequence. */ "
       "verifySeconds: number; verifyBound: Bound; "
       "/** draftSeconds + verifySeconds. */ cycleSeconds: number; "
       "/** expectedTokens ÷ cycleSeconds, per sequence and for the batch. */ "
       "tokensPerSecondPerSequence: number; tokensPerSecond: number; "
       "/** One plain decode step of the target at this batch, and its rate. */ "
       "plainStepSeconds: number; plainTokensPerSecondPerSequence: number; "
       "/** tokensPerSecond ÷ plain decode's. */ speedup: number; "
       "/** The α at which speedup is 1 for this γ and these costs; null where even α = 1 does not pay. */ "
       "breakEvenAcceptance: number | null; "
       "/** The costs as used (from the models where given). */ "
       "weightBytes: number; flopsPerToken: number; kvBytesPerSequence: number; "
       "/** What a verification reads of the target's weights: more than weightBytes where an MoE's γ + 1 tokens "
       "per sequence touch more experts. */ verifyWeightBytes: number; draftWeightBytes: number; "
       "draftFlopsPerToken: number; draftKvBytesPerSequence: number",
       object,
       [](const Args& a) {
         SpeculativeInput in{};
         in.batch = a.number_or("batch", 1);
         const double tokens = a.number_or("tokens", 0);
         // one side's weights read per step, FLOPs per token and KV per sequence: from its model,
         // a number given explicitly replacing the model's; without a model, the numbers
         const auto side = [&](const char* model_key, const char* format_key, const char* bytes_key,
                               const char* flops_key, const char* kv_key, Bytes& bytes, Flops& flops, Bytes& kv) {
           if (a.has(model_key)) {
             const ModelRef ref = model_ref(a, model_key);
             const WeightFormat& f = ref.format(a, format_key);
             bytes = ref.read_per_step(f, in.batch);
             flops = roofline::flops_per_token(ref.flops_params());
             kv = model_kv_bytes(ref, tokens, ref.kv_dtype(a));
           } else {
             for (const char* k : {bytes_key, flops_key}) {
               if (!a.has(k)) {
                 throw Error(ErrorCode::missing_field, k,
                             std::string(k) + " is required without " + model_key + " (or give " + model_key + ")");
               }
             }
           }
           if (a.has(bytes_key)) bytes = Bytes{a.number(bytes_key)};
           if (a.has(flops_key)) flops = Flops{a.number(flops_key)};
           if (a.has(kv_key)) kv = Bytes{a.number(kv_key)};
         };
         side("model", "format", "weightBytes", "flopsPerToken", "kvBytesPerSequence", in.target_weights,
              in.target_flops_per_token, in.kv_per_sequence);
         if (a.has("draft") && a.raw("draft").is(Value::Kind::string) && a.raw("draft").string() == "mtp") {
           // self-speculation: the target's own multi-token-prediction modules draft
           if (!a.has("model")) throw Error(ErrorCode::missing_field, "model", "model is required with draft 'mtp'");
           const ModelRef ref = model_ref(a, "model");
           if (!ref.architecture) {
             throw Error(ErrorCode::out_of_range, "draft", "draft 'mtp' needs a model with a config.json");
           }
           const MtpDraft d =
               mtp_draft(*ref.architecture, ref.format(a, "draftFormat"), in.batch, tokens, ref.kv_dtype(a));
           in.draft_weights = a.has("draftWeightBytes") ? Bytes{a.number("draftWeightBytes")} : d.weights_read;
           in.draft_flops_per_token =
               a.has("draftFlopsPerToken") ? Flops{a.number("draftFlopsPerToken")} : d.flops_per_token;
           in.draft_kv_per_sequence =
               a.has("draftKvBytesPerSequence") ? Bytes{a.number("draftKvBytesPerSequence")} : d.kv_per_sequence;
         } else {
           side("draft", "draftFormat", "draftWeightBytes", "draftFlopsPerToken", "draftKvBytesPerSequence",
                in.draft_weights, in.draft_flops_per_token, in.draft_kv_per_sequence);
         }
         in.gamma = a.number("gamma");
         if (a.has("model") && !a.has("weightBytes")) {
           // a verification's batch × (γ + 1) tokens: an MoE's touch more experts than a step's
           const ModelRef ref = model_ref(a, "model");
           in.verify_weights = ref.read_per_step(ref.format(a), in.batch * (in.gamma + 1));
         }
         in.acceptance = a.number("acceptance");
         in.device = Device{FlopsPerSecond{a.number("peakFlopsPerSecond")}, BytesPerSecond{a.number("bytesPerSecond")}};
         const Speculative s = speculative(in);
         return Value::object()
             .set("expectedTokens", s.expected_tokens)
             .set("draftSeconds", in.gamma * s.draft_step.lower_bound.value())
             .set("verifySeconds", s.verify.lower_bound.value())
             .set("verifyBound", std::string(bound_id(s.verify.bound)))
             .set("cycleSeconds", s.cycle.value())
             .set("tokensPerSecondPerSequence", s.tokens_per_second_per_sequence)
             .set("tokensPerSecond", s.tokens_per_second_per_sequence * in.batch)
             .set("plainStepSeconds", s.plain.lower_bound.value())
             .set("plainTokensPerSecondPerSequence", 1 / s.plain.lower_bound.value())
             .set("speedup", s.speedup)
             .set("breakEvenAcceptance", s.break_even_acceptance ? Value(*s.break_even_acceptance) : Value())
             .set("weightBytes", in.target_weights.value())
             .set("verifyWeightBytes", in.verify_weights.value_or(in.target_weights).value())
             .set("flopsPerToken", in.target_flops_per_token.value())
             .set("kvBytesPerSequence", in.kv_per_sequence.value())
             .set("draftWeightBytes", in.draft_weights.value())
             .set("draftFlopsPerToken", in.draft_flops_per_token.value())
             .set("draftKvBytesPerSequence", in.draft_kv_per_sequence.value());
       }},
      {"prefill",
       "",
       {{"params", Kind::count, ""},
        {"tokens", Kind::count, ""},
        {"weightBytes", Kind::positive, "bytes"},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS"},
        {"bytesPerSecond", Kind::positive, "bytes/s"},
        {"gpus", Kind::count, "", opt, "1"},
        {"layers", Kind::count, "", opt},
        {"hiddenSize", Kind::count, "", opt},
        {"link", Kind::link, "", opt},
        {"linkBytesPerSecond", Kind::positive, "bytes/s", opt},
        {"linkLatencySeconds", Kind::non_negative, "s", opt}},
       "PrefillResult",
       "computeSeconds: number; memorySeconds: number; "
       "/** The larger of the two, plus communicationSeconds. */ seconds: number; flopsPerByte: number; "
       "ridgeFlopsPerByte: number; bound: Bound; flops: number; "
       "/** Under tensor parallelism (gpus > 1) with a link, layers and hiddenSize: 2 × layers all-reduces of "
       "tokens × hiddenSize BF16 activations; 0 on one GPU; null otherwise. */ "
       "communicationSeconds: number | null",
       object,
       [](const Args& a) {
         PrefillInput in{};
         in.params = a.number("params");
         in.tokens = a.number("tokens");
         in.weights = Bytes{a.number("weightBytes")};
         in.device = device_arg(a);
         in.gpus = a.number_or("gpus", 1);
         const Prefill p = prefill(in);
         const std::optional<LinkFigures> link = link_arg(a, nullptr);
         std::optional<TensorParallel> tp = TensorParallel{};
         if (in.gpus > 1) {
           if (link && !(a.has("layers") && a.has("hiddenSize"))) {
             const char* missing = a.has("layers") ? "hiddenSize" : "layers";
             throw Error(ErrorCode::missing_field, missing,
                         std::string(missing) +
                             " is required with a link: the all-reduces are two per layer, of "
                             "tokens × hiddenSize activations");
           }
           tp = link ? communication(in.gpus, link, a.number("layers"), a.number("hiddenSize"), in.tokens, Dtype::bf16)
                     : std::nullopt;
         }
         Value v = clocks_value(p.clocks);
         v.set("flops", p.flops.value());
         if (tp) v.set("seconds", p.clocks.lower_bound.value() + tp->seconds.value());
         v.set("communicationSeconds", tp ? Value(tp->seconds.value()) : Value());
         return v;
       }},
      {"prefixCache",
       "Prefix caching: the prompt's first cachedShare of tokens already cached, the rest prefilled.",
       {{"params", Kind::count, ""},
        {"promptTokens", Kind::count, ""},
        {"cachedShare", Kind::fraction, ""},
        {"weightBytes", Kind::positive, "bytes"},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS"},
        {"bytesPerSecond", Kind::positive, "bytes/s"},
        {"gpus", Kind::count, "", opt, "1"},
        {"kvBytesPerToken", Kind::positive, "bytes", opt},
        {"hostBytesPerSecond", Kind::positive, "bytes/s", opt},
        {"overlap", Kind::flag, "", opt, "true"}},
       "PrefixCacheResult",
       "/** ⌊promptTokens × cachedShare⌋, at most all but one (one token always gives the first output). */ "
       "cachedTokens: number; uncachedTokens: number; "
       "/** The uncached tokens' prefill (the larger of its two clocks), and the host load: their larger "
       "(overlap) or their sum. */ timeToFirstTokenSeconds: number; "
       "/** The uncached tokens' clocks. */ computeSeconds: number; memorySeconds: number; bound: Bound; "
       "/** The whole prompt's prefill, without the cache. */ uncachedTimeToFirstTokenSeconds: number; "
       "/** The cached KV's load from host memory, one GPU's share over its link (0 without a host). */ "
       "loadSeconds: number",
       object,
       [](const Args& a) {
         PrefillInput in{};
         in.params = a.number("params");
         in.tokens = a.number("promptTokens");
         in.weights = Bytes{a.number("weightBytes")};
         in.device = device_arg(a);
         in.gpus = a.number_or("gpus", 1);
         HostLoad host{};
         if (a.has("kvBytesPerToken")) host.kv_bytes_per_token = Bytes{a.number("kvBytesPerToken")};
         if (a.has("hostBytesPerSecond")) host.bandwidth = BytesPerSecond{a.number("hostBytesPerSecond")};
         host.overlap = a.has("overlap") ? flag_arg(a, "overlap") : true;
         const PrefixCache c = prefix_cache(in, a.number("cachedShare"), host);
         return Value::object()
             .set("cachedTokens", c.cached_tokens)
             .set("uncachedTokens", c.uncached_tokens)
             .set("timeToFirstTokenSeconds", c.time_to_first_token.value())
             .set("computeSeconds", c.prefill.clocks.compute.value())
             .set("memorySeconds", c.prefill.clocks.memory.value())
             .set("bound", std::string(bound_id(c.prefill.clocks.bound)))
             .set("uncachedTimeToFirstTokenSeconds", c.without_cache.clocks.lower_bound.value())
             .set("loadSeconds", c.load.value());
       }},
  };
  return functions;
}

}  // namespace roofline::api::detail
