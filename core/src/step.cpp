#include "roofline/step.hpp"

#include <algorithm>
#include <cmath>

#include "roofline/error.hpp"

namespace roofline {

namespace {

/// Builds the operator list of one step.
class Builder {
 public:
  explicit Builder(const StepInput& in) : in_(in), a_(in.arch) {
    ops_.reserve(20);  // the most a step has: MLA, full and sliding attention, dense and MoE layers
    act_ = bytes_per_element(in.format.compute_dtype);
    kv_ = bytes_per_element(in.kv_dtype);
    tokens_ = in.phase == Phase::decode ? in.batch : in.batch * in.context;
  }

  [[nodiscard]] double tokens() const { return tokens_; }

  /// Weight bytes of n body parameters in the format (the quantized part).
  [[nodiscard]] double body(double n) const { return format_weight_bytes(n, 0, in_.format).value(); }
  /// Weight bytes of n parameters the format keeps in BF16 where it keeps a share (embeddings).
  [[nodiscard]] double kept(double n) const { return format_weight_bytes(0, n, in_.format).value(); }

  /// A matrix of `in_dim` × `out_dim` applied to every token of the step, in `count` layers.
  void matmul(std::string id, std::string group, double count, double in_dim, double out_dim, bool bias,
              double kv_write = 0) {
    StepOperator op{std::move(id), std::move(group), count};
    const double t = tokens_;
    op.flops = count * (2 * t * in_dim * out_dim + (bias ? t * out_dim : 0));
    op.weight_bytes = count * body(in_dim * out_dim + (bias ? out_dim : 0));
    op.activation_bytes = count * t * (in_dim + out_dim) * act_;
    op.kv_write_bytes = count * kv_write;
    ops_.push_back(std::move(op));
  }

  void push(StepOperator op) { ops_.push_back(std::move(op)); }

  /// Query-key pairs of one head in one layer over the step: decode b·c (c capped at the window),
  /// prefill b·L(L+1)/2 (each query's keys capped at the window).
  [[nodiscard]] double pairs(double window) const {
    const double b = in_.batch, c = in_.context;
    if (in_.phase == Phase::decode) return b * (window > 0 ? std::min(c, window) : c);
    if (window <= 0 || c <= window) return b * c * (c + 1) / 2;
    return b * (window * (window + 1) / 2 + (c - window) * window);
  }

  /// The KV a layer holds per token, split into its key part (read by the scores) and value part.
  void kv_parts(double& key, double& value) const {
    const Attention& at = a_.attention;
    if (at.kind == Attention::Kind::mla) {
      key = (at.kv_lora_rank + at.qk_rope_head_dim) * kv_;  // the compressed cache, read once
      value = 0;
    } else {
      key = at.kv_heads * at.head_dim * kv_;
      value = at.kv_heads * at.v_head_dim * kv_;
    }
  }

  /// Scores, softmax and values of the layers with one window (0: full attention).
  void attention(double layers, double window, const std::string& suffix) {
    if (layers <= 0) return;
    const Attention& at = a_.attention;
    const double p = pairs(window);
    const double qk = at.head_dim, v = at.v_head_dim, h = at.heads;
    double key = 0, value = 0;
    kv_parts(key, value);
    // the keys and values each sequence reads: its cached tokens (decode), or those it writes as
    // it goes (prefill: read back from the cache the projections just wrote)
    const double cached = in_.batch * (window > 0 ? std::min(in_.context, window) : in_.context);
    const double scores = h * p;  // score elements of the step, per layer
    const bool flash = in_.flash_attention;
    StepOperator s{"attn_scores" + suffix, "attention", layers};
    s.flops = layers * 2 * h * qk * p;
    s.kv_read_bytes = layers * cached * key;
    if (at.sinks) s.weight_bytes = layers * body(h);  // gpt-oss: one learned sink logit per head
    s.activation_bytes = layers * (tokens_ * h * qk * act_ + (flash ? 0 : scores * act_));
    ops_.push_back(s);
    StepOperator m{"attn_softmax" + suffix, "attention", layers};
    m.flops = layers * 3 * scores;
    m.activation_bytes = flash ? 0 : layers * 2 * scores * act_;
    ops_.push_back(m);
    StepOperator o{"attn_values" + suffix, "attention", layers};
    o.flops = layers * 2 * h * v * p;
    o.kv_read_bytes = layers * cached * value;
    o.activation_bytes = layers * (tokens_ * h * v * act_ + (flash ? 0 : scores * act_));
    ops_.push_back(o);
  }

