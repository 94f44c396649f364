// The API table, tiles, convolutions, fusion, precision and training (docs/api.md).
#include "api_internal.hpp"

namespace roofline::api::detail {

std::span<const Function> kernels_functions() {
  static constexpr Function functions[] = {
      {"tile", "",
       {{"rows", Kind::count, ""}, {"cols", Kind::count, ""}, {"dtype", Kind::dtype, ""}},
       "TileResult", "flopsPerByte: number", object,
       [](const Args& a) {
         const double rows = a.number("rows"), cols = a.number("cols");
         return Value::object().set("flopsPerByte", tile_intensity(rows, cols, a.dtype("dtype")).value());
       }},
      {"resolutionScale", "A square image resized: a CNN's FLOPs scale with its area (M08: (160 ÷ 224)² ≈ 51 %).",
       {{"fromSide", Kind::count, "pixels"}, {"toSide", Kind::count, "pixels"}},
       "ResolutionScaleResult", "fromPixels: number; toPixels: number; flopsFraction: number", object,
       [](const Args& a) {
         const ResolutionScale r = resolution_scale(a.number("fromSide"), a.number("toSide"));
         return Value::object()
             .set("fromPixels", r.from_pixels)
             .set("toPixels", r.to_pixels)
             .set("flopsFraction", r.flops_fraction);
       }},
      {"convAsMatmul", "",
       {{"inputHeight", Kind::count, ""}, {"inputWidth", Kind::count, ""}, {"inChannels", Kind::count, ""},
        {"kernelHeight", Kind::count, ""}, {"kernelWidth", Kind::count, ""}, {"filters", Kind::count, ""},
        {"stride", Kind::count, "", opt, "1"}, {"padding", Kind::count_or_zero, "", opt, "0"}},
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
      {"elementwise", "",
       {{"elements", Kind::count, ""}, {"dtype", Kind::dtype, ""},
        {"flopsPerElement", Kind::positive, "FLOPs", opt, "1"}},
       "ElementwiseResult", "flops: number; bytes: number; flopsPerByte: number", object,
       [](const Args& a) {
         const double elements = a.number("elements");
         const Dtype dtype = a.dtype("dtype");
         const Elementwise e = elementwise(elements, dtype, a.number_or("flopsPerElement", 1));
         return Value::object()
             .set("flops", e.flops.value())
             .set("bytes", e.bytes.value())
             .set("flopsPerByte", e.intensity.value());
       }},
      {"fusion", "",
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
      {"quantizedWeights", "",
       {{"params", Kind::count, ""}, {"dtype", Kind::dtype, ""}, {"groupSize", Kind::count, "", opt},
        {"scaleDtype", Kind::dtype, "", opt, "'fp16'"}, {"keptParams", Kind::non_negative, "", opt, "0"},
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
      {"precisionSpeedup", "",
       {{"bytesBefore", Kind::positive, "bytes"}, {"bytesAfter", Kind::positive, "bytes"},
        {"peakBeforeFlopsPerSecond", Kind::positive, "FLOPS"}, {"peakAfterFlopsPerSecond", Kind::positive, "FLOPS"}},
       "PrecisionSpeedupResult", "memoryBoundSpeedup: number; computeBoundSpeedup: number", object,
       [](const Args& a) {
         const Bytes before{a.number("bytesBefore")};
         const Bytes after{a.number("bytesAfter")};
         const FlopsPerSecond peak_before{a.number("peakBeforeFlopsPerSecond")};
         const Speedups s = speedups(before, after, peak_before, FlopsPerSecond{a.number("peakAfterFlopsPerSecond")});
         return Value::object().set("memoryBoundSpeedup", s.memory_bound).set("computeBoundSpeedup", s.compute_bound);
       }},
      {"denseFromSparsity", "",
       {{"flopsPerSecond", Kind::positive, "FLOPS"}},
       "DenseFromSparsityResult", "flopsPerSecond: number", object,
       [](const Args& a) {
         return Value::object().set("flopsPerSecond",
                                    dense_from_sparsity(FlopsPerSecond{a.number("flopsPerSecond")}).value());
       }},
      {"trainingFlops", "",
       {{"params", Kind::count, ""}, {"tokens", Kind::count, ""}},
       "FlopsResult", "flops: number", object,
       [](const Args& a) {
         const double params = a.number("params");
         return Value::object().set("flops", llm_training_flops(params, a.number("tokens")).value());
       }},
      {"cnnTrainingFlops", "",
       {{"forwardFlops", Kind::positive, "FLOPs"}, {"examples", Kind::count, ""},
        {"epochs", Kind::positive, "", opt, "1"}},
       "FlopsResult", "flops: number", object,
       [](const Args& a) {
         const Flops forward{a.number("forwardFlops")};
         const double examples = a.number("examples");
         return Value::object().set("flops", cnn_training_flops(forward, examples, a.number_or("epochs", 1)).value());
       }},
  };
  return functions;
}

}  // namespace roofline::api::detail
