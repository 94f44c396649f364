// JSON text for the core's json::Value: how a host crosses into the core with one string each way
// (the WebAssembly module sends its arguments and receives its results this way).
//
//   Value args = parse_json(R"({"n": 32, "k": 2048, "m": 500, "dtype": "fp16"})");
//   std::string text = write_json(call("matmul", args));   // {"rows":32,"cols":500,...}
//
// Numbers cross exactly: the parser rounds decimal text correctly (as strtod and JavaScript do),
// and the writer writes text that reads back as the identical double (-0 included), so a value
// survives JavaScript -> C++ -> JavaScript bit for bit.
#pragma once

#include <string>
#include <string_view>

#include "roofline/value.hpp"

namespace roofline::json {

/// Deepest nesting accepted: the arguments object is depth 0, its fields depth 1, ...
inline constexpr int max_json_depth = 8;
/// Most values (every number, string, list, object ... counted once) in one text.
inline constexpr double max_json_values = 1e6;

/// Reads one JSON value (RFC 8259), plus the tokens NaN, Infinity and -Infinity as numbers, so a
/// host can pass non-finite numbers for the core to reject with not_finite. Strings are UTF-8;
/// \uXXXX escapes (surrogate pairs included) become UTF-8, a lone surrogate becomes U+FFFD.
/// Throws roofline::Error: too_large ("arguments are nested too deeply" past max_json_depth,
/// "arguments hold too many values" past max_json_values), invalid_json for text that is not
/// JSON (the message says what was expected and at which byte).
Value parse_json(std::string_view text);

/// The same, JSON alone (RFC 8259): NaN, Infinity and -Infinity are refused like any other text
/// that is not JSON. For files written by others (a config.json), where they are no number.
Value parse_strict_json(std::string_view text);

/// Writes `value` as compact JSON (no spaces), keys in the Value's order. Numbers always read back
/// as the identical double: integers below 2^53 as integers, others with Grisu2's digits (the
/// shortest in all but a fraction of a percent of cases, which get one digit more) in
/// JavaScript's layout ("0.0535", "1.5e-7", "1e+21"); -0 is "-0"; non-finite numbers are
/// written as NaN, Infinity, -Infinity (which parse_json reads, but JSON.parse rejects).
/// Strings escape '"', '\\' and control characters; other bytes, UTF-8 included, are copied
/// unchanged.
std::string write_json(const Value& value);
/// The same, appended to `out`.
void write_json(const Value& value, std::string& out);

}  // namespace roofline::json
