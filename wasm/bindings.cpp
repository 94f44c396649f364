// Embind bindings: one entry point, invoke(name, args), that converts a JS object to the core's
// api::Value, calls the core and converts the result back. Errors never cross into JS as C++
// exceptions (which would arrive as bare numbers): they come back as {ok: false, code, field,
// message}, and wasm/api.js throws a RooflineError from them.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <new>
#include <string>

#include "roofline/api.hpp"
#include "roofline/error.hpp"

namespace {

using emscripten::val;
using roofline::Error;
using roofline::ErrorCode;
using roofline::api::Value;

constexpr int max_depth = 8;
constexpr double max_elements = 1e6;

struct Budget {
  double elements = 0;
};

Value to_value(const val& v, int depth, Budget& budget) {
  if (depth > max_depth) throw Error(ErrorCode::too_large, "", "arguments are nested too deeply");
  if (++budget.elements > max_elements) throw Error(ErrorCode::too_large, "", "arguments hold too many values");
  const std::string type = v.typeOf().as<std::string>();
  if (type == "number") return Value(v.as<double>());
  if (type == "string") return Value(v.as<std::string>());
  if (type == "boolean") return Value(v.as<bool>());
  if (type == "undefined" || v.isNull()) return Value();
  if (type != "object") return Value::object();  // functions, symbols, bigints: not a number
  if (val::global("Array").call<bool>("isArray", v)) {
    const double length = v["length"].as<double>();
    if (length > max_elements) throw Error(ErrorCode::too_large, "", "arguments hold too many values");
    Value out = Value::array();
    for (unsigned i = 0; i < static_cast<unsigned>(length); ++i) out.push(to_value(v[i], depth + 1, budget));
    return out;
  }
  Value out = Value::object();
  const val keys = val::global("Object").call<val>("keys", v);
  const unsigned n = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    const val field = v[key];
    if (field.isUndefined()) continue;  // {n: undefined} is the same as no n
    out.set(key, to_value(field, depth + 1, budget));
  }
  return out;
}

val to_val(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::null: return val::null();
    case Value::Kind::boolean: return val(v.boolean());
    case Value::Kind::number: return val(v.number());
    case Value::Kind::string: return val(v.string());
    case Value::Kind::array: {
      val out = val::array();
      for (const Value& item : v.items()) out.call<void>("push", to_val(item));
      return out;
    }
    case Value::Kind::object: {
      val out = val::object();
      for (std::size_t i = 0; i < v.keys().size(); ++i) out.set(v.keys()[i], to_val(v.items()[i]));
      return out;
    }
  }
  return val::undefined();
}

val failure(std::string_view code, const std::string& field, const std::string& message) {
  val out = val::object();
  out.set("ok", false);
  out.set("code", std::string(code));
  out.set("field", field);
  out.set("message", message);
  return out;
}

val invoke(const std::string& name, const val& args) {
  try {
    Budget budget;
    const Value result = roofline::api::call(name, to_value(args, 0, budget));
    val out = val::object();
    out.set("ok", true);
    out.set("value", to_val(result));
    return out;
  } catch (const Error& e) {
    return failure(e.code_id(), e.field(), e.what());
  } catch (const std::bad_alloc&) {
    return failure("internal_error", "", "out of memory");
  } catch (const std::exception& e) {
    return failure("internal_error", "", e.what());
  }
}

val function_names() {
  val out = val::array();
  for (const std::string& n : roofline::api::function_names()) out.call<void>("push", n);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(roofline) {
  emscripten::function("invoke", &invoke);
  emscripten::function("functionNames", &function_names);
}
