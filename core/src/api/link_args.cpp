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
  if (!link || !(layers > 0 && hidden > 0)) return std::nullopt;
  return tensor_parallel({layers, hidden, tokens, activation_dtype, gpus, *link});
}

CausalAttention model_attention(const ModelRef& r) {
  if (!r.architecture) {
    throw Error(ErrorCode::out_of_range, "model",
                "model has no architecture in the catalog to count its attention: choose a model with a config.json");
  }
  return causal_attention(*r.architecture);
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
