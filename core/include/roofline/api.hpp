// The core's one public surface for hosts that speak plain values (JavaScript, JSON): every
// function of the JS API (docs/api.md) by name, taking an object of named arguments in base
// units and returning plain values. The WebAssembly bindings and the native lesson audit both
// call through here, so argument checking and results are the same everywhere.
//
//   Value args = Value::object().set("n", 32).set("k", 2048).set("m", 500).set("dtype", "fp16");
//   call("matmul", args).get("flops").number();   // 65536000
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/value.hpp"

namespace roofline::api {

using json::describe;
using json::Value;

/// Calls the API function `name` with an object of named arguments. Throws roofline::Error for
/// any bad argument (missing_field, not_a_number, not_finite, ...) or unknown_function. Every
/// number in the result is finite.
Value call(std::string_view name, const Value& args);
/// The same, by the function's number: its index in function_names() (how the WebAssembly
/// binding calls, without a search by name). Throws unknown_function past the last.
Value call(std::size_t index, const Value& args);

/// The names call() accepts, in documentation order.
std::vector<std::string> function_names();

}  // namespace roofline::api
