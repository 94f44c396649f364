// Inside a multiplication: how tiles raise intensity, a convolution as a matmul (im2col), and
// what element-wise operations and their fusion cost in bytes.
//
//   tile_intensity(64, 64, Dtype::fp16);   // 32 FLOPs per byte (T ÷ 2 in FP16)
//   tile_intensity(1, 1, Dtype::fp16);     // 0.5: no reuse at all
//   conv_as_matmul({224, 224, 3, 7, 7, 64, 2, 3}).macs;   // 118,013,952 (ResNet-50's first layer)
//   resolution_scale(224, 160).flops_fraction;            // (160 ÷ 224)² ≈ 0.51 (the lesson's M08)
#pragma once

#include "roofline/dtype.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// A rows × cols output tile over an inner size k: it brings in rows·k + k·cols numbers and does
/// 2·rows·cols·k FLOPs, so k cancels: 2·rows·cols ÷ (bytes per element·(rows + cols)).
FlopsPerByte tile_intensity(double rows, double cols, Dtype dtype);

struct ConvInput {
  double input_height, input_width, in_channels;
  double kernel_height, kernel_width, filters;
  double stride = 1;
  double padding = 0;  ///< zeros added on each side
};

struct ConvAsMatmul {
  double input_elements;  ///< the input tensor: in_channels × input_height × input_width (3 × 224 × 224)
  double output_height, output_width;
  double rows;             ///< output positions: output_height × output_width
  double inner;            ///< numbers each filter sees: kernel_height × kernel_width × in_channels
  double cols;             ///< filters
  double window_elements;  ///< rows × inner: the im2col matrix
  double weights;          ///< inner × cols
  Macs macs;               ///< rows × cols × inner
};

/// Output size per axis: ⌊(input + 2·padding − kernel) ÷ stride⌋ + 1.
ConvAsMatmul conv_as_matmul(const ConvInput& in);

/// A square input image resized from `from_side` to `to_side` pixels per side. A convolution does
/// its work once per output position, and every map of a CNN shrinks with its input, so the
/// network's FLOPs scale with the image's area: (to ÷ from)².
struct ResolutionScale {
  double from_pixels;     ///< from_side²
  double to_pixels;       ///< to_side²
  double flops_fraction;  ///< to_pixels ÷ from_pixels: the share of the FLOPs left
};
ResolutionScale resolution_scale(double from_side, double to_side);

struct Elementwise {
  Flops flops;
  Bytes bytes;  ///< each element read once and written once
  FlopsPerByte intensity;
};
Elementwise elementwise(double elements, Dtype dtype, double flops_per_element = 1);

/// conv + bias + ReLU. Unfused: the conv writes its output, the bias reads and writes it, the
/// ReLU reads and writes it (5 transfers). Fused: the output is written once.
struct Fusion {
  Bytes unfused;
  Bytes fused;
  Bytes saved;
  int unfused_transfers = 5;
  int fused_transfers = 1;
};
Fusion fusion(double elements, Dtype dtype);

}  // namespace roofline
