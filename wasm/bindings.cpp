// The module's entry points, as plain C exports (no Embind): a call crosses the boundary once
// with one JSON text each way. wasm/api.js writes the arguments as UTF-8 JSON into the request
// buffer, roofline_invoke parses them (json::parse_json), calls the core and writes the result
// (json::write_json) into the reply buffer, which api.js decodes and hands to JSON.parse.
// Errors never cross into JS as C++ exceptions (which would arrive as bare numbers): they come
// back as a reply ["code","field","message"] with status 1, and api.js throws a RooflineError.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <new>
#include <string>
#include <vector>

#include "roofline/api.hpp"
#include "roofline/error.hpp"
#include "roofline/json.hpp"

namespace {

using roofline::api::Value;

std::string request;  // the next call's arguments, written by JS
std::string reply;    // the last call's answer, read by JS

const std::vector<std::string>& names() {
  static const std::vector<std::string> all = roofline::api::function_names();
  return all;
}

int failure(std::string_view code, const std::string& field, const std::string& message) {
  reply.clear();
  roofline::json::write_json(Value::array({Value(code), Value(field), Value(message)}), reply);
  return 1;
}

}  // namespace

extern "C" {

/// A buffer of at least `bytes` bytes for the next call's arguments; its address stays valid
/// until this is called again with a larger size.
EMSCRIPTEN_KEEPALIVE char* roofline_request(std::size_t bytes) {
  if (request.size() < bytes) request.resize(bytes);
  return request.data();
}

/// Calls function number `function` (an index into the names roofline_function_names lists)
/// with the arguments in the first `bytes` bytes of the request buffer (UTF-8 JSON). Returns 0
/// with the result as JSON in the reply buffer, or 1 with ["code","field","message",[every
/// bad argument as [code, field, message]]] there.
EMSCRIPTEN_KEEPALIVE int roofline_invoke(int function, std::size_t bytes) {
  try {
    const std::vector<std::string>& all = names();
    if (function < 0 || static_cast<std::size_t>(function) >= all.size() || bytes > request.size()) {
      return failure("internal_error", "", "invalid call of roofline_invoke");
    }
    const Value result = roofline::api::call(static_cast<std::size_t>(function),
                                             roofline::json::parse_json(std::string_view(request.data(), bytes)));
    reply.clear();
    roofline::json::write_json(result, reply);
    return 0;
  } catch (const roofline::Error& e) {
    // ["code","field","message",[[code, field, message], ...]]: the first, then every bad argument
    Value all = Value::array();
    for (const roofline::ErrorItem& item : e.errors()) {
      all.push(Value::array({Value(roofline::error_code_id(item.code)), Value(item.field), Value(item.message)}));
    }
    reply.clear();
    roofline::json::write_json(
        Value::array({Value(e.code_id()), Value(e.field()), Value(std::string(e.what())), std::move(all)}), reply);
    return 1;
  } catch (const std::bad_alloc&) {
    return failure("internal_error", "", "out of memory");
  } catch (const std::exception& e) {
    return failure("internal_error", "", e.what());
  }
}

/// Puts the names of every API function, in documentation order, into the reply buffer as a
/// JSON array of strings; roofline_invoke numbers them from 0 in this order.
EMSCRIPTEN_KEEPALIVE void roofline_function_names() {
  Value out = Value::array();
  for (const std::string& n : names()) out.push(Value(n));
  reply.clear();
  roofline::json::write_json(out, reply);
}

/// Where the reply buffer starts, and how many bytes of it the last call wrote.
EMSCRIPTEN_KEEPALIVE const char* roofline_reply() { return reply.data(); }
EMSCRIPTEN_KEEPALIVE std::size_t roofline_reply_size() { return reply.size(); }

}  // extern "C"
