// Inside the API, for the serving levers: the link between GPUs a call names, the all-reduces it
// costs a step, and a prompt's causal attention from a model's shape.
#include "api_internal.hpp"

namespace roofline::api::detail {

std::optional<LinkFigures> link_arg(const Args& a, const Gpu* gpu) {
  // a link's figures (the one named, else the GPU's own), each replaced by a figure given
  std::optional<LinkFigures> link;
  if (a.has("link")) {
    const Link& l = find_link(a.text("link", ErrorCode::unknown_link, "a link id"), "link");
    link = LinkFigures{l.bandwidth, l.latency};
  } else if (gpu && gpu->link) {
    const Link& l = find_link(*gpu->link);
    link = LinkFigures{l.bandwidth, l.latency};
  }
  const bool bandwidth = a.has("linkBytesPerSecond"), latency = a.has("linkLatencySeconds");
  if (!link && bandwidth != latency) {
    const std::string missing = bandwidth ? "linkLatencySeconds" : "linkBytesPerSecond";
    const std::string given = bandwidth ? "linkBytesPerSecond" : "linkLatencySeconds";
    throw Error(ErrorCode::missing_field, missing,
                missing + " is required with " + given + " where no link is named: an all-reduce needs both");
  }
  if (!link && !bandwidth) return std::nullopt;
  LinkFigures out = link.value_or(LinkFigures{});
  if (bandwidth) out.bandwidth = BytesPerSecond{a.number("linkBytesPerSecond")};
  if (latency) out.latency = Seconds{a.number("linkLatencySeconds")};
  return out;
}

std::optional<TensorParallel> communication(double gpus, const std::optional<LinkFigures>& link, double layers,
                                            double hidden, double tokens, Dtype activation_dtype) {
  if (gpus == 1) return TensorParallel{};
  if (!link) return std::nullopt;
  return tensor_parallel({layers, hidden, tokens, activation_dtype, gpus, *link});
}

std::optional<CausalAttention> causal_attention_arg(const Args& a, const ModelRef** out_ref, ModelRef& holder) {
  if (!a.has("model")) return std::nullopt;
  holder = model_ref(a, "model");
  if (out_ref) *out_ref = &holder;
  if (!holder.architecture) {
    throw Error(ErrorCode::out_of_range, "model",
                "model has no architecture in the catalog to count its attention: choose a model with a config.json");
  }
  const Architecture& arch = *holder.architecture;
  const Attention& at = arch.attention;
  double sliding = 0;
  for (bool s : arch.sliding_layer) sliding += s ? 1 : 0;
  const double per_layer = 2 * at.heads * (at.head_dim + at.v_head_dim);  // q·k and the weighted v
  return CausalAttention{per_layer * (arch.layers - sliding), per_layer * sliding, at.sliding_window};
}

Value link_value(const Link& l) {
  return Value::object()
      .set("id", l.id)
      .set("name", l.name)
      .set("bytesPerSecond", l.bandwidth.value())
      .set("latencySeconds", l.latency.value())
      .set("source", l.source);
}

}  // namespace roofline::api::detail
