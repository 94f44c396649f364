// The core's plain value: what crosses between a host and the core (roofline/json.hpp reads and
// writes it as JSON text), what a config.json is read from, and what results are built as. It
// depends on nothing else of the core but the text of numbers.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roofline::json {

/// A JSON-like value: null, boolean, number, string, array or object (keys kept in order).
///
/// Small on purpose: a result tree is built, written as JSON and freed on every call of the JS
/// API, so a number or a boolean is just the kind and 8 bytes, and the storage of a string, an
/// array or an object shares that space (a union) instead of every value carrying all three.
class Value {
 public:
  enum class Kind : unsigned char { null, boolean, number, string, array, object };

  Value() noexcept {}
  Value(bool b) noexcept : kind_(Kind::boolean), boolean_(b) {}
  Value(double d) noexcept : kind_(Kind::number), number_(d) {}
  Value(int i) noexcept : kind_(Kind::number), number_(i) {}
  Value(std::string s) : kind_(Kind::string), string_(std::move(s)) {}
  Value(const char* s) : kind_(Kind::string), string_(s) {}
  Value(std::string_view s) : kind_(Kind::string), string_(s) {}
  static Value array(std::vector<Value> items = {});
  static Value object();

  Value(const Value& other);
  Value(Value&& other) noexcept;
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value() {
    if (kind_ >= Kind::string) destroy();
  }

  [[nodiscard]] Kind kind() const { return kind_; }
  [[nodiscard]] bool is(Kind k) const { return kind_ == k; }
  /// The boolean, or false for any other kind.
  [[nodiscard]] bool boolean() const { return kind_ == Kind::boolean && boolean_; }
  /// The number, or 0 for any other kind.
  [[nodiscard]] double number() const { return kind_ == Kind::number ? number_ : 0; }
  /// The text, or "" for any other kind.
  [[nodiscard]] const std::string& string() const;
  /// Elements of an array, or the values of an object (in key order); empty for any other kind.
  [[nodiscard]] const std::vector<Value>& items() const;
  /// Keys of an object, in order; empty for any other kind.
  [[nodiscard]] const std::vector<std::string>& keys() const;

  /// Adds or replaces a key of an object (a null becomes an empty object first); returns *this
  /// for chaining. On a temporary (Value::object().set(...).set(...)) the chain hands the
  /// temporary on by move, so that pushing or returning it moves the tree instead of copying it.
  /// A key given as a literal is built in place in the object.
  Value& set(std::string key, Value v) &;
  [[gnu::always_inline]] Value& set(const char* key, Value v) & { return set_text(key, std::move(v)); }
  Value&& set(std::string key, Value v) && { return std::move(set(std::move(key), std::move(v))); }
  [[gnu::always_inline]] Value&& set(const char* key, Value v) && { return std::move(set_text(key, std::move(v))); }
  /// Appends a key the object does not have yet (the caller knows: a result written field by
  /// field), without set's search for it; returns *this for chaining, by move on a temporary.
  Value& add(std::string key, Value v) &;
  [[gnu::always_inline]] Value& add(const char* key, Value v) & { return add_text(key, std::move(v)); }
  Value&& add(std::string key, Value v) && { return std::move(add(std::move(key), std::move(v))); }
  [[gnu::always_inline]] Value&& add(const char* key, Value v) && { return std::move(add_text(key, std::move(v))); }
  /// Appends to an array (a null becomes an empty array first; by move on a temporary, as set).
  Value& push(Value v) &;
  Value&& push(Value v) && { return std::move(push(std::move(v))); }
  /// The value under `key` of an object, or nullptr.
  [[nodiscard]] const Value* find(std::string_view key) const;
  /// The value under `key`; throws std::out_of_range when absent (for tests and callers that know).
  [[nodiscard]] const Value& get(std::string_view key) const;

 private:
  /// An array's elements (keys empty), or an object's keys and values, index by index.
  struct Members {
    std::vector<Value> items;
    std::vector<std::string> keys;
  };

  /// set and add for a key given as characters (always inlined above, so that a literal's length
  /// is counted by the compiler, not by strlen on every call).
  Value& set_text(std::string_view key, Value&& v);
  Value& add_text(std::string_view key, Value&& v);
  /// The object's members, for adding to it (a null becomes an empty object first).
  Members& object_members();
  /// Moves other's content into *this, which holds none (just built, or destroyed).
  void take(Value&& other) noexcept;
  /// Ends the life of the string or members (kind_ >= string); kind_ is left as it was.
  void destroy() noexcept;

  Kind kind_ = Kind::null;
  union {
    bool boolean_;
    double number_;
    std::string string_;  // kind_ == string
    Members members_;     // kind_ == array or object
  };
};

/// A value as an error message names it: "null", "2.5", "the text \"abc\"", "a list", ...
std::string describe(const Value& v);

}  // namespace roofline::json
