// The API table, the serving levers: a prompt's prefill, prefix caching and speculative decoding
// (docs/api.md).
#include "api_internal.hpp"

namespace roofline::api::detail {

std::span<const Function> serving_functions() {
  static constexpr Function functions[] = {
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
         const auto side = [&](const std::optional<ModelRef>& model, const char* model_key, const char* format_key,
                               const char* bytes_key, const char* flops_key, const char* kv_key, Bytes& bytes,
                               Flops& flops, Bytes& kv) {
           if (model) {
             const ModelRef& ref = *model;
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
         // the target read once: its costs, its own draft modules, what a verification reads
         const std::optional<ModelRef> target =
             a.has("model") ? std::optional(model_ref(a, "model")) : std::optional<ModelRef>();
         side(target, "model", "format", "weightBytes", "flopsPerToken", "kvBytesPerSequence", in.target_weights,
              in.target_flops_per_token, in.kv_per_sequence);
         if (a.has("draft") && a.raw("draft").is(Value::Kind::string) && a.raw("draft").string() == "mtp") {
           // self-speculation: the target's own multi-token-prediction modules draft
           if (!target) throw Error(ErrorCode::missing_field, "model", "model is required with draft 'mtp'");
           const ModelRef& ref = *target;
           if (!ref.architecture) {
             throw Error(ErrorCode::out_of_range, "draft", "draft 'mtp' needs a model with a config.json");
           }
           const MtpDraft d =
               mtp_draft(*ref.architecture, ref.format(a, a.has("draftFormat") ? "draftFormat" : "format"), in.batch,
                         tokens, ref.kv_dtype(a));
           in.draft_weights = a.has("draftWeightBytes") ? Bytes{a.number("draftWeightBytes")} : d.weights_read;
           in.draft_flops_per_token =
               a.has("draftFlopsPerToken") ? Flops{a.number("draftFlopsPerToken")} : d.flops_per_token;
           in.draft_kv_per_sequence =
               a.has("draftKvBytesPerSequence") ? Bytes{a.number("draftKvBytesPerSequence")} : d.kv_per_sequence;
         } else {
           side(a.has("draft") ? std::optional(model_ref(a, "draft")) : std::optional<ModelRef>(), "draft",
                "draftFormat", "draftWeightBytes", "draftFlopsPerToken", "draftKvBytesPerSequence", in.draft_weights,
                in.draft_flops_per_token, in.draft_kv_per_sequence);
         }
         in.gamma = a.number("gamma");
         if (target && !a.has("weightBytes")) {
           // a verification's batch × (γ + 1) tokens: an MoE's touch more experts than a step's
           in.verify_weights = target->read_per_step(target->format(a), in.batch * (in.gamma + 1));
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
        {"model", Kind::model_ref, "", opt},
        {"layers", Kind::count, "", opt},
        {"hiddenSize", Kind::count, "", opt},
        {"link", Kind::link, "", opt},
        {"linkBytesPerSecond", Kind::positive, "bytes/s", opt},
        {"linkLatencySeconds", Kind::non_negative, "s", opt}},
       "PrefillResult",
       "computeSeconds: number; memorySeconds: number; "
       "/** The larger of the two, plus communicationSeconds. */ seconds: number; flopsPerByte: number; "
       "ridgeFlopsPerByte: number; bound: Bound; "
       "/** 2 × params × tokens, plus attentionFlops. */ flops: number; "
       "/** With a model: causal attention, each token attending to itself and every earlier one (a sliding layer "
       "to its window), 2·heads·(qk dim + v dim) FLOPs a pair and layer; 0 without. */ attentionFlops: number; "
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
         const std::optional<ModelRef> ref = a.has("model") ? std::optional(model_ref(a, "model")) : std::nullopt;
         if (ref) in.attention = model_attention(*ref);
         const Prefill p = prefill(in);
         const std::optional<LinkFigures> link = link_arg(a, nullptr);
         // the all-reduces' shape: given, else the model's
         const double layers = a.has("layers") ? a.number("layers") : ref ? ref->architecture->layers : 0;
         const double hidden = a.has("hiddenSize") ? a.number("hiddenSize") : ref ? ref->architecture->hidden : 0;
         if (in.gpus > 1 && link && !(layers > 0 && hidden > 0)) {
           const char* missing = a.has("layers") ? "hiddenSize" : "layers";
           throw Error(ErrorCode::missing_field, missing,
                       std::string(missing) +
                           " is required with a link: the all-reduces are two per layer, of "
                           "tokens × hiddenSize activations");
         }
         const std::optional<TensorParallel> tp = communication(in.gpus, link, layers, hidden, in.tokens, Dtype::bf16);
         Value v = clocks_value(p.clocks);
         v.set("flops", p.flops.value());
         v.set("attentionFlops", p.attention_flops.value());
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
        {"overlap", Kind::flag, "", opt, "true"},
        {"model", Kind::model_ref, "", opt}},
       "PrefixCacheResult",
       "/** ⌊promptTokens × cachedShare⌋, at most all but one (one token always gives the first output). */ "
       "cachedTokens: number; uncachedTokens: number; "
       "/** The uncached tokens' prefill (the larger of its two clocks), and the host load: their larger "
       "(overlap) or their sum. */ timeToFirstTokenSeconds: number; "
       "/** The uncached tokens' clocks. */ computeSeconds: number; memorySeconds: number; bound: Bound; "
       "/** The whole prompt's prefill, without the cache. */ uncachedTimeToFirstTokenSeconds: number; "
       "/** The cached KV's load from host memory, one GPU's share over its link (0 without a host). */ "
       "loadSeconds: number; "
       "/** With a model: the uncached tokens' causal attention, to the cached prefix and among themselves. */ "
       "attentionFlops: number",
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
         if (a.has("model")) in.attention = model_attention(model_ref(a, "model"));
         const PrefixCache c = prefix_cache(in, a.number("cachedShare"), host);
         return Value::object()
             .set("cachedTokens", c.cached_tokens)
             .set("uncachedTokens", c.uncached_tokens)
             .set("timeToFirstTokenSeconds", c.time_to_first_token.value())
             .set("computeSeconds", c.prefill.clocks.compute.value())
             .set("memorySeconds", c.prefill.clocks.memory.value())
             .set("bound", std::string(bound_id(c.prefill.clocks.bound)))
             .set("uncachedTimeToFirstTokenSeconds", c.without_cache.clocks.lower_bound.value())
             .set("loadSeconds", c.load.value())
             .set("attentionFlops", c.prefill.attention_flops.value());
       }},
  };
  return functions;
}

}  // namespace roofline::api::detail
