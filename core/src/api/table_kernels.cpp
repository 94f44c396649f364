// The API table, tiles, convolutions, fusion, precision and training (docs/api.md).
#include "api_internal.hpp"

namespace roofline::api::detail {

std::span<const Function> kernels_functions() {
  static constexpr Function functions[] = {
      {"tile",
       "",
       {{"rows", Kind::count, ""}, {"cols", Kind::count, ""}, {"dtype", Kind::dtype, ""}},
       "TileResult",
       "flopsPerByte: number",
       object,
       [](const Args& a) {
         const double rows = a.number("rows"), cols = a.number("cols");
         return Value::object().set("flopsPerByte", tile_intensity(rows, cols, a.dtype("dtype")).value());
       }},
      {"resolutionScale",
       "A square image resized: a CNN's FLOPs scale with its area (M08: (160 ÷ 224)² ≈ 51 %).",
       {{"fromSide", Kind::count, "pixels"}, {"toSide", Kind::count, "pixels"}},
       "ResolutionScaleResult",
       "fromPixels: number; toPixels: number; flopsFraction: number",
       object,
       [](const Args& a) {
         const ResolutionScale r = resolution_scale(a.number("fromSide"), a.number("toSide"));
         return Value::object()
             .set("fromPixels", r.from_pixels)
             .set("toPixels", r.to_pixels)
             .set("flopsFraction", r.flops_fraction);
       }},
      {"convAsMatmul",
       "",
       {{"inputHeight", Kind::count, ""},
        {"inputWidth", Kind::count, ""},
        {"inChannels", Kind::count, ""},
        {"kernelHeight", Kind::count, ""},
        {"kernelWidth", Kind::count, ""},
        {"filters", Kind::count, ""},
        {"stride", Kind::count, "", opt, "1"},
        {"padding", Kind::count_or_zero, "", opt, "0"}},
       "ConvResult",
       "/** The input tensor: channels × height × width (3 × 224 × 224 = 150,528). */ "
       "inputElements: number; outputHeight: number; outputWidth: number; rows: number; inner: number; cols: number; "
       "windowElements: number; weights: number; macs: number; flops: number",
       object,
       [](const Args& a) {
         ConvInput in{};
         in.input_height = a.number("inputHeight");
         in.input_width = a.number("inputWidth");
         in.in_channels = a.number("inChannels");
         in.kernel_height = a.number("kernelHeight");
         in.kernel_width = a.number("kernelWidth");
         in.filters = a.number("filters");
         in.stride = a.number_or("stride", 1);
         in.padding = a.number_or("padding", 0);
         const ConvAsMatmul c = conv_as_matmul(in);
         return Value::object()
             .set("inputElements", c.input_elements)
             .set("outputHeight", c.output_height)
             .set("outputWidth", c.output_width)
             .set("rows", c.rows)
             .set("inner", c.inner)
             .set("cols", c.cols)
             .set("windowElements", c.window_elements)
             .set("weights", c.weights)
             .set("macs", c.macs.value())
             .set("flops", to_flops(c.macs).value());
       }},
      {"elementwise",
       "",
       {{"elements", Kind::count, ""},
        {"dtype", Kind::dtype, ""},
        {"flopsPerElement", Kind::positive, "FLOPs", opt, "1"}},
       "ElementwiseResult",
       "flops: number; bytes: number; flopsPerByte: number",
       object,
       [](const Args& a) {
         const double elements = a.number("elements");
         const Dtype dtype = a.dtype("dtype");
         const Elementwise e = elementwise(elements, dtype, a.number_or("flopsPerElement", 1));
         return Value::object()
             .set("flops", e.flops.value())
             .set("bytes", e.bytes.value())
             .set("flopsPerByte", e.intensity.value());
       }},
      {"fusion",
       "",
       {{"elements", Kind::count, ""}, {"dtype", Kind::dtype, ""}},
       "FusionResult",
       "unfusedBytes: number; fusedBytes: number; savedBytes: number; unfusedTransfers: number; "
       "fusedTransfers: number",
       object,
       [](const Args& a) {
         const double elements = a.number("elements");
         const Fusion f = fusion(elements, a.dtype("dtype"));
         return Value::object()
             .set("unfusedBytes", f.unfused.value())
             .set("fusedBytes", f.fused.value())
             .set("savedBytes", f.saved.value())
             .set("unfusedTransfers", f.unfused_transfers)
             .set("fusedTransfers", f.fused_transfers);
       }},
      {"quantizedWeights",
       "",
       {{"params", Kind::count, ""},
        {"dtype", Kind::dtype, ""},
        {"groupSize", Kind::count, "", opt},
        {"scaleDtype", Kind::dtype, "", opt, "'fp16'"},
        {"keptParams", Kind::non_negative, "", opt, "0"},
        {"keptDtype", Kind::dtype, "", opt, "'bf16'"}},
       "QuantizedWeightsResult",
       "bytes: number; quantizedBytes: number; scaleBytes: number; keptBytes: number; bitsPerWeight: number",
       object,
       [](const Args& a) {
         QuantizedWeightsInput in{};
         in.params = a.number("params");
         in.dtype = a.dtype("dtype");
         if (a.has("groupSize")) in.group_size = a.number("groupSize");
         in.scale_dtype = a.dtype_or("scaleDtype", Dtype::fp16);
         in.kept_params = a.number_or("keptParams", 0);
         in.kept_dtype = a.dtype_or("keptDtype", Dtype::bf16);
         const QuantizedWeights q = quantized_weights(in);
         return Value::object()
             .set("bytes", q.bytes.value())
             .set("quantizedBytes", q.quantized.value())
             .set("scaleBytes", q.scales.value())
             .set("keptBytes", q.kept.value())
             .set("bitsPerWeight", q.bits_per_weight);
       }},
      {"precisionLadder",
       "The lesson's three precisions side by side at batch 1, KV cache left out: BF16, INT8 (no scales) and "
       "INT4 with one scale of scaleDtype per groupSize weights and keptParams kept in BF16. With model (the "
       "chosen model, when the fields are its own), a rung's step reads what a step of that model reads in that "
       "format (an MoE's active experts, the looked-up rows of the input table), never more than the rung holds.",
       {{"params", Kind::count, ""},
        {"bytesPerSecond", Kind::positive, "bytes/s"},
        {"groupSize", Kind::count, "", opt, "64"},
        {"scaleDtype", Kind::dtype, "", opt, "'fp16'"},
        {"keptParams", Kind::non_negative, "", opt, "0"},
        {"model", Kind::model_ref, "", opt}},
       "PrecisionLadderResult",
       "/** 'bf16', 'int8' or 'int4'. */ dtype: Dtype; "
       "/** What the rung holds, as quantizedWeights counts it. */ "
       "bytes: number; quantizedBytes: number; scaleBytes: number; keptBytes: number; bitsPerWeight: number; "
       "/** What one decode step reads of them. */ bytesReadPerStep: number; "
       "/** bytesPerSecond ÷ bytesReadPerStep: the memory ceiling of one conversation. */ tokensPerSecond: number",
       list,
       [](const Args& a) {
         const double params = a.number("params");
         const double group = a.number_or("groupSize", *find_format("int4", "format").group_size);
         std::optional<ModelRef> ref;
         if (a.has("model")) ref = model_ref(a, "model");
         Value rungs = Value::array();
         for (const Dtype d : {Dtype::bf16, Dtype::int8, Dtype::int4}) {
           QuantizedWeightsInput in{};
           in.params = params;
           in.dtype = d;
           if (d == Dtype::int4) {
             in.group_size = group;
             in.scale_dtype = a.dtype_or("scaleDtype", Dtype::fp16);
             in.kept_params = a.number_or("keptParams", 0);
           }
           const QuantizedWeights q = quantized_weights(in);
           Bytes read = q.bytes;
           const WeightFormat& f = find_format(dtype_id(d), "format");
           // the model's own reads, where its format is the rung's (INT4 at the format's group)
           if (ref && !ref->lesson_figures() && (d != Dtype::int4 || f.group_size == group)) {
             read = std::min(read, ref->read_per_step(f, 1));
           }
           const DecodeStep step = decode({q.bytes, Bytes{0}, 1, BytesPerSecond{a.number("bytesPerSecond")}, 1,
                                           std::nullopt, std::nullopt, std::nullopt, read});
           rungs.push(Value::object()
                          .set("dtype", std::string(dtype_id(d)))
                          .set("bytes", q.bytes.value())
                          .set("quantizedBytes", q.quantized.value())
                          .set("scaleBytes", q.scales.value())
                          .set("keptBytes", q.kept.value())
                          .set("bitsPerWeight", q.bits_per_weight)
                          .set("bytesReadPerStep", read.value())
                          .set("tokensPerSecond", step.tokens_per_second));
         }
         return rungs;
       }},
      {"precisionSpeedup",
       "",
       {{"bytesBefore", Kind::positive, "bytes"},
        {"bytesAfter", Kind::positive, "bytes"},
        {"peakBeforeFlopsPerSecond", Kind::positive, "FLOPS"},
        {"peakAfterFlopsPerSecond", Kind::positive, "FLOPS"}},
       "PrecisionSpeedupResult",
       "memoryBoundSpeedup: number; computeBoundSpeedup: number",
       object,
       [](const Args& a) {
         const Bytes before{a.number("bytesBefore")};
         const Bytes after{a.number("bytesAfter")};
         const FlopsPerSecond peak_before{a.number("peakBeforeFlopsPerSecond")};
         const Speedups s = speedups(before, after, peak_before, FlopsPerSecond{a.number("peakAfterFlopsPerSecond")});
         return Value::object().set("memoryBoundSpeedup", s.memory_bound).set("computeBoundSpeedup", s.compute_bound);
       }},
      {"denseFromSparsity",
       "",
       {{"flopsPerSecond", Kind::positive, "FLOPS"}},
       "DenseFromSparsityResult",
       "flopsPerSecond: number",
       object,
       [](const Args& a) {
         return Value::object().set("flopsPerSecond",
                                    dense_from_sparsity(FlopsPerSecond{a.number("flopsPerSecond")}).value());
       }},
      {"trainingFlops",
       "",
       {{"params", Kind::count, ""}, {"tokens", Kind::count, ""}},
       "FlopsResult",
       "flops: number",
       object,
       [](const Args& a) {
         const double params = a.number("params");
         return Value::object().set("flops", llm_training_flops(params, a.number("tokens")).value());
       }},
      {"cnnTrainingFlops",
       "",
       {{"forwardFlops", Kind::positive, "FLOPs"},
        {"examples", Kind::count, ""},
        {"epochs", Kind::positive, "", opt, "1"}},
       "FlopsResult",
       "flops: number",
       object,
       [](const Args& a) {
         const Flops forward{a.number("forwardFlops")};
         const double examples = a.number("examples");
         return Value::object().set("flops", cnn_training_flops(forward, examples, a.number_or("epochs", 1)).value());
       }},
  };
  return functions;
}

}  // namespace roofline::api::detail
