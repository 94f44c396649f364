#include "roofline/error.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace roofline {

std::string_view error_code_id(ErrorCode code) {
  switch (code) {
    case ErrorCode::missing_field: return "missing_field";
    case ErrorCode::not_a_number: return "not_a_number";
    case ErrorCode::not_finite: return "not_finite";
    case ErrorCode::not_positive: return "not_positive";
    case ErrorCode::negative: return "negative";
    case ErrorCode::not_integer: return "not_integer";
    case ErrorCode::too_large: return "too_large";
    case ErrorCode::out_of_range: return "out_of_range";
    case ErrorCode::shape_mismatch: return "shape_mismatch";
    case ErrorCode::ragged_matrix: return "ragged_matrix";
    case ErrorCode::unknown_dtype: return "unknown_dtype";
    case ErrorCode::unknown_gpu: return "unknown_gpu";
    case ErrorCode::unknown_model: return "unknown_model";
    case ErrorCode::unknown_format: return "unknown_format";
    case ErrorCode::unknown_case: return "unknown_case";
    case ErrorCode::unknown_link: return "unknown_link";
    case ErrorCode::unsupported_dtype: return "unsupported_dtype";
    case ErrorCode::never_crosses_ridge: return "never_crosses_ridge";
    case ErrorCode::unknown_function: return "unknown_function";
    case ErrorCode::unknown_argument: return "unknown_argument";
    case ErrorCode::invalid_config: return "invalid_config";
    case ErrorCode::unknown_architecture: return "unknown_architecture";
    case ErrorCode::invalid_json: return "invalid_json";
    case ErrorCode::internal_error: return "internal_error";
  }
  return "unknown_error";
}

namespace {
[[noreturn]] void fail(ErrorCode code, std::string_view field, const std::string& rule, double value) {
  throw Error(code, std::string(field), std::string(field) + " must be " + rule + ", got " + format_number(value));
}
}  // namespace

double require_finite(std::string_view field, double value) {
  if (!std::isfinite(value)) fail(ErrorCode::not_finite, field, "a finite number", value);
  return value;
}

double require_positive(std::string_view field, double value) {
  require_finite(field, value);
  if (value <= 0) fail(ErrorCode::not_positive, field, "greater than zero", value);
  if (value > max_quantity) fail(ErrorCode::too_large, field, "at most 1e30", value);
  return value;
}

double require_non_negative(std::string_view field, double value) {
  require_finite(field, value);
  if (value < 0) fail(ErrorCode::negative, field, "zero or more", value);
  if (value > max_quantity) fail(ErrorCode::too_large, field, "at most 1e30", value);
  return value;
}

double require_fraction(std::string_view field, double value) {
  require_non_negative(field, value);
  if (value > 1) fail(ErrorCode::out_of_range, field, "from 0 to 1", value);
  return value;
}

double require_count(std::string_view field, double value) {
  require_finite(field, value);
  if (value < 1) {
    fail(value <= 0 ? ErrorCode::not_positive : ErrorCode::not_integer, field, "a positive integer", value);
  }
  if (value != std::floor(value)) fail(ErrorCode::not_integer, field, "a positive integer", value);
  if (value > max_exact_count) fail(ErrorCode::too_large, field, "at most 2^53 (9007199254740992)", value);
  return value;
}

double require_count_or_zero(std::string_view field, double value) {
  require_finite(field, value);
  if (value < 0) fail(ErrorCode::negative, field, "a whole number, zero or more", value);
  if (value != std::floor(value)) fail(ErrorCode::not_integer, field, "a whole number, zero or more", value);
  if (value > max_exact_count) fail(ErrorCode::too_large, field, "at most 2^53 (9007199254740992)", value);
  return value;
}

double require_exact_product(std::string_view field, double product, std::string_view what) {
  if (!(product <= max_exact_count)) {
    throw Error(ErrorCode::too_large, std::string(field),
                std::string(what) + " would be " + format_number(product) +
                    ", beyond 2^53, the largest count computed exactly; reduce " + std::string(field));
  }
  return product;
}

double require_result(std::string_view field, double value) {
  if (!std::isfinite(value) || std::fabs(value) > max_quantity) {
    throw Error(ErrorCode::too_large, std::string(field),
                "the result for " + std::string(field) + " would exceed 1e30; use smaller inputs");
  }
  return value;
}

}  // namespace roofline
