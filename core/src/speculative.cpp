#include "roofline/speculative.hpp"

#include <cmath>

#include "roofline/error.hpp"

namespace roofline {

double expected_tokens(double acceptance, double gamma) {
  if (acceptance >= 1) return gamma + 1;
  return (1 - std::pow(acceptance, gamma + 1)) / (1 - acceptance);
}

Speculative speculative(const SpeculativeInput& in) {
  require_positive("weightBytes", in.target_weights.value());
  require_positive("flopsPerToken", in.target_flops_per_token.value());
  require_positive("draftWeightBytes", in.draft_weights.value());
  require_positive("draftFlopsPerToken", in.draft_flops_per_token.value());
  require_non_negative("kvBytesPerSequence", in.kv_per_sequence.value());
  require_non_negative("draftKvBytesPerSequence", in.draft_kv_per_sequence.value());
  require_count("batch", in.batch);
  require_count("gamma", in.gamma);
  require_fraction("acceptance", in.acceptance);
  if (in.gamma > 64) {
    throw Error(ErrorCode::out_of_range, "gamma",
                "gamma must be at most 64 draft tokens per verification, got " + format_number(in.gamma));
  }
  const double b = in.batch;
  Speculative s{};
  s.expected_tokens = expected_tokens(in.acceptance, in.gamma);
  s.draft_step = clocks(in.draft_flops_per_token * b, in.draft_weights + in.draft_kv_per_sequence * b, in.device);
  s.verify = clocks(in.target_flops_per_token * (b * (in.gamma + 1)),
                    in.verify_weights.value_or(in.target_weights) + in.kv_per_sequence * b, in.device);
  s.plain = clocks(in.target_flops_per_token * b, in.target_weights + in.kv_per_sequence * b, in.device);
  s.cycle = Seconds{
      require_result("cycleSeconds", in.gamma * s.draft_step.lower_bound.value() + s.verify.lower_bound.value())};
  s.tokens_per_second_per_sequence = require_result("tokensPerSecondPerSequence", s.expected_tokens / s.cycle.value());
  s.speedup = require_result("speedup", s.expected_tokens * s.plain.lower_bound.value() / s.cycle.value());
  // speedup = E(α) × plain ÷ cycle, and only E depends on α, rising from 1 to γ + 1: it breaks
  // even where E(α) = cycle ÷ plain
  const double needed = s.cycle.value() / s.plain.lower_bound.value();
  if (needed <= in.gamma + 1) {
    double lo = 0, hi = 1;
    for (int i = 0; i < 60; ++i) {
      const double mid = (lo + hi) / 2;
      (expected_tokens(mid, in.gamma) < needed ? lo : hi) = mid;
    }
    s.break_even_acceptance = hi;
  }
  return s;
}

}  // namespace roofline
