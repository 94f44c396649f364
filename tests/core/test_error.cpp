#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <set>

#include "roofline/error.hpp"

using namespace roofline;

namespace {
ErrorCode code_of(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  FAIL("no error thrown");
  return ErrorCode::unknown_function;
}
const double pinf = std::numeric_limits<double>::infinity();
const double qnan = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("every error code has a distinct stable id") {
  std::set<std::string_view> ids;
  for (ErrorCode c : all_error_codes) ids.insert(error_code_id(c));
  CHECK(ids.size() == all_error_codes.size());
  CHECK(error_code_id(ErrorCode::not_integer) == "not_integer");
  CHECK(error_code_id(ErrorCode::never_crosses_ridge) == "never_crosses_ridge");
}

TEST_CASE("the message names the field and the rule and shows the value") {
  try {
    require_count("n", 2.5);
    FAIL("accepted 2.5 as a count");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::not_integer);
    CHECK(e.field() == "n");
    CHECK(std::string(e.what()) == "n must be a positive integer, got 2.5");
  }
}

TEST_CASE("require_count rejects NaN, infinities, zero, negatives, fractions and counts beyond 2^53") {
  CHECK(code_of([] { require_count("n", qnan); }) == ErrorCode::not_finite);
  CHECK(code_of([] { require_count("n", pinf); }) == ErrorCode::not_finite);
  CHECK(code_of([] { require_count("n", -pinf); }) == ErrorCode::not_finite);
  CHECK(code_of([] { require_count("n", 0); }) == ErrorCode::not_positive);
  CHECK(code_of([] { require_count("n", -3); }) == ErrorCode::not_positive);
  CHECK(code_of([] { require_count("n", 0.5); }) == ErrorCode::not_integer);
  CHECK(code_of([] { require_count("n", 1e300); }) == ErrorCode::too_large);
  CHECK(require_count("n", 1) == 1);
  CHECK(require_count("n", max_exact_count) == max_exact_count);
}

TEST_CASE("require_positive and require_non_negative bound real quantities to 1e30") {
  CHECK(code_of([] { require_positive("x", 0); }) == ErrorCode::not_positive);
  CHECK(code_of([] { require_positive("x", -1e-9); }) == ErrorCode::not_positive);
  CHECK(code_of([] { require_positive("x", 2e30); }) == ErrorCode::too_large);
  CHECK(code_of([] { require_non_negative("x", -1); }) == ErrorCode::negative);
  CHECK(code_of([] { require_non_negative("x", qnan); }) == ErrorCode::not_finite);
  CHECK(require_non_negative("x", 0) == 0);
  CHECK(require_positive("x", 1e-12) == 1e-12);
  CHECK(code_of([] { require_count_or_zero("x", -1); }) == ErrorCode::negative);
  CHECK(code_of([] { require_count_or_zero("x", 1.5); }) == ErrorCode::not_integer);
  CHECK(require_count_or_zero("x", 0) == 0);
}

TEST_CASE("results that overflow are refused, never returned as infinity") {
  CHECK(code_of([] { require_result("flops", pinf); }) == ErrorCode::too_large);
  CHECK(code_of([] { require_result("flops", qnan); }) == ErrorCode::too_large);
  CHECK(code_of([] { require_exact_product("n", 1e17, "MACs"); }) == ErrorCode::too_large);
}

TEST_CASE("format_number prints the shortest text that reads back exactly") {
  CHECK(format_number(2.5) == "2.5");
  CHECK(format_number(65e12) == "65000000000000");
  CHECK(format_number(500) == "500");
  CHECK(format_number(1e300) == "1e+300");
  CHECK(format_number(1.5e-7) == "1.5e-7");
  CHECK(format_rounded(401.88383045525904) == "401.9");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(qnan) == "NaN");
  CHECK(format_number(-pinf) == "-Infinity");
}
