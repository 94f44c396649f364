#include "roofline/inside.hpp"

#include <cmath>
#include <string>

#include "roofline/error.hpp"

namespace roofline {

FlopsPerByte tile_intensity(double rows, double cols, Dtype dtype) {
  require_count("rows", rows);
  require_count("cols", cols);
  require_exact_product("rows", rows * cols, "rows × cols");
  return FlopsPerByte{2.0 * rows * cols / (bytes_per_element(dtype) * (rows + cols))};
}

ResolutionScale resolution_scale(double from_side, double to_side) {
  require_count("fromSide", from_side);
  require_count("toSide", to_side);
  ResolutionScale r{};
  r.from_pixels = require_exact_product("fromSide", from_side * from_side, "the pixels of the image");
  r.to_pixels = require_exact_product("toSide", to_side * to_side, "the pixels of the image");
  r.flops_fraction = r.to_pixels / r.from_pixels;
  return r;
}

ConvAsMatmul conv_as_matmul(const ConvInput& in) {
  require_count("inputHeight", in.input_height);
  require_count("inputWidth", in.input_width);
  require_count("inChannels", in.in_channels);
  require_count("kernelHeight", in.kernel_height);
  require_count("kernelWidth", in.kernel_width);
  require_count("filters", in.filters);
  require_count("stride", in.stride);
  require_count_or_zero("padding", in.padding);
  auto out = [&](double input, double kernel, const char* kernel_field) {
    const double span = input + 2 * in.padding - kernel;
    if (span < 0) {
      throw Error(ErrorCode::out_of_range, kernel_field,
                  std::string(kernel_field) + " must be at most the padded input size (" +
                      format_number(input + 2 * in.padding) + "), got " + format_number(kernel));
    }
    return std::floor(span / in.stride) + 1;
  };
  ConvAsMatmul r{};
  r.input_elements = require_exact_product("inputHeight", in.in_channels * in.input_height * in.input_width,
                                           "the input tensor's size");
  r.output_height = out(in.input_height, in.kernel_height, "kernelHeight");
  r.output_width = out(in.input_width, in.kernel_width, "kernelWidth");
  r.rows = require_exact_product("inputHeight", r.output_height * r.output_width, "output positions");
  r.inner =
      require_exact_product("kernelHeight", in.kernel_height * in.kernel_width * in.in_channels, "numbers per window");
  r.cols = in.filters;
  r.window_elements = require_exact_product("inputHeight", r.rows * r.inner, "the window matrix's size");
  r.weights = require_exact_product("filters", r.inner * r.cols, "the filter matrix's size");
  r.macs = Macs{require_exact_product("filters", r.rows * r.cols * r.inner, "the MACs")};
  return r;
}

Elementwise elementwise(double elements, Dtype dtype, double flops_per_element) {
  require_count("elements", elements);
  require_positive("flopsPerElement", flops_per_element);
  const Flops flops{require_result("flops", elements * flops_per_element)};
  const Bytes bytes = bytes_of(2 * elements, dtype);
  return {flops, bytes, flops / bytes};
}

Fusion fusion(double elements, Dtype dtype) {
  require_count("elements", elements);
  Fusion f;
  f.unfused = bytes_of(f.unfused_transfers * elements, dtype);
  f.fused = bytes_of(f.fused_transfers * elements, dtype);
  f.saved = f.unfused - f.fused;
  return f;
}

}  // namespace roofline