  std::vector<StepOperator> take() { return std::move(ops_); }

  [[nodiscard]] double act() const { return act_; }
  [[nodiscard]] double kv() const { return kv_; }

 private:
  const StepInput& in_;
  const Architecture& a_;
  double act_ = 2, kv_ = 2, tokens_ = 1;
  std::vector<StepOperator> ops_;
};

double count_of(const std::vector<bool>& flags, bool value) {
  return static_cast<double>(std::count(flags.begin(), flags.end(), value));
}

}  // namespace

Step step(const StepInput& in) {
  require_count("batch", in.batch);
  require_count("gpus", in.gpus);
  require_count_or_zero("context", in.context);
  if (in.phase == Phase::prefill) require_count("context", in.context);
  if (in.arch.max_context > 0 && in.context > in.arch.max_context) {
    throw Error(ErrorCode::out_of_range, "context",
                "context must be at most the model's " + format_number(in.arch.max_context) + " tokens, got " +
                    format_number(in.context));
  }
  const Architecture& a = in.arch;
  const Attention& at = a.attention;
  const double h = a.hidden, L = a.layers;
  Builder b(in);
  const double t = b.tokens();
  const double last = in.batch;  // logits: each sequence's last token

  // the input table: one row per token (the output layer reads the whole table where tied)
  StepOperator emb{"embedding", "other", 1};
  emb.weight_bytes = a.tied_embeddings ? 0 : b.kept(std::min(t, a.vocab) * h);
  emb.activation_bytes = t * h * b.act();
  b.push(emb);

  // attention projections, writing the new tokens' keys and values
  double key = 0, value = 0;
  b.kv_parts(key, value);
  if (at.kind == Attention::Kind::mla) {
    const double qk = at.qk_nope_head_dim + at.qk_rope_head_dim;
    if (at.q_lora_rank > 0) {
      b.matmul("q_a_proj", "attention", L, h, at.q_lora_rank, false);
      b.matmul("q_b_proj", "attention", L, at.q_lora_rank, at.heads * qk, false);
    } else {
      b.matmul("q_proj", "attention", L, h, at.heads * qk, false);
    }
    b.matmul("kv_a_proj", "attention", L, h, at.kv_lora_rank + at.qk_rope_head_dim, false, t * key);
    b.matmul("kv_b_proj", "attention", L, at.kv_lora_rank, at.heads * (at.qk_nope_head_dim + at.v_head_dim), false);
  } else {
    b.matmul("q_proj", "attention", L, h, at.heads * at.head_dim, at.qkv_bias);
    b.matmul("k_proj", "attention", L, h, at.kv_heads * at.head_dim, at.qkv_bias, t * key);
    b.matmul("v_proj", "attention", L, h, at.kv_heads * at.v_head_dim, at.qkv_bias, t * value);
  }
  const double sliding = count_of(a.sliding_layer, true);
  b.attention(L - sliding, 0, "");
  b.attention(sliding, at.sliding_window, ":sliding");
  b.matmul("o_proj", "attention", L, at.heads * at.v_head_dim, h, at.o_bias);

  // the MLP: dense layers, and the MoE layers' router, experts and shared experts
  const double moe_layers = a.moe ? count_of(a.moe_layer, true) : 0;
  const double dense = L - moe_layers;
  if (dense > 0) {
    b.matmul("gate_proj", "mlp", dense, h, a.intermediate, a.mlp_bias);
    b.matmul("up_proj", "mlp", dense, h, a.intermediate, a.mlp_bias);
    b.matmul("down_proj", "mlp", dense, a.intermediate, h, a.mlp_bias);
  }
  if (a.moe && moe_layers > 0) {
    const MixtureOfExperts& m = *a.moe;
    b.matmul("router", "mlp", moe_layers, h, m.experts, m.router_bias);
    const double ei = m.expert_intermediate;
    const double per_expert = 3 * h * ei + (m.expert_bias ? 2 * ei + h : 0);
    StepOperator ex{"experts", "mlp", moe_layers};
    const double routed = t * m.experts_per_token;  // token-expert pairs per layer
    ex.flops = moe_layers * (2 * routed * 3 * h * ei + (m.expert_bias ? routed * (2 * ei + h) : 0));
    ex.weight_bytes = moe_layers * b.body(experts_touched(m, t) * per_expert);
    ex.activation_bytes = moe_layers * routed * (2 * h + 2 * ei) * b.act();
    b.push(ex);
    if (m.shared_experts > 0) {
      const double si = m.shared_intermediate;
      StepOperator sh{"shared_experts", "mlp", moe_layers};
      sh.flops = moe_layers * 2 * t * m.shared_experts * 3 * h * si;
      sh.weight_bytes = moe_layers * b.body(m.shared_experts * 3 * h * si);
      sh.activation_bytes = moe_layers * t * m.shared_experts * (2 * h + 2 * si) * b.act();
      b.push(sh);
    }
  }

  // norms (RMSNorm vectors of hidden, q/k norms of head_dim, MLA's latent norms) and the output layer
  StepOperator norm{"norm", "other", L * a.norms_per_layer + 1};
  double norm_params = (L * a.norms_per_layer + 1) * h;
  double norm_elements = t * (L * a.norms_per_layer) * h + last * h;
  if (at.qk_norm) norm_params += L * 2 * at.head_dim, norm_elements += L * t * (at.heads + at.kv_heads) * at.head_dim;
  if (at.kind == Attention::Kind::mla) {
    norm_params += L * (at.kv_lora_rank + at.q_lora_rank);
    norm_elements += L * t * (at.kv_lora_rank + at.q_lora_rank);
  }
  norm.flops = 4 * norm_elements;
  norm.weight_bytes = b.body(norm_params);
  norm.activation_bytes = 2 * norm_elements * b.act();
  b.push(norm);
  StepOperator head{"lm_head", "other", 1};
  head.flops = 2 * last * h * a.vocab;
  head.weight_bytes = b.kept(a.vocab * h);
  head.activation_bytes = last * (h + a.vocab) * b.act();
  b.push(head);

  Step s;
  s.tokens = t;
  s.operators = b.take();
  if (in.gpus > 1) {
    for (StepOperator& op : s.operators) {
      if (op.id == "norm") continue;
      for (double* x : {&op.flops, &op.weight_bytes, &op.kv_read_bytes, &op.kv_write_bytes, &op.activation_bytes}) {
        *x /= in.gpus;
      }
    }
  }
  std::optional<TensorParallel> tp;
  if (in.gpus > 1 && in.link) {
    tp = tensor_parallel({L, h, t, in.format.compute_dtype, in.gpus, *in.link});
    StepOperator ar{"allreduce", "communication", tp->all_reduces};
    ar.flops = tp->all_reduces * (in.gpus - 1) / in.gpus * t * h;  // each GPU's share of the sums
    ar.link_bytes = tp->all_reduces * tp->each.sent_per_gpu.value();
    s.operators.push_back(std::move(ar));
  }
  s.times.reserve(s.operators.size());
  const double peak = in.device.peak.value(), bw = in.device.bandwidth.value();
  double attention = 0;
  for (const StepOperator& op : s.operators) {
    StepOperatorTime time;
    const double bytes = op.bytes();
    time.flops_per_byte = bytes > 0 ? op.flops / bytes : 0;
    const double compute = op.flops / peak, memory = bytes / bw;
    time.seconds = std::max(compute, memory);
    time.bound = compute >= memory && op.flops > 0 ? Bound::compute : Bound::memory;
    if (op.group == "communication") {
      time.on_link = true;
      time.seconds = tp->seconds.value();
      s.link_bytes += op.link_bytes;
    }
    s.times.push_back(time);
    s.flops += op.flops;
    s.bytes += bytes;
    s.weight_bytes += op.weight_bytes;
    s.kv_read_bytes += op.kv_read_bytes;
    s.kv_write_bytes += op.kv_write_bytes;
    s.activation_bytes += op.activation_bytes;
    s.seconds += time.seconds;
    if (op.group == "attention" && op.id.rfind("attn_", 0) == 0) attention += time.seconds;
  }
  for (StepOperatorTime& time : s.times) time.share = time.seconds / s.seconds;
  const double compute = s.flops / peak, memory = s.bytes / bw;
  s.communication_seconds = in.gpus == 1 ? std::optional(0.0) : tp ? std::optional(tp->seconds.value()) : std::nullopt;
  s.roofline_seconds = std::max(compute, memory) + s.communication_seconds.value_or(0);
  s.roofline_bound = compute >= memory ? Bound::compute : Bound::memory;
  s.attention_share = attention / s.seconds;
  require_result("flops", s.flops);
  require_result("bytes", s.bytes);
  return s;
}

}  // namespace roofline
