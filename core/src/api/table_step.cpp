// The API table, one decode step, operator by operator (docs/api.md).
#include "api_internal.hpp"

namespace roofline::api::detail {

std::span<const Function> step_functions() {
  static constexpr Function functions[] = {
      {"step",
       "One prefill or decode step operator by operator (docs/api.md, step): each operator's FLOPs, bytes and floor on "
       "the GPU at dtype; totals add the operators' floors (they run one after another) beside the whole step as one "
       "kernel. On gpus > 1 each GPU's share, and the all-reduces on the link (the GPU's own where no link is given).",
       {{"model", Kind::model_ref, ""},
        {"format", Kind::format, "", opt},
        {"kvDtype", Kind::dtype, "", opt, "'bf16'"},
        {"gpu", Kind::gpu, ""},
        {"dtype", Kind::dtype, "", opt},
        {"phase", Kind::phase, ""},
        {"batch", Kind::count, ""},
        {"context", Kind::count_or_zero, ""},
        {"flashAttention", Kind::flag, "", opt, "true"},
        {"gpus", Kind::count, "", opt, "1"},
        {"link", Kind::link, "", opt},
        {"linkBytesPerSecond", Kind::positive, "bytes/s", opt},
        {"linkLatencySeconds", Kind::non_negative, "s", opt}},
       "StepResult",
       "operators: StepOperator[]; totals: StepTotals",
       object,
       [](const Args& a) {
         const ModelRef r = model_ref(a, "model");
         if (!r.architecture) {
           throw Error(
               ErrorCode::out_of_range, "model",
               "model has no architecture in the catalog (the lesson gives only its parameter count): choose a model "
               "with a config.json");
         }
         const WeightFormat& f = r.format(a);
         const Gpu& g = gpu_arg(a, "gpu");
         const Dtype d = a.dtype_or("dtype", f.compute_dtype);
         const StepInput in{*r.architecture,
                            f,
                            a.dtype_or("kvDtype", Dtype::bf16),
                            device_for(g, d),
                            phase_arg(a, "phase"),
                            a.number("batch"),
                            a.number("context"),
                            a.has("flashAttention") ? flag_arg(a, "flashAttention") : true,
                            a.number_or("gpus", 1),
                            link_arg(a, &g)};
         return step_value(step(in));
       }},
  };
  return functions;
}

}  // namespace roofline::api::detail
