// The core's one public surface for hosts that speak plain values (JavaScript, JSON): every
// function of the JS API (docs/api.md) by name, taking an object of named arguments in base
// units and returning plain values. The WebAssembly bindings and the native lesson audit both
// call through here, so argument checking and results are the same everywhere.
//
//   Value args = Value::object().set("n", 32).set("k", 2048).set("m", 500).set("dtype", "fp16");
//   call("matmul", args).get("flops").number();   // 65536000
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline::api {

/// A JSON-like value: null, boolean, number, string, array or object (keys kept in order).
class Value {
 public:
  enum class Kind { null, boolean, number, string, array, object };

  Value() = default;
  Value(bool b) : kind_(Kind::boolean), boolean_(b) {}
  Value(double d) : kind_(Kind::number), number_(d) {}
  Value(int i) : kind_(Kind::number), number_(i) {}
  Value(std::string s) : kind_(Kind::string), string_(std::move(s)) {}
  Value(const char* s) : kind_(Kind::string), string_(s) {}
  Value(std::string_view s) : kind_(Kind::string), string_(s) {}
  static Value array(std::vector<Value> items = {});
  static Value object();

  [[nodiscard]] Kind kind() const { return kind_; }
  [[nodiscard]] bool is(Kind k) const { return kind_ == k; }
  [[nodiscard]] bool boolean() const { return boolean_; }
  [[nodiscard]] double number() const { return number_; }
  [[nodiscard]] const std::string& string() const { return string_; }
  /// Elements of an array, or the values of an object (in key order).
  [[nodiscard]] const std::vector<Value>& items() const { return items_; }
  [[nodiscard]] const std::vector<std::string>& keys() const { return keys_; }

  /// Adds or replaces a key of an object; returns *this for chaining. On a temporary
  /// (Value::object().set(...).set(...)) the chain hands the temporary on by move, so that
  /// pushing or returning it moves the tree instead of copying it.
  Value& set(std::string key, Value v) &;
  Value&& set(std::string key, Value v) && { return std::move(set(std::move(key), std::move(v))); }
  /// Appends a key the object does not have yet (the caller knows: a result written field by
  /// field), without set's search for it; returns *this for chaining, by move on a temporary.
  Value& add(std::string key, Value v) &;
  Value&& add(std::string key, Value v) && { return std::move(add(std::move(key), std::move(v))); }
  /// Appends to an array (by move on a temporary, as set).
  Value& push(Value v) &;
  Value&& push(Value v) && { return std::move(push(std::move(v))); }
  /// The value under `key` of an object, or nullptr.
  [[nodiscard]] const Value* find(std::string_view key) const;
  /// The value under `key`; throws std::out_of_range when absent (for tests and callers that know).
  [[nodiscard]] const Value& get(std::string_view key) const;

 private:
  Kind kind_ = Kind::null;
  bool boolean_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Value> items_;
  std::vector<std::string> keys_;
};

/// Calls the API function `name` with an object of named arguments. Throws roofline::Error for
/// any bad argument (missing_field, not_a_number, not_finite, ...) or unknown_function. Every
/// number in the result is finite.
Value call(std::string_view name, const Value& args);

/// A value as an error message names it: "null", "2.5", "the text \"abc\"", "a list", ...
std::string describe(const Value& v);

/// The names call() accepts, in documentation order.
std::vector<std::string> function_names();

}  // namespace roofline::api
