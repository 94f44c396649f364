// The core's one error mechanism: every public function validates its input and throws
// roofline::Error, which carries a stable code (translated by the page), the field at fault and
// an English message that names the field and the rule.
//
//   try { matmul_cost(2.5, 3, 4, Dtype::fp16); }
//   catch (const Error& e) { e.code();    // ErrorCode::not_integer
//                            e.field();   // "n"
//                            e.what(); }  // "n must be a positive integer, got 2.5"
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/number_text.hpp"

namespace roofline {

enum class ErrorCode {
  missing_field,
  not_a_number,
  not_finite,
  not_positive,
  negative,
  not_integer,
  too_large,
  out_of_range,
  shape_mismatch,
  ragged_matrix,
  unknown_dtype,
  unknown_gpu,
  unknown_model,
  unknown_format,
  unknown_case,
  unknown_link,
  unsupported_dtype,
  never_crosses_ridge,
  unknown_function,
  unknown_argument,
  invalid_config,
  unknown_architecture,
  invalid_json,
  internal_error,
};

/// Every code, in declaration order (for listings and tests).
inline constexpr std::array all_error_codes{
    ErrorCode::missing_field,     ErrorCode::not_a_number,
    ErrorCode::not_finite,        ErrorCode::not_positive,
    ErrorCode::negative,          ErrorCode::not_integer,
    ErrorCode::too_large,         ErrorCode::out_of_range,
    ErrorCode::shape_mismatch,    ErrorCode::ragged_matrix,
    ErrorCode::unknown_dtype,     ErrorCode::unknown_gpu,
    ErrorCode::unknown_model,     ErrorCode::unknown_format,
    ErrorCode::unknown_case,      ErrorCode::unknown_link,
    ErrorCode::unsupported_dtype, ErrorCode::never_crosses_ridge,
    ErrorCode::unknown_function,  ErrorCode::unknown_argument,
    ErrorCode::invalid_config,    ErrorCode::unknown_architecture,
    ErrorCode::invalid_json,      ErrorCode::internal_error,
};

/// The stable identifier of a code: "not_integer", "shape_mismatch", ...
std::string_view error_code_id(ErrorCode code);

/// One bad argument: its code, the field and the message.
struct ErrorItem {
  ErrorCode code;
  std::string field;
  std::string message;
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, std::string field, const std::string& message)
      : std::runtime_error(message), code_(code), field_(std::move(field)) {}
  /// Several bad arguments at once; the first is this error's code, field and message.
  explicit Error(std::vector<ErrorItem> all)
      : std::runtime_error(all.front().message),
        code_(all.front().code),
        field_(all.front().field),
        all_(std::move(all)) {}
  [[nodiscard]] ErrorCode code() const { return code_; }
  [[nodiscard]] std::string_view code_id() const { return error_code_id(code_); }
  [[nodiscard]] const std::string& field() const { return field_; }
  /// Every bad argument found, in the order of the function's arguments (this one alone when
  /// the error was raised on its own).
  [[nodiscard]] std::vector<ErrorItem> errors() const {
    return all_.empty() ? std::vector<ErrorItem>{{code_, field_, what()}} : all_;
  }

 private:
  ErrorCode code_;
  std::string field_;
  std::vector<ErrorItem> all_;
};

/// Largest integer a double holds exactly: counts, and products of counts, stay at or below it.
inline constexpr double max_exact_count = 9007199254740992.0;  // 2^53
/// Largest real quantity the core accepts or returns (FLOPs of a training run reach ~1e25).
inline constexpr double max_quantity = 1e30;

// Validation helpers. Each returns its argument on success, so calls compose:
//   double n = require_count("n", n_in);
double require_finite(std::string_view field, double value);
/// Finite and > 0, at most max_quantity.
double require_positive(std::string_view field, double value);
/// Finite and ≥ 0, at most max_quantity.
double require_non_negative(std::string_view field, double value);
/// A share or a probability: finite, from 0 to 1 (negative below 0, out_of_range above 1).
double require_fraction(std::string_view field, double value);
/// A whole number ≥ 1 (sizes, batch, layers, GPUs), at most 2^53.
double require_count(std::string_view field, double value);
/// A whole number ≥ 0, at most 2^53.
double require_count_or_zero(std::string_view field, double value);
/// A product of counts that must stay exact (≤ 2^53); `what` names it in the message.
double require_exact_product(std::string_view field, double product, std::string_view what);
/// A computed result: finite and at most max_quantity, or too_large naming `field`.
double require_result(std::string_view field, double value);

}  // namespace roofline
