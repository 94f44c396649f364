// Speculative decoding on the roofline (the lesson's third decode remedy): a small draft model
// proposes γ tokens one step at a time, and the target model verifies all of them in one read of
// its weights, keeping the ones it agrees with and adding one of its own.
//
//   expected_tokens(0.8, 2);   // 2.44 tokens per verification: (1 − 0.8³) ÷ (1 − 0.8)
#pragma once

#include <optional>

#include "roofline/roofline.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// Tokens a verification yields on average when each draft token is accepted with probability α
/// (independently) and the target adds one token of its own (the bonus token, Leviathan et al.
/// 2023): (1 − α^(γ+1)) ÷ (1 − α); γ + 1 at α = 1, 1 at α = 0.
double expected_tokens(double acceptance, double gamma);

struct SpeculativeInput {
  Bytes target_weights;  ///< what a step of the target reads of its weights
  /// What a verification reads of them, where more than a step: an MoE's batch × (γ + 1) tokens
  /// touch more experts than batch tokens do. None: target_weights.
  std::optional<Bytes> verify_weights = std::nullopt;
  Flops target_flops_per_token;  ///< the target's FLOPs per token (2 × its parameters)
  Bytes draft_weights;           ///< the same for the draft model
  Flops draft_flops_per_token;
  Bytes kv_per_sequence{0};        ///< the target's KV cache read per sequence and step
  Bytes draft_kv_per_sequence{0};  ///< the draft's
  double batch = 1;                ///< sequences decoded together
  double gamma = 1;                ///< draft tokens per verification (γ)
  double acceptance = 0;           ///< the chance a draft token is accepted (α), 0 … 1
  Device device;                   ///< one GPU's peak and bandwidth (both models on it)
};

struct Speculative {
  double expected_tokens;                 ///< per sequence and verification, the bonus token included
  Clocks draft_step;                      ///< one draft step: its weights and KV once, batch tokens
  Clocks verify;                          ///< the target's weights and KV once, batch × (γ + 1) tokens
  Seconds cycle;                          ///< γ draft steps and one verification
  double tokens_per_second_per_sequence;  ///< expected_tokens ÷ cycle
  Clocks plain;                           ///< one plain decode step of the target, batch tokens
  double speedup;                         ///< over plain decode: tokens per second, one ÷ the other
  /// The α at which speculation breaks even (speedup 1) for this γ and these costs; none where
  /// even α = 1 does not pay for the draft steps and the wider verification.
  std::optional<double> break_even_acceptance;
};

/// Both models' floors come from the same roofline as decode: a verification reads the target's
/// weights once for γ + 1 positions of every sequence, so a large batch with a long γ can turn it
/// compute-bound, and then the gain shrinks.
Speculative speculative(const SpeculativeInput& in);

}  // namespace roofline
