#include "roofline/dtype.hpp"

#include <string>

#include "roofline/error.hpp"

namespace roofline {

std::string_view dtype_id(Dtype d) {
  switch (d) {
    case Dtype::fp32: return "fp32";
    case Dtype::tf32: return "tf32";
    case Dtype::fp16: return "fp16";
    case Dtype::bf16: return "bf16";
    case Dtype::fp8: return "fp8";
    case Dtype::int8: return "int8";
    case Dtype::int4: return "int4";
  }
  return "";
}

std::string_view dtype_name(Dtype d) {
  switch (d) {
    case Dtype::fp32: return "FP32";
    case Dtype::tf32: return "TF32";
    case Dtype::fp16: return "FP16";
    case Dtype::bf16: return "BF16";
    case Dtype::fp8: return "FP8";
    case Dtype::int8: return "INT8";
    case Dtype::int4: return "INT4";
  }
  return "";
}

Dtype parse_dtype(std::string_view id, std::string_view field) {
  for (Dtype d : all_dtypes) {
    if (dtype_id(d) == id) return d;
  }
  std::string shown(id.substr(0, 40));
  throw Error(ErrorCode::unknown_dtype, std::string(field),
              std::string(field) + " must be one of fp32, tf32, fp16, bf16, fp8, int8, int4, got \"" + shown + "\"");
}

}  // namespace roofline
