// The serving levers' exercises (issue 44): speculative decoding's speed-up (11) and the
// all-reduces of a tensor-parallel decode step (12), answered by speculative(), tensor_parallel()
// and decode(), the functions the calculators use. The others are in exercises.cpp.
#include <algorithm>
#include <cmath>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "exercise_draw.hpp"
#include "exercise_parts.hpp"
#include "roofline/architecture.hpp"
#include "roofline/exercises.hpp"
#include "roofline/llm.hpp"
#include "roofline/parallel.hpp"
#include "roofline/precision.hpp"
#include "roofline/speculative.hpp"

namespace roofline::exercise_parts {

namespace {

using exercise_draw::Draw;

/// What one decode step of `m` in format `f` reads of its weights, what it holds, and its FLOPs
/// per token: the lesson's figures for its own models, else counted from the architecture (as
/// the decode and speculative calculators count them).
struct Served {
  Bytes holds;
  Bytes reads;
  Flops per_token;
};

Served served(const Model& m, const WeightFormat& f, double batch) {
  if (m.lesson_figures || !m.architecture) {
    const Bytes b = model_weights(m, f).bytes;
    return {b, b, flops_per_token(m.params)};
  }
  const Architecture& a = *m.architecture;
  return {architecture_weights(a, f).bytes, weights_read_per_step(a, f, batch),
          flops_per_token(param_counts(a).active)};
}

/// A target and the draft that proposes its tokens, each in its format: one family, one tokenizer.
struct Pair {
  std::string_view target, target_format, draft, draft_format;
};

}  // namespace

// 11. Speculative decoding on one GPU: tokens a verification yields, the time of a cycle, and the
// speed-up over plain decode once the draft's steps are paid for.
ExerciseInstance speculative_exercise(std::uint64_t seed) {
  Pair pair{"llama3-8b", "bf16", "llama3.2-1b", "bf16"};
  const Gpu* g = &find_gpu("l4");
  double acceptance = 0.8, gamma = 2;
  if (seed != 0) {
    Draw d(seed, 11);
    acceptance = d.pick<double>({0.6, 0.7, 0.8, 0.9});
    gamma = d.pick<double>({2, 3, 4, 5});
    // the pairs, and the lesson's GPUs that hold both models and compute in the target's format
    static constexpr Pair pairs[] = {{"llama3-8b", "bf16", "llama3.2-1b", "bf16"},
                                     {"llama3.1-8b", "bf16", "llama3.2-1b", "bf16"},
                                     {"llama3.1-8b", "bf16", "llama3.2-3b", "bf16"},
                                     {"llama3.1-70b", "fp8", "llama3.2-1b", "bf16"}};
    std::vector<std::pair<Pair, const Gpu*>> fits;
    for (const Pair& p : pairs) {
      const Bytes both = served(find_model(p.target), find_format(p.target_format), 1).holds +
                         served(find_model(p.draft), find_format(p.draft_format), 1).holds;
      for (const Gpu* x : exercise_draw::gpus_with(find_format(p.target_format).compute_dtype)) {
        if (both < usable_memory(*x)) fits.emplace_back(p, x);
      }
    }
    std::tie(pair, g) = d.pick(fits);
  }
  const Model& target = find_model(pair.target);
  const Model& draft = find_model(pair.draft);
  const WeightFormat& tf = find_format(pair.target_format);
  const Served t = served(target, tf, 1), dr = served(draft, find_format(pair.draft_format), 1);
  SpeculativeInput in{};
  in.target_weights = t.reads;
  in.target_flops_per_token = t.per_token;
  in.draft_weights = dr.reads;
  in.draft_flops_per_token = dr.per_token;
  in.gamma = gamma;
  in.acceptance = acceptance;
  in.device = device_for(*g, tf.compute_dtype);
  const Speculative s = speculative(in);
  const double draft_step = s.draft_step.lower_bound.value(), verify = s.verify.lower_bound.value();
  const double plain = s.plain.lower_bound.value();
  ExerciseInstance e;
  e.inputs = {named_id("target", target.id),
              named_id("targetFormat", tf.id),
              num("targetBytes", t.reads.value()),
              named_id("draft", draft.id),
              named_id("draftFormat", pair.draft_format),
              num("draftBytes", dr.reads.value()),
              named_id("gpu", g->id),
              num("bytesPerSecond", in.device.bandwidth.value()),
              num("acceptance", acceptance),
              num("gamma", gamma)};
  ExercisePart tokens = number("expectedTokens", "tokens", s.expected_tokens);
  // "at most γ": the draft's tokens capped at γ, with no bonus token (2.00 at α 0.8, γ 2)
  with(tokens, "capped_gamma", std::min(gamma, 1 / (1 - acceptance)));
  // the accepted draft tokens alone, α(1 − α^γ) ÷ (1 − α): the bonus token forgotten
  with(tokens, "no_bonus_token", s.expected_tokens - 1);
  ExercisePart cycle = number("cycleSeconds", "seconds", s.cycle.value());
  with(cycle, "one_draft_step", draft_step + verify);
  ExercisePart speedup = number("speedup", "ratio", s.speedup);
  // the draft taken as free: expected tokens × plain step ÷ verification
  with(speedup, "draft_free", s.expected_tokens * plain / verify);
  e.parts = {tokens, cycle, speedup};
  e.solution = {num("alphaPower", std::pow(acceptance, gamma + 1)),
                num("expectedTokens", s.expected_tokens),
                num("acceptedTokens", s.expected_tokens - 1),
                num("cappedTokens", std::min(gamma, 1 / (1 - acceptance))),
                num("draftSeconds", draft_step),
                num("draftStepsSeconds", gamma * draft_step),
                num("verifySeconds", verify),
                num("plainSeconds", plain),
                num("cycleSeconds", s.cycle.value()),
                num("tokensPerSecond", s.tokens_per_second_per_sequence),
                num("plainTokensPerSecond", 1 / plain),
                num("speedup", s.speedup),
                num("freeDraftSpeedup", s.expected_tokens * plain / verify),
                num("breakEven", s.break_even_acceptance.value_or(1))};
  return e;
}

// 12. A model over GPUs in tensor parallel: the all-reduces of a decode step, their time on the
// GPUs' link, the weight reads beside them, and the tokens per second of the whole step.
ExerciseInstance tensor_parallel_exercise(std::uint64_t seed) {
  const Model& m = find_model("llama3.1-70b");
  const WeightFormat& f = find_format("bf16");
  const Gpu* g = &find_gpu("h100-sxm");
  double gpus_n = 8, batch = 1;
  if (seed != 0) {
    Draw d(seed, 12);
    batch = d.pick<double>({1, 8, 32});
    // the lesson's GPUs with a link and BF16 that hold the weights, at each size of the group
    const Bytes holds = served(m, f, batch).holds;
    std::vector<std::pair<const Gpu*, double>> fits;
    for (const Gpu* x : exercise_draw::gpus_with(f.compute_dtype)) {
      for (const double n : {2.0, 4.0, 8.0}) {
        if (x->link && holds.value() / n < usable_memory(*x).value()) fits.emplace_back(x, n);
      }
    }
    std::tie(g, gpus_n) = d.pick(fits);
  }
  const Architecture& a = *m.architecture;
  const Served w = served(m, f, batch);
  const Link& link = find_link(*g->link);
  const LinkFigures figures{link.bandwidth, link.latency};
  const TensorParallel tp = tensor_parallel({a.layers, a.hidden, batch, f.compute_dtype, gpus_n, figures});
  const Device dev = device_for(*g, f.compute_dtype);
  DecodeInput in{};
  in.weights = w.holds;
  in.weights_read = w.reads;
  in.kv_cache_per_sequence = Bytes{0};
  in.batch = batch;
  in.bandwidth = dev.bandwidth;
  in.gpus = gpus_n;
  in.flops_per_token = w.per_token;
  in.peak = dev.peak;
  in.communication = tp.seconds;
  const DecodeStep step = decode(in);
  const double message = bytes_of(batch * a.hidden, f.compute_dtype).value();
  const double bandwidth_only = tp.all_reduces * tp.each.sent_per_gpu.value() / link.bandwidth.value();
  const double latency_only = tp.all_reduces * link.latency.value();
  const double floors = step.step.value() - tp.seconds.value();
  ExerciseInstance e;
  e.inputs = {named_id("model", m.id),
              named_id("format", f.id),
              num("layers", a.layers),
              num("hidden", a.hidden),
              named_id("gpu", g->id),
              num("gpus", gpus_n),
              num("batch", batch),
              named_id("link", link.id),
              num("linkBytesPerSecond", link.bandwidth.value()),
              num("linkLatencySeconds", link.latency.value()),
              num("bytesPerSecond", dev.bandwidth.value()),
              num("weightBytes", w.reads.value())};
  ExercisePart count = exact("allReduces", "count", tp.all_reduces);
  with(count, "one_per_layer", a.layers);
  ExercisePart comm = number("communicationSeconds", "seconds", tp.seconds.value());
  with(comm, "bandwidth_only", bandwidth_only);
  with(comm, "latency_only", latency_only);
  ExercisePart weights = number("weightSeconds", "seconds", step.memory.value());
  with(weights, "not_split", step.memory.value() * gpus_n);
  ExercisePart tokens = number("tokensPerSecond", "tokensPerSecond", step.tokens_per_second);
  with(tokens, "no_communication", batch / floors);
  e.parts = {count, comm, weights, tokens};
  e.solution = {num("allReduces", tp.all_reduces),
                num("messageBytes", message),
                num("ringShare", 2 * (gpus_n - 1) / gpus_n),
                num("sentPerGpu", tp.each.sent_per_gpu.value()),
                num("bytesSeconds", tp.each.sent_per_gpu.value() / link.bandwidth.value()),
                num("eachSeconds", tp.each.seconds.value()),
                num("communicationSeconds", tp.seconds.value()),
                num("bandwidthOnly", bandwidth_only),
                num("latencyOnly", latency_only),
                num("bytesPerGpu", step.bytes_per_step.value()),
                num("weightSeconds", step.memory.value()),
                num("computeSeconds", step.compute ? step.compute->value() : 0),
                num("floorSeconds", floors),
                num("stepSeconds", step.step.value()),
                num("tokensPerSecond", step.tokens_per_second),
                num("noCommunicationTokens", batch / floors),
                num("communicationShare", tp.seconds.value() / step.step.value())};
  return e;
}

}  // namespace roofline::exercise_parts
