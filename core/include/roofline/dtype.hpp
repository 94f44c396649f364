// Number formats and the bytes each element takes.
//
//   bytes_per_element(Dtype::fp16);   // 2
//   parse_dtype("int4");              // Dtype::int4 (0.5 bytes)
#pragma once

#include <array>
#include <string_view>

#include "roofline/units.hpp"

namespace roofline {

enum class Dtype { fp32, tf32, fp16, bf16, fp8, int8, int4 };

inline constexpr std::array all_dtypes{Dtype::fp32, Dtype::tf32, Dtype::fp16, Dtype::bf16,
                                       Dtype::fp8,  Dtype::int8, Dtype::int4};

/// Bytes one element occupies in memory: 4, 4 (TF32 is stored as FP32), 2, 2, 1, 1, 0.5.
constexpr double bytes_per_element(Dtype d) {
  switch (d) {
    case Dtype::fp32:
    case Dtype::tf32: return 4.0;
    case Dtype::fp16:
    case Dtype::bf16: return 2.0;
    case Dtype::fp8:
    case Dtype::int8: return 1.0;
    case Dtype::int4: return 0.5;
  }
  return 0.0;
}

/// Whether arithmetic in `d` is on integers: its rate is in OPS (TOPS), not FLOPS.
constexpr bool is_integer(Dtype d) { return d == Dtype::int8 || d == Dtype::int4; }

/// Bytes of `elements` numbers of dtype `d`.
constexpr Bytes bytes_of(double elements, Dtype d) { return Bytes{elements * bytes_per_element(d)}; }

/// "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4".
std::string_view dtype_id(Dtype d);
/// "FP32", "TF32", "FP16", "BF16", "FP8", "INT8", "INT4".
std::string_view dtype_name(Dtype d);
/// The dtype named by its id; throws Error{unknown_dtype} naming `field` otherwise.
Dtype parse_dtype(std::string_view id, std::string_view field = "dtype");

}  // namespace roofline
